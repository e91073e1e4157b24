/**
 * The words of the judgement by the installed vllm-ascend (src/probes/rules.ts) and of the
 * installed stack (src/probes/stack.ts): which release a rule of knowledge/ was judged for, and
 * what was assumed when no version could be read.
 */
export const knowledgeProbes = {
  rules: {
    range: (p: { from: string; to: string }) => (p.from === p.to ? p.from : `${p.from} to ${p.to}`),
    everyRelease: 'every release',
    installed: (p: { rule: string; version: string }) => `rule ${p.rule}, vllm-ascend ${p.version}`,
    between: (p: { rule: string; installed: string; release: string }) => `rule ${p.rule}, vllm-ascend ${p.installed} judged as ${p.release}`,
    assumedNewest: (p: { rule: string; release: string }) => `rule ${p.rule}; no vllm-ascend version found here, judged as at ${p.release}, the newest release`,
    assumedInForce: (p: { rule: string; range: string }) => `rule ${p.rule}; no vllm-ascend version found here, judged as if it applies (it does on ${p.range})`,
    assumedWarn: (p: { rule: string; range: string }) => `rule ${p.rule}; no vllm-ascend version found here, a warning (it fails on ${p.range})`,
  },
};
