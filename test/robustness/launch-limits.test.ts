import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { guideScript } from '../helpers/launch.js';
import { REPO } from '../helpers/cli.js';
import { httpGet, recipeNodeOptions, startServe } from '../helpers/serve.js';
import { fakeBin, healthyNpuSmi, hostTree, parseReport, qprepWith, tmp } from './support.js';

/*
 * Launch scripts made to hurt the reader: 600 KB of one-letter words and 1 MiB of `A=1` lines
 * (the heap: each ended qprep with an out-of-memory abort, exit 134, under the install recipes'
 * 192 MB heap), a 24 MB script of assignments, 5,000 nested groups (quadratic nesting). Each
 * ends with a clear result: a report, or exit 2 naming the file and the cap (1 MiB, or 16,384
 * words and operators). The runs that matter for memory run as the recipes start qprep, with
 * their NODE_OPTIONS. The test timeout is the bound; nothing here measures time or memory
 * (npm run bench --only input-memory does).
 */

const CAP = 1024 * 1024;
const TOKENS = 16_384;
const TOKEN_CAP_TEXT = `more than ${TOKENS} words and operators (each quoted piece or expansion of a word, and each ;, &&, |, redirection or line end, counts as one), the most qprep reads of a launch script`;
const RECIPE = { NODE_OPTIONS: recipeNodeOptions() };
let dir: string;
let root: string;
let bin: string;

beforeAll(() => {
  dir = tmp('launch-limits');
  root = hostTree();
  bin = fakeBin({ 'npu-smi': healthyNpuSmi() });
});

function script(name: string, text: string): string {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
}

const LAUNCH_CHECKS = ['--only', 'launch.script,launch.flags,launch.env,launch.placeholders,launch.ports'];

