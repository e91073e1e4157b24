/** The command line: command and option descriptions, the help's examples. */
export const cli = {};
