import type { knowledgeProbes as en } from '../en/knowledge.js';

export const knowledgeProbes: typeof en = {
  rules: {
    range: (p) => (p.from === p.to ? p.from : `${p.from} 至 ${p.to}`),
    everyRelease: '所有版本',
    installed: (p) => `规则 ${p.rule}，vllm-ascend ${p.version}`,
    between: (p) => `规则 ${p.rule}，vllm-ascend ${p.installed} 按 ${p.release} 判断`,
    assumedNewest: (p) => `规则 ${p.rule}；此处未找到 vllm-ascend 版本，按最新版本 ${p.release} 判断`,
    assumedInForce: (p) => `规则 ${p.rule}；此处未找到 vllm-ascend 版本，按规则适用判断（适用于 ${p.range}）`,
    assumedWarn: (p) => `规则 ${p.rule}；此处未找到 vllm-ascend 版本，仅作警告（在 ${p.range} 上会失败）`,
  },
};