describe('launch scripts at their limits', () => {
  it('600 KB of one-letter words and 1 MiB of A=1 lines, under the recipes\' NODE_OPTIONS: exit 2, one line naming the file and the cap, no abort', async () => {
    const words = script('words.sh', `vllm serve /models/Qwen3.5-4B${' a'.repeat(300_000)}\n`);
    const assignments = script('a1.sh', 'A=1\n'.repeat(CAP / 4 - 1));
    for (const path of [words, assignments]) {
      expect(readFileSync(path).length).toBeLessThan(CAP);
      const run = await qprepWith(bin, ['check', '--root', root, '--launch', path, '--format', 'json'], RECIPE);
      expect(run.exitCode, run.stderr).toBe(2);
      expect(run.stderr).toBe(`qprep: error: cannot read launch script ${path}: ${TOKEN_CAP_TEXT}\n`);
      expect(JSON.parse(run.stdout)).toMatchObject({ ready: false, error: { code: 'invalid-input' } });
    }
  });

  it('a script at both caps (1 MiB, 16,384 words and operators) is read to the end under the recipes\' NODE_OPTIONS: a report, every launch check finished', async () => {
    // 16,380 stray words of 63 bytes after the model: with the command's 3 and its line end, 16,384 tokens
    const words = Array.from({ length: 16_380 }, (_, i) => `p${String(i).padStart(5, '0')}${'v'.repeat(57)}`).join(' ');
    const path = script('at-caps.sh', `vllm serve /models/Qwen3.5-4B ${words}\n`);
    expect(readFileSync(path).length).toBeGreaterThan(CAP - 1024);
    expect(readFileSync(path).length).toBeLessThan(CAP);
    const run = await qprepWith(bin, ['check', '--root', root, '--launch', path, '--format', 'json'], RECIPE);
    expect(run.exitCode, run.stderr).toBe(1);
    const { byId } = await parseReport(run.stdout);
    expect(byId['launch.script']!.message).toContain('vllm serve /models/Qwen3.5-4B at line 1');
    // each stray word is a problem: the first 50 in the evidence, and all of them counted
    expect(byId['launch.flags']!.message).toMatch(/^"p00000v+" \(at-caps\.sh:1\) is a second positional argument: .* \(and 16379 more\)$/);
    expect(byId['launch.flags']!.evidence).toMatchObject({ problemCount: 16_380 });
    expect(byId['launch.flags']!.evidence.problems).toHaveLength(50);
  });

  it("serve's first run, as the recipes start it: a script at the caps is judged, one over them ends the run without a verdict; serve answers on", async () => {
    const words = Array.from({ length: 16_380 }, (_, i) => `p${String(i).padStart(5, '0')}${'v'.repeat(57)}`).join(' ');
    const atCaps = script('serve-at-caps.sh', `vllm serve /models/Qwen3.5-4B ${words}\n`);
    const over = script('serve-over.sh', 'A=1\n'.repeat(CAP / 4 - 1));
    const snapshot = join(REPO, 'examples/snapshots/a2-healthy.json');
    for (const [path, verdict] of [[atCaps, 'not-ready'], [over, 'no-verdict']] as const) {
      const agent = await startServe(['--snapshot', snapshot, '--launch', path, '--interval', '1h'], { env: RECIPE });
      try {
        const run = await agent.waitForLog((line) => line.event === 'run');
        expect(run.verdict, JSON.stringify(run)).toBe(verdict);
        if (verdict === 'no-verdict') expect((run.error as { message: string }).message).toBe(`cannot read launch script ${path}: ${TOKEN_CAP_TEXT}`);
        expect((await httpGet(`${agent.base}/healthz`)).status).toBe(200);
        expect((await httpGet(`${agent.base}/readyz`)).status).toBe(503);
      } finally {
        expect(await agent.stop()).toBe(0);
      }
    }
  });

  it('1 MiB of letters in a comment and in a quoted value: a report (the redaction read each run of letters once per letter, for hours)', async () => {
    const comment = script('letters-comment.sh', `# ${'x'.repeat(CAP - 64)}\nvllm serve /models/Qwen3.5-4B --port 8000\n`);
    const quoted = script('letters-value.sh', `vllm serve /models/Qwen3.5-4B --port 8000 --served-model-name '${'q'.repeat(CAP - 128)}'\n`);
    for (const path of [comment, quoted]) {
      const run = await qprepWith(bin, ['check', '--root', root, '--launch', path, ...LAUNCH_CHECKS, '--format', 'json'], RECIPE);
      expect(run.exitCode, run.stderr).toBeLessThan(2);
      expect((await parseReport(run.stdout)).byId['launch.script']!.message).toContain('vllm serve /models/Qwen3.5-4B at line');
    }
  });

  it('a 24 MB script of assignments is refused before it is read: exit 2, the file and the cap named, one error document', async () => {
    const line = 'export VALUE_0123456789=abcdefghijklmnopqrstuvwxyz\n';
    const path = script('assignments.sh', line.repeat(Math.ceil((24 * 1024 * 1024) / line.length)));
    const run = await qprepWith(bin, ['check', '--root', root, '--launch', path, '--format', 'json']);
    expect(run.exitCode).toBe(2);
    expect(run.stderr).toBe(`qprep: error: cannot read launch script ${path}: ${readFileSync(path).length} bytes, over the ${CAP} bytes (1 MiB) qprep reads of a launch script\n`);
    expect(JSON.parse(run.stdout)).toMatchObject({ ready: false, error: { code: 'invalid-input' } });
  });

  it('the same cap on standard input, read no further than the cap', async () => {
    const path = script('stdin.sh', `# ${'x'.repeat(CAP)}\n`);
    const run = await qprepWith(bin, ['check', '--root', root, '--launch', '-', ...LAUNCH_CHECKS], {}, path);
    expect(run.exitCode).toBe(2);
    // a pipe: its length is not known when the cap is reached
    expect(run.stderr).toBe(`qprep: error: cannot read launch script from standard input: over the ${CAP} bytes (1 MiB) qprep reads of a launch script\n`);
  });

  it('a script just under both caps, all assignments, is read to the end', async () => {
    // three tokens a line (export, the assignment, the line end), 5,400 lines: 16,200 tokens
    const line = `export VALUE_0123456789=${'x'.repeat(165)}\n`;
    const text = `${line.repeat(5400)}vllm serve /models/Qwen3.5-4B --port 8000\n`;
    expect(text.length).toBeGreaterThan(CAP - 32 * 1024);
    const run = await qprepWith(bin, ['check', '--root', root, '--launch', script('near-cap.sh', text), ...LAUNCH_CHECKS, '--format', 'json']);
    expect(run.exitCode, run.stderr).toBeLessThan(2);
    const { byId } = await parseReport(run.stdout);
    expect(byId['launch.script']!.message).toMatch(/vllm serve \/models\/Qwen3\.5-4B at line 5401 with 1 flag, 5400 assignments/);
  });

  it('5,000 nested groups, closed or never closed (15,000 tokens), end with launch.script saying what bash would do', async () => {
    const closed = script('nested.sh', `${'{ '.repeat(5_000)}vllm serve /models/Qwen3.5-4B --port 8000; ${'}; '.repeat(5_000)}\n`);
    const open = script('unclosed.sh', `${'{ '.repeat(5_000)}\n`);
    const good = await qprepWith(bin, ['check', '--root', root, '--launch', closed, ...LAUNCH_CHECKS, '--format', 'json']);
    expect(good.exitCode, good.stderr).toBeLessThan(2);
    expect((await parseReport(good.stdout)).byId['launch.script']!.message).toContain('vllm serve /models/Qwen3.5-4B at line 1 with 1 flag');
    const bad = await qprepWith(bin, ['check', '--root', root, '--launch', open, ...LAUNCH_CHECKS, '--format', 'json']);
    expect(bad.exitCode).toBe(1);
    const result = (await parseReport(bad.stdout)).byId['launch.script']!;
    expect(result).toMatchObject({ status: 'fail' });
    expect(result.message).toMatch(/^unclosed\.sh will not run as written: the group opened on line 1 is never closed: bash refuses the script \(and \d+ more problems\)$/);
  });

  it("a snapshot's recorded script over the cap is not read: launch.script fails naming the size", async () => {
    const snapshot = join(dir, 'snapshot.json');
    const small = script('small.sh', guideScript('qwen3.5-4b-310p.sh'));
    const recorded = await qprepWith(bin, ['snapshot', '--root', root, '--launch', small, '-o', snapshot, ...LAUNCH_CHECKS]);
    expect(recorded.exitCode, recorded.stderr).toBe(0);
    const document = JSON.parse(readFileSync(snapshot, 'utf8')) as { launch: { text: string } };
    document.launch.text = 'A=1\n'.repeat(600_000);
    writeFileSync(snapshot, JSON.stringify(document));
    const replay = await qprepWith(null, ['check', '--snapshot', snapshot, ...LAUNCH_CHECKS, '--format', 'json']);
    expect(replay.exitCode, replay.stderr).toBe(1);
    const result = (await parseReport(replay.stdout)).byId['launch.script']!;
    expect(result.status).toBe('fail');
    expect(result.message).toContain(`the script is 2400000 bytes, over the ${CAP} bytes (1 MiB) qprep reads of a launch script: it was not read`);
  });
});
