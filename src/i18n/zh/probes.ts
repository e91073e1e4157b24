import type { probes as en } from '../en/probes.js';

export const probes: typeof en = {
  npu: {
    deviceOfChip: (p) => `设备 ${p.device}（NPU 卡 ${p.card} 芯片 ${p.chip}）`,
    card: (p) => `NPU ${p.card}`,
    inventoryUnavailable: (p) => `无法检查${p.what}：${p.problem}`,
    sameCause: (p) => `${p.remediation}（npu.smi 报告了同一原因）`,
  },
  // the Python and model probes (src/probes/python.ts, src/probes/model.ts), alphabetical by key
  model: {
    configProblem: (p) =>
      p.kind === 'missing'
        ? '没有 config.json'
        : p.kind === 'not-object'
          ? 'config.json 不是 JSON 对象'
          : p.kind === 'not-json'
            ? `config.json 不是合法的 JSON：${p.error}`
            : p.problem,
    notDirectory: (p) => `${p.path} 是${p.kind === 'file' ? '文件' : p.kind === 'symlink' ? '符号链接' : ` ${p.kind}`}，不是目录`,
  },
  python: {
    via: (p) =>
      p.kind === 'script-runs'
        ? `${p.python}，即启动脚本运行的解释器`
        : p.kind === 'shebang'
          ? `${p.launcher} 的 #! 行`
          : `PATH 中的第一个 python3${p.missing === null ? '' : `，未找到 ${p.missing}`}`,
  },
};
