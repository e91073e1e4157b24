import { fail, pass } from '../src/core/outcome.js';
import { defineCheck } from '../src/core/types.js';
import { inventoryUnavailable } from '../src/probes/npu-advice.js';
import { deviceLabel, npuInventory, selectVisible, visibleDevices, type NpuDevice } from '../src/probes/npu.js';
import { plural, summarizeList } from '../src/util/text.js';

interface Busy {
  device: NpuDevice;
  label: string;
  reason: string;
}

export default defineCheck({
  id: 'npu.idle',
  title: 'NPUs free for the workload',
  category: 'npu',
  level: 'required',
  why:
    'The most common late failure: another process or a forgotten container holds an NPU, and vLLM fails with "NPU out ' +
    'of memory" or a second instance dies on the same NPU after a long load. npu-smi lists the processes per NPU, and ' +
    'HBM (DDR on the 310P) far above the idle baseline means a holder npu-smi cannot see, e.g. one in another container. ' +
    'Only the NPUs in ASCEND_RT_VISIBLE_DEVICES (or the profile\'s npu.visibleDevices) are checked. Required.',
  reads: ['npu-smi info (process table, memory columns)', 'ASCEND_RT_VISIBLE_DEVICES', 'profile npu.idleMemoryMB, npu.visibleDevices'],
  fix: 'Stop the process or container holding the NPU, or point ASCEND_RT_VISIBLE_DEVICES at free NPUs.',
  async run(ctx) {
    const inventory = await npuInventory(ctx);
    if (!inventory.ok) return inventoryUnavailable(ctx, inventory.problem, 'whether the NPUs are free');
    const limits = ctx.profile.npu.idleMemoryMB;
    const visible = visibleDevices(ctx);
    const used = selectVisible(inventory.devices, visible);
    const busy: Busy[] = [];
    for (const device of used) {
      const label = deviceLabel(device, inventory.family);
      if (device.processes.length > 0) {
        const listed = device.processes.map((p) => `pid ${p.pid}${p.name ? ` ${p.name}` : ''}${p.memoryMB !== null ? ` (${p.memoryMB} MB)` : ''}`);
        busy.push({ device, label, reason: `${label}: ${summarizeList(listed, 2)}` });
        continue;
      }
      const memory = device.memory;
      const limit = memory ? limits[memory.kind] : 0;
      // a 310B board's Memory-Usage is the DDR its own OS runs in: used, but not by a workload
      if (memory && memory.usedMB > limit && !/^310B/i.test(device.name)) {
        busy.push({ device, label, reason: `${label}: ${memory.usedMB} of ${memory.totalMB} MB ${memory.kind.toUpperCase()} in use, no process listed` });
      }
    }
    const memories = used.flatMap((d) => (d.memory ? [d.memory.usedMB] : []));
    const evidence = {
      checked: used.map((d) => ({ device: d.device, memory: d.memory, processes: d.processes })),
      idleMemoryMB: limits,
      visible,
      processTable: inventory.processSection,
    };
    if (busy.length > 0) {
      const pids = busy.flatMap((b) => b.device.processes.map((p) => p.pid));
      // one command per line: the kill, then the alternative of working around the busy NPUs
      const free = used.filter((d) => !busy.some((b) => b.device === d)).map((d) => d.device);
      // a concrete list only when every device is visible: under a selection the ids are renumbered
      const around = free.length > 0 && visible.ids === null ? `or: export ASCEND_RT_VISIBLE_DEVICES=${free.join(',')}   # only the free NPUs` : 'or: set ASCEND_RT_VISIBLE_DEVICES to free NPUs';
      const remediation = pids.length > 0
        ? `kill ${[...new Set(pids)].slice(0, 8).join(' ')}   # stop the holder if it is a leftover (in another container: docker ps, then docker stop it)\n${around}`
        : `a process outside this view holds the memory (another container, or a process the host's npu-smi lists): run npu-smi info on the host and stop it\n${around}`;
      return fail(`${busy.length} of ${plural(used.length, 'NPU device')} in use: ${summarizeList(busy.map((b) => b.reason), 3)}`, {
        expected: `no process, memory <= ${limits.hbm} MB HBM / ${limits.ddr} MB DDR`,
        actual: busy.map((b) => b.label).join(', '),
        remediation,
        evidence,
      });
    }
    const range = memories.length ? `, ${Math.min(...memories)}-${Math.max(...memories)} MB in use (idle baseline)` : '';
    const note = inventory.processSection ? 'no process' : 'this driver prints no process table';
    return pass(`${plural(used.length, 'NPU device')} free: ${note}${range}`, { evidence });
  },
});
