import { execa, type ResultPromise } from 'execa';
import { mkdirSync, rmSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { catalogue } from '../../checks/index.js';
import { loadBuiltinProfile } from '../../src/core/profile.js';
import { createContext, runChecks } from '../../src/core/runner.js';
import { DEFAULT_TOOL_LIMITS, LimitedHost } from '../../src/host/limited.js';
import type { Check, Outcome } from '../../src/core/types.js';
import { DelegatingHost } from '../../src/host/delegating.js';
import { LiveHost } from '../../src/host/live.js';
import type { DirEntry, Host, Probe } from '../../src/host/types.js';
import { BASE_PATH, expectAllGone, fakeBin, healthyNpuSmi, hostTree, isAlive, parseReport, qprepWith, shellQuote } from './support.js';

/*
 * /proc and sysfs change under qprep: a process exits between the listing of /proc and the
 * read of its fd directory, a CPU goes offline between the listing of /sys/devices/system/cpu
 * and the read of its governor, a device node is removed. Whatever vanishes, no check may throw
 * or hang; each gives a structured outcome. Two ways, both on real files: a host that deletes
 * every entry right after listing it (the worst case, deterministic), and a real --root tree
 * that a shell loop keeps deleting and re-creating while the built CLI checks it.
 */

const PID = 4242;
const SOCKET_INODE = 91234;

/** /proc/net/tcp with one listener on 60000 (HCCL's base port), held by PID 4242's fd 3. */
const PROC_NET_TCP = [
  '  sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode',
  `   0: 00000000:EA60 00000000:0000 0A 00000000:00000000 00:00000000 00000000     0        0 ${SOCKET_INODE} 1 0000000000000000 100 0 0 10 0`,
  '',
].join('\n');

/** A host tree whose listings lead somewhere: pids with fds, CPUs without an online list, devices, CANN homes. */
function listedTree(): string {
  const root = hostTree({
    '/proc/net/tcp': PROC_NET_TCP,
    [`/proc/${PID}/comm`]: 'vllm\n',
    '/proc/1/comm': 'init\n',
    '/sys/devices/system/cpu/cpu0/cpufreq/scaling_governor': 'performance\n',
    '/sys/devices/system/cpu/cpu1/cpufreq/scaling_governor': 'performance\n',
    '/usr/local/Ascend/ascend-toolkit/latest/version.cfg': 'runtime_running_version=[8.2.RC1:8.2.RC1]\n',
    '/usr/local/Ascend/cann-8.2.RC1/version.cfg': 'x\n',
  });
  mkdirSync(join(root, `proc/${PID}/fd`), { recursive: true });
  symlinkSync(`socket:[${SOCKET_INODE}]`, join(root, `proc/${PID}/fd/3`));
  symlinkSync('/dev/null', join(root, `proc/${PID}/fd/0`));
  mkdirSync(join(root, 'proc/1/fd'), { recursive: true });
  return root;
}

/** Deletes every entry of a directory from the real tree right after listing it: each later read of one of them meets ENOENT. */
class VanishingHost extends DelegatingHost {
  vanished = 0;

  constructor(
    inner: Host,
    private readonly tree: string,
  ) {
    super(inner);
  }

  override async readDir(path: string): Promise<Probe<DirEntry[]>> {
    const listing = await this.inner.readDir(path);
    if (listing.ok) {
      for (const entry of listing.value) {
        rmSync(join(this.tree, path, entry.name), { recursive: true, force: true });
        this.vanished++;
      }
    }
    return listing;
  }
}

function hostOn(tree: string, bin: string): VanishingHost {
  const live = new LiveHost({ root: tree, timeoutMs: 5000, env: { PATH: `${bin}:${BASE_PATH}` } });
  return new VanishingHost(live, tree);
}

const NOW = () => new Date('2026-12-02T10:00:00Z');

function expectStructured(id: string, outcome: Pick<Outcome, 'status' | 'message' | 'remediation'>): void {
  expect(['pass', 'warn', 'fail', 'skip', 'error'], id).toContain(outcome.status);
  expect(outcome.message, id).toBeTruthy();
  expect(outcome.message, id).not.toContain('\n');
  if (outcome.status !== 'pass') expect(outcome.remediation, `${id}: ${outcome.message}`).toBeTruthy();
}

describe('files that vanish between the listing and the read', () => {
  const bin = fakeBin({ 'npu-smi': healthyNpuSmi(), hccn_tool: 'exit 0\n' });
  const profile = loadBuiltinProfile('default').profile;

  it.each(catalogue.map((check) => [check.id, check] as [string, Check]))('%s does not throw when every listed entry is gone', async (_id, check) => {
    const tree = listedTree();
    const host = hostOn(tree, bin);
    const ctx = createContext({ host, profile, timeoutMs: 5000, now: NOW });
    // called directly, without the runner that would turn a throw into an "internal error"
    const outcome = await check.run(ctx);
    expectStructured(check.id, outcome);
  });

  it('the whole catalogue through the runner: no internal error, no watchdog, a clear outcome for what vanished', async () => {
    const tree = listedTree();
    const host = hostOn(tree, bin);
    const limited = new LimitedHost(host, 8, DEFAULT_TOOL_LIMITS);
    const ctx = createContext({ host: limited, profile, timeoutMs: 5000, now: NOW });
    const results = await runChecks(catalogue, ctx, { concurrency: 8, commandConcurrency: 8, toolLimits: DEFAULT_TOOL_LIMITS, timeoutMs: 5000, ignore: new Set(), now: NOW });
    expect(host.vanished).toBeGreaterThan(10);
    for (const result of results) {
      expectStructured(result.id, result);
      expect(result.message, result.id).not.toMatch(/^internal error|did not finish within \d+ ms$/);
    }
    const byId = Object.fromEntries(results.map((r) => [r.id, r]));
    // the CPUs listed, then gone (offline): no governor to read, which is said, not thrown
    expect(byId['cpu.governor']).toMatchObject({ status: 'skip', message: expect.stringMatching(/^cpufreq is not exposed here \(no \/sys\/devices\/system\/cpu\/cpu0\/cpufreq\)/) });
    // the driver tree listed under /usr/local/Ascend (npu.cann's search for CANN), then gone: the
    // version file is missing, unless a check that started earlier read it first. Which comes
    // first is the runner's concurrency and the file system's, not the code's: both are clear.
    expect(['no driver version: /usr/local/Ascend/driver/version.info: no such file or directory', 'driver 25.3.rc1 (V100R001C23SPC002B212); version.info and npu-smi agree']).toContain(
      byId['npu.driver-version']!.message,
    );
    // the port is busy; its owner's fd vanished after /proc was listed: "owner not visible"
    expect(byId['net.ports']).toMatchObject({ status: 'fail' });
    expect(byId['net.ports']!.message).toContain('60000 (0.0.0.0, owner not visible)');
  });
});

describe('a --root tree changing under a running qprep check', () => {
  it('five full checks while a loop deletes and re-creates pids, CPUs and device nodes: valid reports, no crash', async () => {
    const tree = listedTree();
    const bin = fakeBin({ 'npu-smi': healthyNpuSmi(), hccn_tool: 'exit 0\n' });
    const t = (path: string) => shellQuote(join(tree, path));
    const churn = [
      'while :; do',
      `  rm -rf ${t(`proc/${PID}`)} ${t('sys/devices/system/cpu/cpu1')} ${t('dev/davinci3')} ${t('usr/local/Ascend/cann-8.2.RC1')}`,
      `  mkdir -p ${t(`proc/${PID}/fd`)} ${t('sys/devices/system/cpu/cpu1/cpufreq')} ${t('usr/local/Ascend/cann-8.2.RC1')}`,
      `  ln -s 'socket:[${SOCKET_INODE}]' ${t(`proc/${PID}/fd/3`)}`,
      `  echo vllm > ${t(`proc/${PID}/comm`)}`,
      `  echo performance > ${t('sys/devices/system/cpu/cpu1/cpufreq/scaling_governor')}`,
      `  : > ${t('dev/davinci3')}`,
      'done',
    ].join('\n');
    const churner: ResultPromise = execa('sh', ['-c', churn], { reject: false, detached: true });
    try {
      for (let run = 0; run < 5; run++) {
        const result = await qprepWith(bin, ['check', '--root', tree, '--format', 'json']);
        expect([0, 1], result.stderr).toContain(result.exitCode);
        await parseReport(result.stdout);
      }
      expect(isAlive(churner.pid!)).toBe(true);
    } finally {
      process.kill(-churner.pid!, 'SIGKILL');
      await churner;
    }
    await expectAllGone([churner.pid!]);
  });
});
