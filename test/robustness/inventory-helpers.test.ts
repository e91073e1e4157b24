import { execa } from 'execa';
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { BIN, REPO } from '../helpers/cli.js';
import { startServe } from '../helpers/serve.js';
import { BASE_PATH, fakeBin, parseReport, shellQuote, startQprep, tmp } from './support.js';

/*
 * The inventory runs systeminformation, which runs dmidecode, dmesg and nmcli (found on PATH)
 * with execSync and no timeout. Here those helpers are fakes first on PATH: one that hangs for
 * ever, one that answers slowly, and 110 interfaces of a Kubernetes node's pod veths in a
 * network namespace. qprep must end within its budget with the inventory's fields unknown and
 * every other check judged, serve must keep answering /healthz and stop on SIGTERM, and no
 * process of a helper may survive: each fake carries a marker in its environment, and /proc is
 * scanned for it.
 */

const HELPERS = ['dmidecode', 'dmesg', 'nmcli'] as const;

interface Fakes {
  bin: string;
  /** every call of a fake, "name args", one per line */
  log: string;
  marker: string;
}

/** Fakes of the three helpers: each logs its call, puts the marker in its environment and runs `body`. */
function fakeHelpers(body: (name: (typeof HELPERS)[number]) => string): Fakes {
  const marker = `qprep-inventory-helper-${randomBytes(6).toString('hex')}`;
  const log = join(tmp('helper-log'), 'calls');
  const programs = Object.fromEntries(
    HELPERS.map((name) => [name, `echo "${name} $*" >> ${shellQuote(log)}\nexport QPREP_TEST_HELPER=${marker}\n${body(name)}\n`]),
  );
  return { bin: fakeBin(programs), log, marker };
}

function calls(fakes: Fakes): string[] {
  return existsSync(fakes.log) ? readFileSync(fakes.log, 'utf8').split('\n').filter(Boolean) : [];
}

/** Live processes (not zombies) whose environment carries the marker. */
function carrying(marker: string): number[] {
  const needle = Buffer.from(`QPREP_TEST_HELPER=${marker}`);
  const found: number[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'latin1');
      const state = stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3);
      if (state === 'Z' || state === 'X') continue;
      if (readFileSync(`/proc/${name}/environ`).includes(needle)) found.push(Number(name));
    } catch {
      // ended while we looked, or not ours to read
    }
  }
  return found;
}

