import { execa } from 'execa';
import { execFileSync, spawn } from 'node:child_process';
import { closeSync, constants, existsSync, openSync, readSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BIN, qprep, REPO, validateAgainstSchema } from '../helpers/cli.js';
import { A2_TABLE, BASE_PATH, expectAllGone, fakeBin, hangingWithChild, hostTree, parseReport, pidsFrom, shellQuote, startQprep, tmp, waitFor } from './support.js';

/*
 * SIGTERM (Ansible's or systemd's timeout, docker stop) and SIGINT (Ctrl-C) during a check: the
 * hung probes are killed with their process groups, and qprep still hands back what it found,
 * as a partial report marked interrupted, with exit code 2 (no verdict). The checks that had not
 * finished are errors that say so; an interrupted run is never ready. The signal is sent once
 * the fake npu-smi's hung call has started and written its pids, so the run is mid-probe every time.
 */

/**
 * `npu-smi info` answers at once: it starts with the process, before any check has run (the
 * early calls of src/main.ts). The per-device queries that come after it (the board of
 * npu.firmware-version) hang: when one has started, some checks are done and some not.
 */
function npuSmiHangingAfterInfo(pidFile: string): string {
  return `#!/bin/sh\ncase "$*" in\n  info) cat ${shellQuote(A2_TABLE)} ;;\n  *)\n${hangingWithChild(pidFile)}  ;;\nesac\n`;
}

/** The HCCN checks are left out: no hccn_tool here, and they are not what these tests look at. */
const WITHOUT_HCCN = ['--skip', 'hccn.conf,hccn.ip,hccn.link,hccn.fec,hccn.net-health,hccn.netdetect,hccn.gateway,hccn.lldp,hccn.tls'];

async function interruptedRun(signal: 'SIGTERM' | 'SIGINT', args: string[]) {
  const pidFile = join(tmp('pid'), 'pids');
  const bin = fakeBin({ 'npu-smi': npuSmiHangingAfterInfo(pidFile) });
  // a timeout far beyond the test: only the signal can end this run
  const child = startQprep(bin, ['check', '--root', hostTree(), '--timeout', '600s', ...WITHOUT_HCCN, ...args]);
  const pids = await pidsFrom(pidFile);
  child.kill(signal);
  const result = await child;
  return { result, pids, bin };
}

