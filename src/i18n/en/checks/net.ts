/** The checks net.*: the host network. One entry per check id. */
export const net = {};
