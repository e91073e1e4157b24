import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { expectAllGone, fakeBin, healthyNpuSmi, hostTree, parseReport, pidsFrom, qprepWith, tmp } from './support.js';

/*
 * A tool printing 50 MB (a driver stuck in a loop, a debug build) must not make qprep run out
 * of memory or wait forever: each stream is read up to 16 MiB as it arrives, then the tool is
 * killed with its process group, and the check says the output was capped.
 *
 * The runs below get a 64 MB V8 heap: qprep needs less than 48 MB for the whole run with the
 * cap, and with the cap removed the same run aborts out of memory at 64 MB, so the limit is
 * what proves the output is not held whole.
 */

const FIFTY_MB = 50 * 1024 * 1024;
const SMALL_HEAP = { NODE_OPTIONS: '--max-old-space-size=64' };
const CAPPED = 'printed more than 16 MiB on stdout: stopped there and killed with its child processes';

describe('a tool printing 50 MB', () => {
  it('npu-smi printing 50 MB on stdout: npu.smi is an error saying the output was capped at 16 MiB; qprep stays in a 64 MB heap', async () => {
    const bin = fakeBin({ 'npu-smi': `head -c ${FIFTY_MB} /dev/zero | tr '\\0' 'x'\n` });
    const run = await qprepWith(bin, ['check', '--root', hostTree(), '--only', 'npu', '--format', 'json'], SMALL_HEAP);
    expect(run.stderr).not.toMatch(/heap out of memory/);
    const { byId } = await parseReport(run.stdout);
    expect(byId['npu.smi']).toMatchObject({ status: 'error', message: `"${bin}/npu-smi info": ${CAPPED}` });
    expect(byId['npu.smi']!.remediation).toBe('npu-smi printed far more than its table: run "npu-smi info | head -50" by hand, and repair or reinstall the driver if that is garbage');
    expect(byId['npu.count']!.message).toBe(`cannot check the NPU count: "${bin}/npu-smi info": ${CAPPED}`);
    expect(run.exitCode).toBe(1);
  });

  it('50 MB of lines on stderr is capped the same way', async () => {
    const bin = fakeBin({ 'npu-smi': `yes 'dcmi trace: still here' | head -c ${FIFTY_MB} >&2\n` });
    const run = await qprepWith(bin, ['check', '--root', hostTree(), '--only', 'npu.smi', '--format', 'json'], SMALL_HEAP);
    const { byId } = await parseReport(run.stdout);
    expect(byId['npu.smi']).toMatchObject({ status: 'error', message: `"${bin}/npu-smi info": printed more than 16 MiB on stderr: stopped there and killed with its child processes` });
    expect(run.exitCode).toBe(1);
  });

  it('a child that prints forever and ignores SIGPIPE is killed at the cap with its group; nothing keeps spinning', async () => {
    const pidFile = join(tmp('pid'), 'pids');
    // the parent waits; the child writes without end and survives a closed pipe
    const script = [
      '#!/bin/bash',
      "( trap '' PIPE; line=$(head -c 4096 /dev/zero | tr '\\0' y); while :; do echo \"$line\" 2>/dev/null; done ) &",
      `echo "$$ $!" > '${pidFile}'`,
      'wait',
      '',
    ].join('\n');
    const bin = fakeBin({ 'npu-smi': script });
    const run = await qprepWith(bin, ['check', '--root', hostTree(), '--only', 'npu.smi', '--timeout', '120s', '--format', 'json'], SMALL_HEAP);
    const { byId } = await parseReport(run.stdout);
    // capped, not timed out: the 120 s timeout is far away
    expect(byId['npu.smi']!.message).toBe(`"${bin}/npu-smi info": ${CAPPED}`);
    const [parent, child] = await pidsFrom(pidFile);
    await expectAllGone([parent!, child!], [parent!]);
  });

  it('hccn_tool printing 50 MB on every call: hccn.ip is an error naming a capped call', async () => {
    const bin = fakeBin({ 'npu-smi': healthyNpuSmi(), hccn_tool: `head -c ${FIFTY_MB} /dev/zero | tr '\\0' 'z'\n` });
    const run = await qprepWith(bin, ['check', '--root', hostTree(), '--only', 'hccn.ip', '--format', 'json'], SMALL_HEAP);
    const { byId } = await parseReport(run.stdout);
    expect(byId['hccn.ip']!.status).toBe('error');
    expect(byId['hccn.ip']!.message).toMatch(new RegExp(`^cannot read the device IP of 8 of 8 devices .*: "${bin}/hccn_tool -i 0 -ip -g": ${CAPPED}`));
    expect(run.exitCode).toBe(1);
  });
});
