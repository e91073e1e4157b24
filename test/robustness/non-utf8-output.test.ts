import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { fixturePath } from '../helpers/fixtures.js';
import { A2_TABLE, fakeBin, healthyNpuSmi, hostTree, parseReport, qprepWith, shellQuote, tmp } from './support.js';

/*
 * Tool output that is not UTF-8: a process name in a latin1 locale, random bytes (a tool
 * writing a binary buffer), NUL bytes (a C buffer printed whole), terminal escapes. qprep reads
 * it as UTF-8 with U+FFFD for what is not, the parsers never throw: the result is either a
 * tolerant parse or an error that shows the first offending line, control characters made
 * visible. The inputs are made here from the real fixtures; none is a new output format.
 */

const WIDE = fixturePath('ascend', 'npu-smi-info-910b3-26.1.0-wide-proc-container-col-testfixture.txt');
const HCCN_IP = fixturePath('ascend', 'hccn-ip-g-a2x8-mindie-dsv3doc.txt');

/** Bytes from a fixed linear congruential sequence: "random", and the same in every run. */
function pseudoRandomBytes(seed: number, length: number): Buffer {
  const bytes = Buffer.alloc(length);
  let state = seed;
  for (let i = 0; i < length; i++) {
    state = (Math.imul(state, 1103515245) + 12345) >>> 0;
    bytes[i] = state >>> 24;
  }
  return bytes;
}

/** No raw control character but the line feed: nothing a terminal or a log would interpret. */
const RAW_CONTROL = /[\u0000-\u0009\u000b-\u001f\u007f]/;

const inputs: Record<string, string> = {};

beforeAll(() => {
  const dir = tmp('bytes');
  const put = (name: string, content: Buffer) => {
    inputs[name] = join(dir, name);
    writeFileSync(inputs[name], content);
  };
  // the process "pytest" renamed "café-ÿþ" as a latin1 locale prints it: 0xE9 0xFF 0xFE are not UTF-8
  put('latin1-table', Buffer.from(readFileSync(WIDE, 'latin1').replace('pytest', 'caf\u00e9\u00ff\u00fe'), 'latin1'));
  put('random', pseudoRandomBytes(42, 64 * 1024));
  put('table-then-nuls', Buffer.concat([readFileSync(A2_TABLE), Buffer.alloc(4096)]));
  put('nul-for-space', Buffer.from(readFileSync(A2_TABLE, 'latin1').replace(/ /g, '\0'), 'latin1'));
  put('escapes', Buffer.from('\u001b]0;owned\u0007\u001b[2J\u001b[31mdcmi error\u0000\n', 'latin1'));
  put('hccn-ip-latin1', Buffer.concat([readFileSync(HCCN_IP).subarray(0, 40), Buffer.from([0xa0, 0xe9, 0x0a])]));
});

function npuSmiCat(name: string, exit = 0): string {
  return `cat ${shellQuote(inputs[name]!)}\nexit ${exit}\n`;
}

