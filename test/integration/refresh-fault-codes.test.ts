import { execa } from 'execa';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LEVELS_PATH, MEANINGS_PATH } from '../../scripts/fault-codes-lib.mjs';
import { REPO } from '../helpers/cli.js';

/**
 * scripts/refresh-fault-codes.mjs against a real git checkout: a repository made here with the
 * two files at their mind-cluster paths, committed, read by the extract stage with git (as a
 * work tree and as a bare clone), then built; the outputs go to a temporary directory, never
 * over knowledge/.
 */

const SCRIPT = join(REPO, 'scripts/refresh-fault-codes.mjs');
let work = '';
let checkout = '';
const git = (cwd: string, ...args: string[]) => execa('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.invalid', ...args], { cwd });

const LEVELS = `{
  "NotHandleFaultCodes":[
    "A4025021","80E18401"
  ],
  "RestartBusinessCodes":[
    "A2301001","A2301001"
  ],
  "RestartNPUCodes":[
    "8C03A000", "80E18005"
  ],
  "SeparateNPUCodes":[
    "A2301001"
  ]
}
`;

const MEANINGS = `{
    "knowledge-repository": {
        "0x80E18005": {
            "attribute": {
                "class": "Hardware",
                "cause_zh": "HBMC Parity错误",
                "description_zh": "HBMC Parity错误，包括CA和DQ Parity错误。",
                "cause_en": "HBMC parity error",
                "description_en": "HBMC parity errors, including CA and DQ parity errors."
            },
            "rule": []
        },
        "0x12345678": {
            "attribute": {
                "cause_en": "not in the fault-code table",
                "cause_zh": "不在故障码表中"
            }
        }
    }
}
`;

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'qprep-fault-codes-'));
  checkout = join(work, 'mind-cluster');
  for (const [path, text] of [[LEVELS_PATH, LEVELS], [MEANINGS_PATH, MEANINGS]] as const) {
    mkdirSync(dirname(join(checkout, path)), { recursive: true });
    writeFileSync(join(checkout, path), text);
  }
  await git(work, 'init', '-q', checkout);
  await git(checkout, 'add', '.');
  await git(checkout, 'commit', '-q', '-m', 'fault codes');
  await git(work, 'clone', '-q', '--bare', checkout, join(work, 'bare.git'));
});

afterAll(() => {
  if (work) rmSync(work, { recursive: true, force: true });
});

async function refresh(...args: string[]) {
  return execa(process.execPath, [SCRIPT, ...args, '--extract', join(work, 'extract.json'), '--table', join(work, 'table.json')], { reject: false });
}

describe('scripts/refresh-fault-codes.mjs on a git checkout', () => {
  it('extracts at the commit, with the lines and the commit, and builds the table from it', async () => {
    const commit = (await git(checkout, 'rev-parse', 'HEAD')).stdout.trim();
    const run = await refresh('--repo', checkout);
    expect(run.exitCode, run.stderr).toBe(0);
    expect(run.stdout).toContain(`extract: ${commit}`);
    const extract = JSON.parse(readFileSync(join(work, 'extract.json'), 'utf8'));
    expect(extract).toMatchObject({ repo: 'Ascend/mind-cluster', commit });
    // only the codes of the fault-code table are described
    expect(extract.meanings.entries.map((e: { code: string }) => e.code)).toEqual(['80E18005']);
    const table = JSON.parse(readFileSync(join(work, 'table.json'), 'utf8'));
    expect(table.rows.map((r: { code: string; level: string; action: string }) => [r.code, r.level, r.action])).toEqual([
      ['80E18005', 'RestartNPU', 'reset-npu'],
      ['80E18401', 'NotHandleFault', 'monitor'],
      ['8C03A000', 'RestartNPU', 'reset-npu'],
      ['A2301001', 'SeparateNPU', 'isolate-npu'],
      ['A4025021', 'NotHandleFault', 'monitor'],
    ]);
    expect(table.rows[0]).toMatchObject({
      meaning: { en: 'HBMC parity error', zh: 'HBMC Parity错误' },
      source: { repo: 'Ascend/mind-cluster', path: LEVELS_PATH, ref: commit, line: 9, quote: '"8C03A000", "80E18005"' },
      meaningSource: { path: MEANINGS_PATH, ref: commit, line: 8, quote: '"cause_en": "HBMC parity error",' },
    });
    expect(table.rows[3].alsoIn).toEqual(['RestartBusiness']);
  });

  it('reads a bare clone the same; --check says whether the table would change, and changes nothing', async () => {
    const fromWorkTree = readFileSync(join(work, 'extract.json'), 'utf8');
    expect((await refresh('--repo', join(work, 'bare.git'))).exitCode).toBe(0);
    expect(readFileSync(join(work, 'extract.json'), 'utf8')).toBe(fromWorkTree);
    const before = readFileSync(join(work, 'table.json'), 'utf8');
    expect((await refresh('build', '--check')).exitCode).toBe(0);
    writeFileSync(join(work, 'table.json'), before.replace('reset-npu', 'monitor'));
    const stale = await refresh('build', '--check');
    expect(stale.exitCode).toBe(1);
    expect(stale.stderr).toContain('table.json would change');
    expect(readFileSync(join(work, 'table.json'), 'utf8')).not.toBe(before);
  });

  it('a checkout without the files, or no --repo, is a clear usage error', async () => {
    const empty = join(work, 'empty');
    await git(work, 'init', '-q', empty);
    await git(empty, 'commit', '-q', '--allow-empty', '-m', 'nothing');
    const missing = await refresh('extract', '--repo', empty);
    expect(missing.exitCode).toBe(2);
    expect(missing.stderr).toContain(`${LEVELS_PATH} is not in ${empty}`);
    const none = await refresh('extract');
    expect(none.exitCode).toBe(2);
    expect(none.stderr).toContain('extract needs --repo');
  });
});
