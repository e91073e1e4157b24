import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { guideScript } from '../helpers/launch.js';
import { fakeBin, healthyNpuSmi, hostTree, parseReport, qprepWith, tmp } from './support.js';

/*
 * Launch scripts made to hurt the reader: one command of 130,000 words (the call stack), a
 * 24 MB script of assignments (the heap), 50,000 nested groups (quadratic nesting). Each ends
 * with a clear result: a report, or exit 2 naming the file and the 1 MiB cap. The test timeout
 * is the bound; nothing here measures time.
 */

const CAP = 1024 * 1024;
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
  it('one command of more than 130,000 words is read: a report, every launch check finished', async () => {
    const words = Array.from({ length: 65_000 }, (_, i) => `--f${i % 50} ${i}`).join(' ');
    const path = script('words.sh', `vllm serve /models/Qwen3.5-4B --port 8000 ${words}\n`);
    expect(readFileSync(path).length).toBeLessThan(CAP);
    const run = await qprepWith(bin, ['check', '--root', root, '--launch', path, ...LAUNCH_CHECKS, '--format', 'json']);
    expect(run.exitCode, run.stderr).toBeLessThan(2);
    const { byId } = await parseReport(run.stdout);
    expect(byId['launch.script']!.message).toContain('with 65001 flags');
  });

  it('a 24 MB script of assignments is refused before it is read: exit 2, the file and the cap named, one error document', async () => {
    const line = 'export VALUE_0123456789=abcdefghijklmnopqrstuvwxyz\n';
    const path = script('assignments.sh', line.repeat(Math.ceil((24 * 1024 * 1024) / line.length)));
    const run = await qprepWith(bin, ['check', '--root', root, '--launch', path, '--format', 'json']);
    expect(run.exitCode).toBe(2);
    expect(run.stderr).toBe(`qprep: error: cannot read launch script ${path}: ${readFileSync(path).length} bytes, over the ${CAP} bytes (1 MiB) qprep reads of a launch script\n`);
    expect(JSON.parse(run.stdout)).toMatchObject({ ready: false, error: { code: 'invalid-input' } });
  });

  it('the same cap on standard input', async () => {
    const path = script('stdin.sh', `# ${'x'.repeat(CAP)}\n`);
    const run = await qprepWith(bin, ['check', '--root', root, '--launch', '-', ...LAUNCH_CHECKS], {}, path);
    expect(run.exitCode).toBe(2);
    expect(run.stderr).toContain(`cannot read launch script from standard input: ${CAP + 3} bytes, over the ${CAP} bytes (1 MiB)`);
  });

  it('a script just under the cap, all assignments, is read to the end', async () => {
    const line = 'export VALUE_0123456789=abcdefghijklmnopqrstuvwxyz\n';
    const text = `${line.repeat(Math.floor((CAP - 200) / line.length))}vllm serve /models/Qwen3.5-4B --port 8000\n`;
    const run = await qprepWith(bin, ['check', '--root', root, '--launch', script('near-cap.sh', text), ...LAUNCH_CHECKS, '--format', 'json']);
    expect(run.exitCode, run.stderr).toBeLessThan(2);
    const { byId } = await parseReport(run.stdout);
    expect(byId['launch.script']!.message).toMatch(/vllm serve \/models\/Qwen3\.5-4B at line \d{5} with 1 flag/);
  });

  it('50,000 nested groups, closed or never closed, end with launch.script saying what bash would do', async () => {
    const closed = script('nested.sh', `${'{ '.repeat(50_000)}vllm serve /models/Qwen3.5-4B --port 8000; ${'}; '.repeat(50_000)}\n`);
    const open = script('unclosed.sh', `${'{ '.repeat(50_000)}\n`);
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
