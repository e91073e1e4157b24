/** The checks cpu.*, sysctl.*, sched.*, mem.*, python.*, model.*, tune.journal: tuning, Python and the model. One entry per check id. */
export const tuning = {};