describe('npu-smi output that is not UTF-8', () => {
  it('latin1 in a process name: the table parses, the name keeps U+FFFD where the bytes were; npu.idle names the process', async () => {
    const bin = fakeBin({ 'npu-smi': npuSmiCat('latin1-table') });
    const run = await qprepWith(bin, ['check', '--root', hostTree(), '--only', 'npu.smi,npu.idle', '--format', 'json']);
    const { byId } = await parseReport(run.stdout);
    expect(byId['npu.smi']).toMatchObject({ status: 'pass', message: 'npu-smi 26.1.0 (driver 26.1.0): 8 NPU devices 0-7, family a2' });
    expect(byId['npu.idle']).toMatchObject({ status: 'fail', message: '1 of 8 NPU devices in use: NPU 0: pid 485946 caf\ufffd\ufffd\ufffd (5175 MB)' });
    expect(run.exitCode).toBe(1);
  });

  it('64 KiB of random bytes: npu.smi is an error quoting line 1 with its control characters made visible', async () => {
    const bin = fakeBin({ 'npu-smi': npuSmiCat('random') });
    const run = await qprepWith(bin, ['check', '--root', hostTree(), '--only', 'npu', '--format', 'json']);
    const { byId, report } = await parseReport(run.stdout);
    expect(byId['npu.smi']!.status).toBe('error');
    expect(byId['npu.smi']!.message).toMatch(new RegExp(`^cannot read the output of "${bin}/npu-smi info": line 1: no npu-smi table .*\\(".*\\\\x[0-9a-f]{2}.*"\\)$`));
    for (const check of report.checks) expect(check.message, check.id).not.toMatch(RAW_CONTROL);
    expect(run.exitCode).toBe(1);
  });

  it('the table followed by 4 KiB of NULs still parses: the NUL line is not a row', async () => {
    const bin = fakeBin({ 'npu-smi': npuSmiCat('table-then-nuls') });
    const run = await qprepWith(bin, ['check', '--root', hostTree(), '--only', 'npu.smi,npu.idle', '--format', 'json']);
    const { byId } = await parseReport(run.stdout);
    expect(byId['npu.smi']).toMatchObject({ status: 'pass', message: 'npu-smi 25.3.rc1 (driver 25.3.rc1): 8 NPU devices 0-7, family a2' });
    expect(byId['npu.idle']!.status).toBe('pass');
  });

  it('NULs where the spaces were: no table is recognised, a clear parse error, not a crash', async () => {
    const bin = fakeBin({ 'npu-smi': npuSmiCat('nul-for-space') });
    const run = await qprepWith(bin, ['check', '--root', hostTree(), '--only', 'npu.smi', '--format', 'json']);
    const { byId } = await parseReport(run.stdout);
    expect(byId['npu.smi']!.status).toBe('error');
    expect(byId['npu.smi']!.message).toMatch(new RegExp(`^cannot read the output of "${bin}/npu-smi info": line 1: no npu-smi table`));
    expect(run.exitCode).toBe(1);
  });

  it('terminal escapes and a NUL in an error: shown escaped in JSON and in the human report, never sent raw to the terminal', async () => {
    const bin = fakeBin({ 'npu-smi': npuSmiCat('escapes', 3) });
    const json = await qprepWith(bin, ['check', '--root', hostTree(), '--only', 'npu.smi,npu.count', '--format', 'json']);
    const { byId } = await parseReport(json.stdout);
    expect(byId['npu.smi']!.message).toBe(`"${bin}/npu-smi info" exited with code 3: \\x1b]0;owned\\x07\\x1b[2J\\x1b[31mdcmi error\\x00`);
    expect(byId['npu.count']!.message).not.toMatch(RAW_CONTROL);
    const human = await qprepWith(bin, ['check', '--root', hostTree(), '--only', 'npu.smi,npu.count', '--no-color']);
    expect(human.stdout).toContain('\\x1b]0;owned');
    expect(human.stdout).not.toMatch(RAW_CONTROL);
    expect(human.exitCode).toBe(1);
  });
});

describe('hccn_tool output that is not UTF-8', () => {
  for (const name of ['random', 'nul-for-space', 'hccn-ip-latin1'] as const) {
    it(`${name}: the HCCN checks give a structured answer (a parse error or a tolerant parse), never a crash`, async () => {
      const bin = fakeBin({ 'npu-smi': healthyNpuSmi(), hccn_tool: `cat ${shellQuote(inputs[name]!)}\n` });
      const run = await qprepWith(bin, ['check', '--root', hostTree(), '--only', 'hccn', '--format', 'json']);
      const { report } = await parseReport(run.stdout);
      for (const check of report.checks) expect(check.message, check.id).not.toMatch(RAW_CONTROL);
      expect([0, 1]).toContain(run.exitCode);
      if (name === 'random') {
        const ip = report.checks.find((c) => c.id === 'hccn.ip')!;
        expect(ip.status).toBe('error');
        expect(ip.message).toMatch(new RegExp(`"${bin}/hccn_tool -i 0 -ip -g": not hccn_tool -ip -g output: line 1 is "`));
      }
    });
  }
});
