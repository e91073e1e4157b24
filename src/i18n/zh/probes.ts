import type { probes as en } from '../en/probes.js';

export const probes: typeof en = {
  npu: {
    deviceOfChip: (p) => `设备 ${p.device}（NPU 卡 ${p.card} 芯片 ${p.chip}）`,
    card: (p) => `NPU ${p.card}`,
    inventoryUnavailable: (p) => `无法检查${p.what}：${p.problem}`,
    sameCause: (p) => `${p.remediation}（npu.smi 报告了同一原因）`,
  },
};
