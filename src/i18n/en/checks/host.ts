/** The checks host.*: host resources (memory, shm, disk, server model). One entry per check id. */
export const host = {};
