import { describe, expect, it } from 'vitest';
import { zh } from '../../../src/i18n/zh/index.js';
import { integerFlag, jsonFlag, type FlagProblem } from '../../../src/parsers/vllm-args.js';
import { flagReason, flagReasonAt, parallelism, viewOf } from '../../../src/probes/launch.js';

const HAN = /\p{Script=Han}/u;

function serveArgs(line: string) {
  const view = viewOf({ file: 'run.sh', text: `${line}\n`, from: 'file' }, {});
  if (!view.serve) throw new Error(`no server command in: ${line}`);
  return view.serve.parsed;
}

/** The parser's facts render the parser's English reason, and a Chinese one that keeps the flag and value as written. */
describe('flagReason: why a server flag cannot be used, in either language', () => {
  const cases: Array<{ line: string; read: (args: ReturnType<typeof serveArgs>) => ReturnType<typeof integerFlag> | ReturnType<typeof jsonFlag>; kind: FlagProblem['kind']; zh: string }> = [
    { line: 'vllm serve /m --tensor-parallel-size two', read: (a) => integerFlag(a, 'tensor-parallel-size', 1), kind: 'not-whole', zh: '--tensor-parallel-size 为 "two"，不是整数' },
    { line: 'vllm serve /m --tensor-parallel-size 0', read: (a) => integerFlag(a, 'tensor-parallel-size', 1), kind: 'below', zh: '--tensor-parallel-size 为 0，小于 1' },
    { line: 'vllm serve /m --tensor-parallel-size $(nproc)', read: (a) => integerFlag(a, 'tensor-parallel-size', 1), kind: 'unknown', zh: '--tensor-parallel-size 为 $(nproc)，只有运行时才能确定' },
    { line: `vllm serve /m --additional-config '{"a": True}'`, read: (a) => jsonFlag(a, 'additional-config'), kind: 'not-json', zh: '--additional-config（第 1 行）不是合法的 JSON：“' },
    { line: 'vllm serve /m --additional-config "$(cat c.json)"', read: (a) => jsonFlag(a, 'additional-config'), kind: 'run-time', zh: '--additional-config 在运行时构造（$(cat c.json)）' },
  ];
  for (const c of cases) {
    it(`${c.kind}: ${c.line}`, () => {
      const result = c.read(serveArgs(c.line));
      if (result.state !== 'invalid') throw new Error(`expected an invalid flag, got ${result.state}`);
      expect(result.problem.kind).toBe(c.kind);
      expect(flagReason(result)).toBe(result.reason);
      const chinese = flagReason(result, zh.probes.launch);
      expect(chinese.startsWith(c.zh)).toBe(true);
      expect(chinese).toMatch(HAN);
    });
  }

  it("a size that is no number: Parallelism.problems is the English of flagReasonAt, the Chinese names the line", () => {
    const layout = parallelism(serveArgs('vllm serve /m --tensor-parallel-size two'));
    expect(layout.invalid).toHaveLength(1);
    expect(layout.problems).toEqual([flagReasonAt(layout.invalid[0]!)]);
    expect(layout.problems[0]).toBe('--tensor-parallel-size is "two", not a whole number (line 1)');
    expect(flagReasonAt(layout.invalid[0]!, zh.probes.launch)).toBe('--tensor-parallel-size 为 "two"，不是整数（第 1 行）');
  });
});
