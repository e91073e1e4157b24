/** Text of the shared probes (src/probes/), which several checks put into their messages. */
export const probes = {
  npu: {
    /** the logical device of an A3, a 310P or a renumbered card, and the card and chip it is on */
    deviceOfChip: (p: { device: number; card: number; chip: number }) => `device ${p.device} (NPU ${p.card} chip ${p.chip})`,
    card: (p: { card: number }) => `NPU ${p.card}`,
    /** a check that needs the NPU table cannot assess the node without it */
    inventoryUnavailable: (p: { what: string; problem: string }) => `cannot check ${p.what}: ${p.problem}`,
    sameCause: (p: { remediation: string }) => `${p.remediation} (npu.smi reports the same cause)`,
  },
};
