/** The checks hccn.*: the NPU network (hccn_tool, hccn.conf, peers, SuperPoD). One entry per check id. */
export const hccn = {};