describe('SIGTERM and SIGINT during qprep check', () => {
  it('SIGTERM: exit 2, a partial JSON report valid against the schema, marked interrupted; finished checks kept, the others errors', async () => {
    const { result, pids } = await interruptedRun('SIGTERM', ['--format', 'json']);
    expect(result.exitCode).toBe(2);
    const { report, byId } = await parseReport(String(result.stdout));
    expect(report.ready).toBe(false);
    const interrupted = report.interrupted as { signal: string; unfinished: string[] };
    expect(interrupted.signal).toBe('SIGTERM');
    expect(interrupted.unfinished).toContain('npu.firmware-version');
    expect(report.error).toEqual({ code: 'interrupted', message: `interrupted by SIGTERM: ${interrupted.unfinished.length} of ${report.checks.length} checks did not finish; no verdict` });
    // every selected check is in the report, in catalogue order; the unfinished ones say why
    // (those of the default depth)
    const catalogue = JSON.parse((await qprep(['list', '--format', 'json'])).stdout)
      .filter((c: { depth: string }) => c.depth !== 'deep')
      .map((c: { id: string }) => c.id);
    expect(report.checks.map((c) => c.id)).toEqual(catalogue.filter((id: string) => !WITHOUT_HCCN[1]!.split(',').includes(id)));
    for (const id of interrupted.unfinished) {
      expect(byId[id]).toMatchObject({ status: 'error', message: 'did not finish: qprep was interrupted by SIGTERM', evidence: { interrupted: 'SIGTERM' } });
      expect(report.blocking).toContain(id);
    }
    // what had finished is reported as it was found: npu.smi, from the table npu-smi gave
    const finished = report.checks.filter((c) => !interrupted.unfinished.includes(c.id));
    expect(finished.map((c) => c.id)).toContain('npu.smi');
    for (const check of finished) expect(check.message, check.id).not.toContain('interrupted');
    if (!interrupted.unfinished.includes('tune.journal')) {
      expect(byId['tune.journal']).toMatchObject({ status: 'pass', message: 'qprep tune has no changes in effect here (no journal)' });
    }
    // the summary's counts (its worstAction is a word, not a count) add up to the checks
    const { worstAction, ...counts } = report.summary as Record<string, number | string>;
    expect(typeof worstAction).toBe('string');
    expect(Object.values(counts).reduce<number>((a, b) => a + Number(b), 0)).toBe(report.checks.length);
    expect(String(result.stderr)).toContain('qprep: interrupted by SIGTERM: running probes were killed; writing the partial report');
    expect(String(result.stderr)).toMatch(/qprep: error: interrupted by SIGTERM: \d+ of \d+ checks did not finish; no verdict; the partial report says which checks finished\n$/);
    await expectAllGone(pids, [pids[0]!]);
  });

  it('SIGINT with --output FILE: the file holds the partial report (written atomically), stdout stays empty, exit 2', async () => {
    const dir = tmp('out');
    const file = join(dir, 'report.json');
    writeFileSync(file, '{"earlier": "run"}\n');
    const { result, pids } = await interruptedRun('SIGINT', ['--format', 'json', '--output', file]);
    expect(result.exitCode).toBe(2);
    expect(String(result.stdout)).toBe('');
    const { report } = await parseReport(readFileSync(file, 'utf8'));
    expect(report.interrupted).toMatchObject({ signal: 'SIGINT' });
    expect(report.error).toMatchObject({ code: 'interrupted' });
    expect(readdirSync(dir)).toEqual(['report.json']);
    await expectAllGone(pids, [pids[0]!]);
  });

  it('the human report ends with NO VERDICT and lists the unfinished checks as errors', async () => {
    const { result, pids } = await interruptedRun('SIGTERM', ['--no-color']);
    expect(result.exitCode).toBe(2);
    const out = String(result.stdout);
    expect(out).toContain('? error  npu.firmware-version');
    expect(out).toContain('did not finish: qprep was interrupted by SIGTERM');
    expect(out).toMatch(/\nNO VERDICT: interrupted by SIGTERM: \d+ of \d+ checks did not finish; no verdict\n$/);
    await expectAllGone(pids, [pids[0]!]);
  });

  it('prometheus: qprep_ready 0 and qprep_run_error{code="interrupted"} 1, so a collector never keeps an old "ready"', async () => {
    const { result, pids } = await interruptedRun('SIGTERM', ['--format', 'prometheus']);
    expect(result.exitCode).toBe(2);
    const out = String(result.stdout);
    expect(out).toMatch(/^qprep_ready 0$/m);
    expect(out).toMatch(/^qprep_run_error\{code="interrupted"\} 1$/m);
    expect(out).toMatch(/^qprep_check_status\{id="npu\.firmware-version",category="npu",level="[a-z]+",status="error"\} 1$/m);
    await expectAllGone(pids, [pids[0]!]);
  });

  it('junit: the verdict property says "no verdict" and the unfinished checks are errored testcases', async () => {
    const { result, pids } = await interruptedRun('SIGINT', ['--format', 'junit']);
    expect(result.exitCode).toBe(2);
    const out = String(result.stdout);
    expect(out).toContain('<property name="verdict" value="no verdict"/>');
    expect(out).toContain('<property name="error.code" value="interrupted"/>');
    expect(out).toMatch(/<testcase classname="npu" name="npu\.firmware-version" time="[\d.]+">\n\s+<error message="did not finish: qprep was interrupted by SIGINT" type="error">/);
    await expectAllGone(pids, [pids[0]!]);
  });
});

describe('SIGTERM during qprep snapshot', () => {
  it('exit 2; the snapshot holds what was recorded and its report is marked interrupted; it replays without a crash', async () => {
    const pidFile = join(tmp('pid'), 'pids');
    const bin = fakeBin({ 'npu-smi': npuSmiHangingAfterInfo(pidFile) });
    const file = join(tmp('snap'), 'host.json');
    const child = startQprep(bin, ['snapshot', '-o', file, '--root', hostTree(), '--timeout', '600s', ...WITHOUT_HCCN]);
    const pids = await pidsFrom(pidFile);
    child.kill('SIGTERM');
    const result = await child;
    expect(result.exitCode).toBe(2);
    expect(String(result.stderr)).toMatch(/qprep: error: interrupted by SIGTERM: \d+ of \d+ checks did not finish; no verdict; the snapshot holds what was recorded until then\n$/);
    expect(existsSync(file)).toBe(true);
    const snapshot = JSON.parse(readFileSync(file, 'utf8'));
    expect(snapshot.report.interrupted.signal).toBe('SIGTERM');
    expect(Object.keys(snapshot.files).length).toBeGreaterThan(0);
    await expectAllGone(pids, [pids[0]!]);
    // the replay answers what was recorded; the query that never answered is "not captured"
    const unfinished = (snapshot.report.interrupted.unfinished as string[]).filter((id) => id.startsWith('npu.'));
    expect(unfinished.length).toBeGreaterThan(0);
    const replay = await qprep(['check', '--snapshot', file, '--only', ['npu.smi', ...unfinished].join(','), '--format', 'json']);
    const { byId } = await parseReport(replay.stdout);
    expect(byId['npu.smi']!.status).toBe('pass');
    expect(JSON.stringify(unfinished.map((id) => byId[id]))).toContain('not captured');
    expect(replay.exitCode).toBe(1);
  });
});

