/** Text of the shared probes (src/probes/), which several checks put into their messages. */
export const probes = {

  // ---- hccn.* and net.* (src/probes/hccn-scope.ts, src/probes/nic-link.ts); keys alphabetical
  hccn: {
    /** one of a check's hccn_tool questions failed on some devices; `what` is the check's own words */
    cannotRead: (p: { what: string; failed: number; total: number; devices: string; problem: string }) =>
      `cannot read ${p.what} of ${p.failed} of ${p.total} devices (${p.devices}): ${p.problem}`,
    noDeviceSelected: (p: { source: string; selection: string; listed: number }) =>
      `no NPU device to examine: ${p.source} ${p.selection} selects none of the ${p.listed} devices npu-smi lists`,
    noNpuNetwork310p: (p: { what: string }) =>
      `the 310P family has no NPU network (no RoCE ports, no hccn_tool): ${p.what} does not apply; nodes talk over the host network`,
    noNpuNetwork310pFix: 'nothing to do here; a multi-node 310P deployment depends on the host network (net.host-nic)',
    /** a problem of the NPU network is only a warning on a single node: says why */
    singleNode: (p: { message: string }) =>
      `${p.message} (a warning on a single node: only traffic between nodes uses the NPU network; --cluster or a multi-node profile makes it blocking)`,
    selectionFix: (p: { source: string }) => `correct ${p.source} (ids count the visible devices from 0)`,
    toolBusyFix: 'another program keeps hccn_tool busy (an exporter, a monitoring loop): pause it while qprep runs, or raise hccn.busyRetries in the profile',
    toolExpiredFix: 'raise hccn.peersBudget in the profile, or ping fewer pairs (plan: ring or same-index in the cluster file)',
    toolFailedFix: (p: { command: string }) =>
      `run "${p.command}" by hand and read its answer; a driver that cannot answer needs "npu-smi info" and dmesg checked`,
    toolMissingInContainerFix: (p: { flag: string }) => `add ${p.flag} to docker run (npu.tools reports the same cause)`,
    toolMissingOnHostFix: 'install the NPU driver package (it ships hccn_tool in /usr/local/Ascend/driver/tools) (npu.tools reports the same cause)',
    toolRefusedFix: 'report this with "qprep snapshot -o snap.json --only hccn" attached',
  },
  nicLink: {
    halfDuplex: (p: { nic: string }) => `${p.nic} runs half duplex`,
    notForwarding: (p: { nic: string; state: string }) => `${p.nic} is ${p.state} (operstate)`,
    slow: (p: { nic: string; speedMbps: number; minMbps: number }) =>
      `${p.nic} links at ${p.speedMbps} Mb/s, below the ${p.minMbps} Mb/s a multi-node deployment needs (host.nic.minSpeedMbps)`,
    /** "eth0 100000 Mb/s, MTU 9000" */
    summary: (p: { nic: string; speedMbps: number | null; halfDuplex: boolean; mtu: number | null }) =>
      `${p.nic} ${p.speedMbps === null ? 'speed not reported' : `${p.speedMbps} Mb/s`}${p.halfDuplex ? ' half duplex' : ''}, MTU ${p.mtu ?? 'unknown'}`,
  },
  // ---- end of hccn.* and net.*
  npu: {
    /** the logical device of an A3, a 310P or a renumbered card, and the card and chip it is on */
    deviceOfChip: (p: { device: number; card: number; chip: number }) => `device ${p.device} (NPU ${p.card} chip ${p.chip})`,
    card: (p: { card: number }) => `NPU ${p.card}`,
    /** a check that needs the NPU table cannot assess the node without it */
    inventoryUnavailable: (p: { what: string; problem: string }) => `cannot check ${p.what}: ${p.problem}`,
    sameCause: (p: { remediation: string }) => `${p.remediation} (npu.smi reports the same cause)`,
  },
};
