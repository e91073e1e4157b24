import { plural } from '../../../util/text.js';

/** The checks npu.*: the NPUs, their driver, firmware and CANN. One entry per check id. */
export const npu = {
  'npu.idle': {
    title: 'NPUs free for the workload',
    why:
      'The most common late failure: another process or a forgotten container holds an NPU, and vLLM fails with "NPU out ' +
      'of memory" or a second instance dies on the same NPU after a long load. npu-smi lists the processes per NPU, and ' +
      'HBM (DDR on the 310P) far above the idle baseline means a holder npu-smi cannot see, e.g. one in another container. ' +
      "Only the NPUs in ASCEND_RT_VISIBLE_DEVICES (or the profile's npu.visibleDevices) are checked. Required.",
    reads: ['npu-smi info (process table, memory columns)', 'ASCEND_RT_VISIBLE_DEVICES', 'profile npu.idleMemoryMB, npu.visibleDevices'],
    fix: 'Stop the process or container holding the NPU, or point ASCEND_RT_VISIBLE_DEVICES at free NPUs.',
    /** what cannot be checked without the NPU table */
    what: 'whether the NPUs are free',
    process: (p: { pid: number; name: string | null; memoryMB: number | null }) =>
      `pid ${p.pid}${p.name ? ` ${p.name}` : ''}${p.memoryMB !== null ? ` (${p.memoryMB} MB)` : ''}`,
    heldByProcesses: (p: { device: string; processes: string }) => `${p.device}: ${p.processes}`,
    heldByUnlisted: (p: { device: string; usedMB: number; totalMB: number; kind: string }) =>
      `${p.device}: ${p.usedMB} of ${p.totalMB} MB ${p.kind} in use, no process listed`,
    busy: (p: { busy: number; used: number; reasons: string }) => `${p.busy} of ${plural(p.used, 'NPU device')} in use: ${p.reasons}`,
    /** a remediation line: the kill command stays as written, the comment after # is for the reader */
    kill: (p: { pids: string }) => `kill ${p.pids}   # stop the holder if it is a leftover (in another container: docker ps, then docker stop it)`,
    holderOutsideView: "a process outside this view holds the memory (another container, or a process the host's npu-smi lists): run npu-smi info on the host and stop it",
    /** "or: " marks an alternative line of a remediation; the report shows it as its own label */
    useFreeDevices: (p: { devices: string }) => `or: export ASCEND_RT_VISIBLE_DEVICES=${p.devices}   # only the free NPUs`,
    pointAtFreeDevices: 'or: set ASCEND_RT_VISIBLE_DEVICES to free NPUs',
    free: (p: { used: number; processTable: boolean; memoryRange: { min: number; max: number } | null }) =>
      `${plural(p.used, 'NPU device')} free: ${p.processTable ? 'no process' : 'this driver prints no process table'}` +
      (p.memoryRange ? `, ${p.memoryRange.min}-${p.memoryRange.max} MB in use (idle baseline)` : ''),
  },
};
