import { fail, pass } from '../src/core/outcome.js';
import { defineCheck } from '../src/core/define-check.js';
import { inventoryUnavailable } from '../src/probes/npu-advice.js';
import { deviceLabel, npuInventory, selectVisible, visibleDevices, type NpuDevice } from '../src/probes/npu.js';
import { summarizeList } from '../src/util/text.js';

interface Busy {
  device: NpuDevice;
  label: string;
  reason: string;
}

// title, why, fix, reads and every message: src/i18n/*/checks/npu.ts
export default defineCheck({
  id: 'npu.idle',
  category: 'npu',
  order: 70,
  level: 'required',
  depth: 'quick',
  action: 'restart-workload',
  async run(ctx) {
    const t = ctx.text.checks['npu.idle'];
    const list = ctx.text.report.list;
    const inventory = await npuInventory(ctx);
    if (!inventory.ok) return inventoryUnavailable(ctx, inventory.problem, t.what);
    const limits = ctx.profile.npu.idleMemoryMB;
    const visible = visibleDevices(ctx);
    const used = selectVisible(inventory.devices, visible);
    const busy: Busy[] = [];
    for (const device of used) {
      const label = deviceLabel(device, inventory.family, ctx.text);
      if (device.processes.length > 0) {
        const listed = device.processes.map((p) => t.process({ pid: p.pid, name: p.name || null, memoryMB: p.memoryMB }));
        busy.push({ device, label, reason: t.heldByProcesses({ device: label, processes: summarizeList(listed, 2, list) }) });
        continue;
      }
      const memory = device.memory;
      const limit = memory ? limits[memory.kind] : 0;
      // a 310B board's Memory-Usage is the DDR its own OS runs in: used, but not by a workload
      if (memory && memory.usedMB > limit && !/^310B/i.test(device.name)) {
        busy.push({ device, label, reason: t.heldByUnlisted({ device: label, usedMB: memory.usedMB, totalMB: memory.totalMB, kind: memory.kind.toUpperCase() }) });
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
      const around = free.length > 0 && visible.ids === null ? t.useFreeDevices({ devices: free.join(',') }) : t.pointAtFreeDevices;
      const first = pids.length > 0 ? t.kill({ pids: [...new Set(pids)].slice(0, 8).join(' ') }) : t.holderOutsideView;
      return fail(t.busy({ busy: busy.length, used: used.length, reasons: summarizeList(busy.map((b) => b.reason), 3, list) }), {
        // expected and actual are for programs: never translated
        expected: `no process, memory <= ${limits.hbm} MB HBM / ${limits.ddr} MB DDR`,
        actual: busy.map((b) => deviceLabel(b.device, inventory.family)).join(', '),
        remediation: `${first}\n${around}`,
        evidence,
      });
    }
    const memoryRange = memories.length ? { min: Math.min(...memories), max: Math.max(...memories) } : null;
    return pass(t.free({ used: used.length, processTable: inventory.processSection, memoryRange }), { evidence });
  },
});