describe('SIGTERM during qprep facts', () => {
  it('exit 2, one line on stderr and the error document on stdout, no process left', async () => {
    const pidFile = join(tmp('pid'), 'pids');
    const bin = fakeBin({ 'npu-smi': hangingWithChild(pidFile) });
    const child = startQprep(bin, ['facts', '--root', hostTree(), '--timeout', '600s']);
    const pids = await pidsFrom(pidFile);
    child.kill('SIGTERM');
    const result = await child;
    expect(result.exitCode).toBe(2);
    expect(String(result.stderr)).toBe('\nqprep: error: interrupted by SIGTERM; running probes were killed\n');
    // a consumer reading stdout as JSON gets a document that says why, never a half-written one
    const document = JSON.parse(String(result.stdout));
    // facts gives no readiness verdict: its error document has no `ready`
    expect(document).toEqual({ schemaVersion: 1, tool: { name: 'qprep', version: expect.any(String) }, command: 'facts', error: { code: 'interrupted', message: 'interrupted by SIGTERM; running probes were killed' } });
    expect((await validateAgainstSchema('report', document)).valid).toBe(true);
    await expectAllGone(pids, [pids[0]!]);
  });
});

describe('a signal after every check has finished', () => {
  /**
   * The report (and the snapshot) of the simulated A3 node (bench/lib/sim-node.mjs: 16 dies, 4
   * nodes) is larger than a pipe holds: with a consumer that reads late (a slow Ansible
   * connection, here a FIFO read only a byte at first), qprep is still writing it, every check
   * done, when the signal comes.
   */
  const CASES = [
    { command: 'check', says: 'report, with its verdict' },
    { command: 'snapshot', says: 'snapshot' },
  ] as const;
  it.each(CASES)('SIGTERM while $command writes its document: the complete document with its own exit code, and stderr says so', async ({ command, says }) => {
    const dir = tmp('late-signal');
    const made = await execa(process.execPath, [join(REPO, 'scripts/sim-node.mjs'), '--family', 'a3', '--out', join(dir, 'node'), '--npu-smi-ms', '0', '--hccn-ms', '0', '--ping-ms', '0']);
    const node = JSON.parse(made.stdout) as { bin: string; root: string; cluster: string; name: string };
    const fifo = join(dir, 'stdout');
    execFileSync('mkfifo', [fifo]);
    // read-write for the child's stdout (the open does not wait for a reader); a reader that never blocks for the test
    const writeEnd = openSync(fifo, 'r+');
    const readEnd = openSync(fifo, constants.O_RDONLY | constants.O_NONBLOCK);
    const child = spawn(process.execPath, [BIN, command, ...(command === 'check' ? ['--format', 'json'] : ['-o', '-']), '--root', node.root, '--cluster', node.cluster, '--node', node.name], {
      env: { PATH: `${node.bin}:${BASE_PATH}`, HOME: process.env.HOME ?? '/root' },
      stdio: ['ignore', writeEnd, 'pipe'],
    });
    closeSync(writeEnd);
    let stderr = '';
    child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const exited = new Promise<number | null>((resolve) => child.once('close', (code) => resolve(code)));
    /** What the FIFO holds now, up to `most` bytes; null at its end (the child gone, nothing left). */
    const readSome = (most: number): Buffer | null => {
      const buffer = Buffer.alloc(most);
      try {
        const n = readSync(readEnd, buffer);
        return n === 0 ? null : buffer.subarray(0, n);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'EAGAIN') return Buffer.alloc(0);
        throw error;
      }
    };
    try {
      // one byte: the report has begun; a pipe frees room for the writer only a page at a time, so the rest still waits
      let first: Buffer | null = Buffer.alloc(0);
      await waitFor('the first byte of the report', () => (first = readSome(1)) === null || first.length > 0);
      expect(first, `qprep ended before writing a report: ${stderr}`).not.toBeNull();
      child.kill('SIGTERM');
      const chunks: Buffer[] = [first];
      let rest: Buffer | null;
      await waitFor('the end of the report', () => {
        while ((rest = readSome(65536)) !== null && rest.length > 0) chunks.push(rest);
        return rest === null;
      });
      const exitCode = await exited;
      const text = Buffer.concat(chunks).toString('utf8');
      // more than a pipe holds (64 KiB) and a page: the write was still going on at the signal
      expect(text.length).toBeGreaterThan(68 * 1024);
      const document = JSON.parse(text) as { report?: Record<string, unknown> };
      const report = command === 'check' ? (await parseReport(text)).report : document.report!;
      expect(report.interrupted).toBeUndefined();
      expect(report.error).toBeUndefined();
      // a snapshot's exit code says whether it was recorded whole, a check's what its verdict is
      expect(exitCode).toBe(command === 'snapshot' || report.ready ? 0 : 1);
      expect(stderr).toContain(`\nqprep: SIGTERM came after every check had finished: writing the complete ${says}\n`);
      expect(stderr).not.toContain('partial report');
    } finally {
      closeSync(readEnd);
    }
  });
});