/** Waits (killed processes take a moment to end) until none carries the marker; fails with the survivors. */
async function expectNoHelperLeft(marker: string): Promise<void> {
  const deadline = Date.now() + 5000;
  while (carrying(marker).length > 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
  const survivors = carrying(marker).map((pid) => `${pid}: ${readFileSync(`/proc/${pid}/cmdline`, 'latin1').replace(/\0/g, ' ')}`);
  expect(survivors, 'processes of a helper still running').toEqual([]);
}

async function waitUntil(what: string, condition: () => boolean, deadlineMs = 30_000): Promise<void> {
  const deadline = Date.now() + deadlineMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/**
 * The built CLI with the fakes first on PATH (after `prefix`: `ip netns exec NAME`), bounded well
 * above what it may take: a qprep that hangs fails the test, not the suite.
 */
async function qprepTimed(bin: string, args: string[], prefix: string[] = []): Promise<{ exitCode: number; stdout: string; stderr: string; ms: number }> {
  const [file, ...rest] = [...prefix, process.execPath, BIN, ...args];
  const started = performance.now();
  const run = await execa(file!, rest, {
    reject: false,
    extendEnv: false,
    env: { PATH: `${bin}:${BASE_PATH}`, HOME: process.env.HOME ?? '/root', QPREP_LANG: 'en' },
    cwd: REPO,
    timeout: 60_000,
    forceKillAfterDelay: 1000,
    stripFinalNewline: false,
  });
  return { exitCode: run.exitCode ?? -1, stdout: String(run.stdout), stderr: String(run.stderr), ms: performance.now() - started };
}

/** One GET /healthz: its status and how long the answer took, or the failure (none within 2 s counts as one). */
function healthz(port: number): Promise<{ status: number; ms: number } | { error: string; ms: number }> {
  const started = performance.now();
  return new Promise((resolve) => {
    const req = request({ host: '127.0.0.1', port, path: '/healthz', timeout: 2000 }, (res) => {
      res.resume();
      res.on('end', () => resolve({ status: res.statusCode ?? 0, ms: performance.now() - started }));
    });
    req.on('timeout', () => req.destroy(new Error('no answer within 2000 ms')));
    req.on('error', (error) => resolve({ error: error.message, ms: performance.now() - started }));
    req.end();
  });
}

const DMI_MODEL = (() => {
  try {
    return readFileSync('/sys/class/dmi/id/product_name', 'utf8').trim() || undefined;
  } catch {
    return undefined;
  }
})();

describe('a helper of the inventory that hangs for ever', () => {
  const fakes = fakeHelpers(() => 'exec sleep 3600');
  afterAll(() => {
    for (const pid of carrying(fakes.marker)) process.kill(pid, 'SIGKILL');
  });

  it('check --timeout 2s ends within 3 s: host.model unknown with the reason, every other check judged, no helper left', async () => {
    const run = await qprepTimed(fakes.bin, ['check', '--profile', 'qwen3.5-397b-w8a8-a2', '--only', 'tuning,host,network', '--timeout', '2s', '--format', 'json']);
    expect(run.ms, run.stderr).toBeLessThan(3000);
    const { byId, report } = await parseReport(run.stdout);
    expect(run.exitCode).toBe(report.ready ? 0 : 1);
    // the helper was called (the test is about it) and it hung
    expect(calls(fakes).some((call) => call.startsWith('dmidecode'))).toBe(true);
    const model = byId['host.model']!;
    if (DMI_MODEL === undefined) {
      expect(model.status).toBe('skip');
      expect(model.message).toContain('systeminformation system() gave no answer within 2000 ms: the inventory process was killed with the helpers it ran');
    } else {
      console.log(`this machine has a DMI product name (${DMI_MODEL}): host.model reads it from sysfs, not from the hung dmidecode`);
      expect(model.evidence.model).toBe(DMI_MODEL);
    }
    for (const check of report.checks) expect(check.status, `${check.id}: ${check.message}`).not.toBe('error');
    expect(byId['sysctl.swappiness']!.status).toMatch(/^(pass|warn|fail)$/);
    await expectNoHelperLeft(fakes.marker);
  });

  it('serve answers /healthz within 100 ms while the helper hangs, stops within 3 s of SIGTERM, and no helper is left', async () => {
    const serve = await startServe(['--timeout', '20s', '--interval', '10m'], { env: { PATH: `${fakes.bin}:${BASE_PATH}` } });
    const answers: Array<Awaited<ReturnType<typeof healthz>>> = [];
    let polling = true;
    let hung = 0;
    const poller = (async () => {
      while (polling) {
        answers.push(await healthz(serve.port));
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
    })();
    try {
      // the run is on, and its inventory process is stuck in the hung helper
      await waitUntil('a hung helper of the inventory', () => carrying(fakes.marker).length > 0);
      hung = answers.length;
      await new Promise((resolve) => setTimeout(resolve, 1500));
      expect(answers.length - hung, 'answers while the helper hung').toBeGreaterThan(10);
    } finally {
      polling = false;
      await poller;
    }
    // from the moment the helper hangs (the first run's warm-up, the code compiled on first use, is not the point here)
    const slow = answers.slice(hung).filter((answer) => 'error' in answer || answer.status !== 200 || answer.ms >= 100);
    expect(slow.map((answer) => ('error' in answer ? answer.error : `${answer.status} in ${answer.ms.toFixed(0)} ms`))).toEqual([]);
    const signalled = performance.now();
    const exitCode = await serve.stop();
    expect(performance.now() - signalled).toBeLessThan(3000);
    expect(exitCode).toBe(0);
    await expectNoHelperLeft(fakes.marker);
  });
  it('SIGTERM to check while the helper hangs: the partial report at once (exit 2), host.model unfinished, no helper left', async () => {
    const child = startQprep(fakes.bin, ['check', '--only', 'tuning,host,network', '--timeout', '60s', '--format', 'json']);
    await waitUntil('a hung helper of the inventory', () => carrying(fakes.marker).length > 0);
    const signalled = performance.now();
    child.kill('SIGTERM');
    const result = await child;
    expect(performance.now() - signalled).toBeLessThan(3000);
    expect(result.exitCode).toBe(2);
    const { byId, report } = await parseReport(String(result.stdout));
    expect((report.interrupted as { unfinished: string[] }).unfinished).toContain('host.model');
    expect(byId['host.model']!.message).toBe('did not finish: qprep was interrupted by SIGTERM');
    await expectNoHelperLeft(fakes.marker);
  });

  it('a snapshot replay and --root start no inventory process: no helper is called', async () => {
    const fakes = fakeHelpers(() => 'exec sleep 3600');
    const replay = await qprepTimed(fakes.bin, ['facts', '--snapshot', join(REPO, 'examples', 'snapshots', 'a2-healthy.json')]);
    expect(replay.exitCode, replay.stderr).toBe(0);
    expect(JSON.parse(replay.stdout).inventory.source).not.toBe('none');
    const root = await qprepTimed(fakes.bin, ['facts', '--root', tmp('empty-root')]);
    expect(root.exitCode, root.stderr).toBe(0);
    expect(JSON.parse(root.stdout).inventory.source).toBe('root-files');
    expect(calls(fakes)).toEqual([]);
    await expectNoHelperLeft(fakes.marker);
  });
});

describe('helpers of the inventory that answer slowly', () => {
  it('every answer still comes back through the inventory process, within the budget', async () => {
    // dmesg (osInfo, system), dmidecode (cpu, bios, system) and nmcli each take a second
    const capture = join(REPO, 'test', 'fixtures', 'dmi', 'dmidecode-t-system-a800i-a2-kylin-llm-action.txt');
    const fakes = fakeHelpers((name) => (name === 'dmidecode' ? `sleep 1\ncase "$*" in *system*) cat ${shellQuote(capture)} ;; esac` : 'sleep 1'));
    const run = await qprepTimed(fakes.bin, ['facts', '--timeout', '10s']);
    expect(run.exitCode, run.stderr).toBe(0);
    const { inventory } = JSON.parse(run.stdout) as { inventory: { cpu: { threads: number | null }; memoryBytes: number | null; os: { distro: string | null }; system: { virtual: boolean | null }; unknown: Array<{ field: string; reason: string }> } };
    expect(calls(fakes).filter((call) => call.startsWith('dmidecode')).length).toBeGreaterThan(0);
    expect(inventory.unknown.filter((u) => /gave no answer|inventory process|failed/.test(u.reason))).toEqual([]);
    expect(inventory.cpu.threads).toBeGreaterThan(0);
    expect(inventory.memoryBytes).toBeGreaterThan(0);
    // system() answered: the one call that runs every helper
    expect(typeof inventory.system.virtual).toBe('boolean');
    await expectNoHelperLeft(fakes.marker);
  });
});

describe('only dmesg hangs, and lscpu is slow', () => {
  it('the CPUs and memory still come back: system(), whose dmesg blocks its whole process, is asked once the others answered', async (context) => {
    const lscpu = spawnSync('sh', ['-c', 'command -v lscpu'], { encoding: 'utf8' }).stdout.trim();
    if (lscpu === '') {
      console.log('skipped: no lscpu (util-linux) on this machine to answer slowly');
      context.skip();
    }
    const fakes = fakeHelpers((name) => (name === 'dmesg' ? 'exec sleep 3600' : 'exit 0'));
    // cpu() waits for lscpu: answering after 300 ms, it would not be printed if system() had blocked the process first
    writeFileSync(join(fakes.bin, 'lscpu'), `#!/bin/sh\nsleep 0.3\nexec ${shellQuote(lscpu)} "$@"\n`);
    chmodSync(join(fakes.bin, 'lscpu'), 0o755);
    const run = await qprepTimed(fakes.bin, ['facts', '--timeout', '3s']);
    expect(run.exitCode, run.stderr).toBe(0);
    const { inventory } = JSON.parse(run.stdout) as { inventory: { cpu: { threads: number | null }; memoryBytes: number | null; unknown: Array<{ field: string; reason: string }> } };
    expect(calls(fakes).some((call) => call.startsWith('dmesg'))).toBe(true);
    expect(inventory.unknown.find((u) => u.field === 'system.virtual')?.reason).toBe('systeminformation system() gave no answer within 3000 ms: the inventory process was killed with the helpers it ran');
    expect(inventory.unknown.map((u) => u.field)).not.toContain('cpu');
    expect(inventory.cpu.threads).toBeGreaterThan(0);
    expect(inventory.memoryBytes).toBeGreaterThan(0);
    await expectNoHelperLeft(fakes.marker);
  });
});

/** Root, `ip` and network namespaces: what the 110-interface node needs. */
function netnsProblem(): string | undefined {
  if (process.platform !== 'linux') return 'network namespaces exist on Linux only';
  if (process.getuid?.() !== 0) return 'creating a network namespace needs root';
  const probe = spawnSync('ip', ['netns', 'list']);
  if (probe.error) return `ip (iproute2) cannot run: ${probe.error.message}`;
  if (probe.status !== 0) return `ip netns fails here: ${String(probe.stderr).trim()}`;
  return undefined;
}

function ip(...args: string[]): void {
  const run = spawnSync('ip', args, { encoding: 'utf8' });
  if (run.status !== 0) throw new Error(`ip ${args.join(' ')}: ${run.stderr.trim() || `exit ${run.status}`}`);
}

describe('a Kubernetes node: 110 pod veths and an nmcli answering in 80 ms', () => {
  const problem = netnsProblem();
  const namespace = `qprep-inv-${randomBytes(4).toString('hex')}`;
  let created = false;
  afterAll(() => {
    if (created) spawnSync('ip', ['netns', 'delete', namespace]);
  });

  it.skipIf(problem !== undefined)('every check is judged within its budget; the NICs come from sysfs, nmcli is never run', async () => {
    ip('netns', 'add', namespace);
    created = true;
    ip('-n', namespace, 'link', 'set', 'lo', 'up');
    // 55 pairs, both ends up with an address: 110 interfaces that every lister sees, as on a node
    // running 110 pods (the kubelet's default maxPods); addresses of 198.18.0.0/15, kept for tests
    const links = [...Array(55).keys()].flatMap((i) => [
      `link add pv${i}a type veth peer name pv${i}b`,
      `address add 198.19.${i}.1/32 dev pv${i}a`,
      `address add 198.19.${i}.2/32 dev pv${i}b`,
      `link set pv${i}a up`,
      `link set pv${i}b up`,
    ]);
    const made = spawnSync('ip', ['-n', namespace, '-batch', '-'], { input: `${links.join('\n')}\n`, encoding: 'utf8' });
    expect(made.status, made.stderr).toBe(0);
    // NetworkManager's answers after 80 ms: every interface has a connection, whose settings the library asks for
    const nmcli = [
      'sleep 0.08',
      'case "$1 $2" in',
      '  "device status") echo "DEVICE TYPE STATE CONNECTION"; for d in $(ls /sys/class/net); do echo "$d ethernet connected pod-$d"; done ;;',
      '  "connection show") printf "connection.id: %s\\nipv4.method: manual\\nipv4.dns-search: --\\n802-1x.eap: --\\n" "$3" ;;',
      'esac',
    ].join('\n');
    const fakes = fakeHelpers((name) => (name === 'nmcli' ? nmcli : 'sleep 0.08'));
    const inNamespace = ['ip', 'netns', 'exec', namespace];
    const run = await qprepTimed(fakes.bin, ['check', '--only', 'tuning,host,network', '--timeout', '3s', '--format', 'json'], inNamespace);
    const { byId, report } = await parseReport(run.stdout);
    for (const check of report.checks) expect(check.status, `${check.id}: ${check.message}`).not.toBe('error');
    expect(byId['sysctl.swappiness']!.status).toMatch(/^(pass|warn|fail)$/);
    const facts = await qprepTimed(fakes.bin, ['facts', '--timeout', '3s'], inNamespace);
    expect(facts.exitCode, facts.stderr).toBe(0);
    const nics = (JSON.parse(facts.stdout) as { inventory: { nics: Array<{ name: string; ipv4: string | null; virtual: boolean | null }> } }).inventory.nics;
    expect(nics.length).toBe(111);
    expect(nics.every((nic) => nic.virtual === true)).toBe(true);
    expect(nics.find((nic) => nic.name === 'pv54b')?.ipv4).toBe('198.19.54.2');
    expect(calls(fakes).filter((call) => call.startsWith('nmcli'))).toEqual([]);
    await expectNoHelperLeft(fakes.marker);
  }, 180_000);
  if (problem) console.log(`skipped (110 interfaces in a network namespace): ${problem}`);
});
