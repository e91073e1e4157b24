/** The checks launch.*: the launch script. One entry per check id. */
export const launch = {};
