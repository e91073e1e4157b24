import type { npu as en } from '../../en/checks/npu.js';

export const npu: typeof en = {
  'npu.idle': {
    title: 'NPU 空闲可用',
    why:
      '最常见的迟发故障：另一个进程或被遗忘的容器占着 NPU，vLLM 报 "NPU out of memory"，或第二个实例在长时间加载后死在同一块 NPU 上。' +
      'npu-smi 按 NPU 列出进程；HBM（310P 上为 DDR）远高于空闲基线，说明有 npu-smi 看不到的占用者，例如另一个容器中的进程。' +
      '只检查 ASCEND_RT_VISIBLE_DEVICES（或 profile 的 npu.visibleDevices）中的 NPU。必需项。',
    reads: ['npu-smi info（进程表、内存列）', 'ASCEND_RT_VISIBLE_DEVICES', 'profile npu.idleMemoryMB, npu.visibleDevices'],
    fix: '停止占用 NPU 的进程或容器，或将 ASCEND_RT_VISIBLE_DEVICES 指向空闲的 NPU。',
    what: '各 NPU 是否空闲',
    process: (p) => `pid ${p.pid}${p.name ? ` ${p.name}` : ''}${p.memoryMB !== null ? `（${p.memoryMB} MB）` : ''}`,
    heldByProcesses: (p) => `${p.device}：${p.processes}`,
    heldByUnlisted: (p) => `${p.device}：已用 ${p.usedMB} / ${p.totalMB} MB ${p.kind}，但未列出进程`,
    busy: (p) => `${p.used} 个 NPU 设备中有 ${p.busy} 个被占用：${p.reasons}`,
    kill: (p) => `kill ${p.pids}   # 若是残留进程则停止它（在另一个容器中：先 docker ps，再 docker stop）`,
    holderOutsideView: '此视图之外的进程占用了内存（另一个容器，或宿主机的 npu-smi 才能列出的进程）：在宿主机上运行 npu-smi info 并停止它',
    useFreeDevices: (p) => `or: export ASCEND_RT_VISIBLE_DEVICES=${p.devices}   # 只用空闲的 NPU`,
    pointAtFreeDevices: 'or: 将 ASCEND_RT_VISIBLE_DEVICES 设为空闲的 NPU',
    free: (p) =>
      `${p.used} 个 NPU 设备空闲：${p.processTable ? '无进程' : '此驱动不打印进程表'}` +
      (p.memoryRange ? `，已用 ${p.memoryRange.min}-${p.memoryRange.max} MB（空闲基线）` : ''),
  },
};
