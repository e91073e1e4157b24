import { execaSync } from 'execa';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { qprep, validateAgainstSchema } from '../helpers/cli.js';
import { fixturePath } from '../helpers/fixtures.js';
import { writeEccAnswers } from '../helpers/npu-ecc.js';

/**
 * The built CLI against a fake Ascend host: a fake npu-smi on PATH that prints a fixture
 * chosen by its arguments, and a host tree for --root with the driver files, the device
 * nodes (real character devices, which needs root to mknod) and, for the container cases,
 * /.dockerenv and a /proc/self/mountinfo with the guide's bind mounts.
 */

const IS_ROOT = process.getuid?.() === 0;
const NEEDS_ROOT = 'creating character devices with mknod needs root; these cases are covered by the unit tests on a fake host';

type Answer = { fixture?: string; stdout?: string; stderr?: string; exit?: number; hang?: boolean };

function tmp(prefix: string): string {
  return mkdtempSync(join(tmpdir(), `qprep-npu-${prefix}-`));
}

function shellQuote(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`;
}

/** A fake npu-smi (and an hccn_tool that exists) in a fresh bin directory; `answers` is keyed by "$*". */
function fakeTools(answers: Record<string, Answer>, pidFile?: string): string {
  const bin = tmp('bin');
  const cases = Object.entries(answers).map(([args, answer]) => {
    const body: string[] = [];
    if (answer.hang) {
      body.push('sleep 600 &', pidFile ? `echo "$$ $!" > ${shellQuote(pidFile)}` : ':', 'sleep 600');
    }
    if (answer.fixture) body.push(`cat ${shellQuote(answer.fixture)}`);
    if (answer.stdout) body.push(`printf '%s\\n' ${shellQuote(answer.stdout)}`);
    if (answer.stderr) body.push(`printf '%s\\n' ${shellQuote(answer.stderr)} >&2`);
    body.push(`exit ${answer.exit ?? 0}`);
    return `  ${shellQuote(args)})\n    ${body.join('\n    ')}\n    ;;`;
  });
  const script = ['#!/bin/sh', 'case "$*" in', ...cases, '  *) echo "Command or option is not found."; exit 1 ;;', 'esac', ''].join('\n');
  writeFileSync(join(bin, 'npu-smi'), script);
  chmodSync(join(bin, 'npu-smi'), 0o755);
  writeFileSync(join(bin, 'hccn_tool'), '#!/bin/sh\nexit 0\n');
  chmodSync(join(bin, 'hccn_tool'), 0o755);
  return bin;
}

/** The fake npu-smi's answers of `info -t ecc -i <card>`: clean counters from the captures, one file per card. */
function eccAnswers(cards: readonly number[], chips: 1 | 2 = 1): Record<string, Answer> {
  const files = writeEccAnswers(tmp('ecc'), cards, chips);
  return Object.fromEntries(Object.entries(files).map(([card, file]) => [`info -t ecc -i ${card}`, { fixture: file }]));
}

interface TreeOptions {
  devices?: number[];
  container?: boolean;
  /** guide mounts present in the tree but not in mountinfo */
  notMounted?: string[];
  /** tree paths not to create */
  missing?: string[];
  driverVersionInfo?: string;
  files?: Record<string, string>;
  /** create /dev nodes as regular files instead (no root needed) */
  plainFileDevices?: boolean;
}

const GUIDE_MOUNTS = [
  '/usr/local/dcmi',
  '/usr/local/bin/npu-smi',
  '/usr/local/Ascend/driver/tools/hccn_tool',
  '/usr/local/Ascend/driver/lib64',
  '/usr/local/Ascend/driver/version.info',
  '/etc/ascend_install.info',
];

function write(root: string, path: string, content: string, mode = 0o644): void {
  mkdirSync(dirname(join(root, path)), { recursive: true });
  writeFileSync(join(root, path), content);
  chmodSync(join(root, path), mode);
}

function hostTree(options: TreeOptions = {}): string {
  const root = tmp('tree');
  const missing = new Set(options.missing ?? []);
  const files: Record<string, [string, number]> = {
    '/usr/local/dcmi/libdcmi.so': ['ELF', 0o644],
    '/usr/local/bin/npu-smi': ['#!/bin/sh\n', 0o755],
    '/usr/local/Ascend/driver/tools/hccn_tool': ['#!/bin/sh\n', 0o755],
    '/usr/local/Ascend/driver/lib64/driver/libascend_hal.so': ['ELF', 0o644],
    '/usr/local/Ascend/driver/version.info': [options.driverVersionInfo ?? readFileSync(fixturePath('synthetic', 'driver-version-info-25.3.rc1-derived.txt'), 'utf8'), 0o644],
    '/usr/local/Ascend/firmware/version.info': [readFileSync(fixturePath('ascend', 'firmware-version-info-7.7.0.1.231-mindie-notes.txt'), 'utf8'), 0o644],
    '/etc/ascend_install.info': [readFileSync(fixturePath('ascend', 'ascend-install-info-llm-action.txt'), 'utf8'), 0o644],
  };
  for (const [path, content] of Object.entries(options.files ?? {})) files[path] = [content, 0o644];
  for (const [path, [content, mode]] of Object.entries(files)) {
    if ([...missing].some((m) => path === m || path.startsWith(`${m}/`))) continue;
    write(root, path, content, mode);
  }
  mkdirSync(join(root, 'dev'), { recursive: true });
  const nodes = ['davinci_manager', 'devmm_svm', 'hisi_hdc', ...(options.devices ?? [0, 1, 2, 3, 4, 5, 6, 7]).map((id) => `davinci${id}`)];
  for (const node of nodes) {
    if (missing.has(`/dev/${node}`)) continue;
    if (options.plainFileDevices) writeFileSync(join(root, 'dev', node), '');
    else execaSync('mknod', [join(root, 'dev', node), 'c', '1', '3']);
  }
  if (options.container) {
    write(root, '/.dockerenv', '');
    const mounted = GUIDE_MOUNTS.filter((p) => !(options.notMounted ?? []).includes(p) && !missing.has(p));
    const lines = ['1093 992 0:120 / / rw,relatime master:464 - overlay overlay rw,lowerdir=/var/lib/docker/overlay2/l/A'];
    mounted.forEach((path, i) => lines.push(`${1100 + i} 1093 253:1 ${path} ${path} rw,relatime - ext4 /dev/vda1 rw`));
    write(root, '/proc/self/mountinfo', `${lines.join('\n')}\n`);
  }
  return root;
}

interface CheckLine {
  id: string;
  category: string;
  status: string;
  message: string;
  remediation?: string;
  evidence: Record<string, unknown>;
}

async function checkNpu(root: string, bin: string, extra: string[] = [], env: Record<string, string> = {}) {
  const run = await qprep(['check', '--root', root, '--only', 'npu', '--format', 'json', ...extra], { env: { PATH: `${bin}:/usr/bin:/bin`, ...env } });
  const report = JSON.parse(run.stdout);
  const { valid, errors } = await validateAgainstSchema('report', report);
  expect(valid, errors).toBe(true);
  const byId: Record<string, CheckLine> = Object.fromEntries(report.checks.map((c: CheckLine) => [c.id, c]));
  const statuses = Object.fromEntries(report.checks.map((c: CheckLine) => [c.id, c.status]));
  return { run, report, byId, statuses };
}

const A2 = fixturePath('ascend', 'npu-smi-info-910b3-a2x8-vllm-ascend-5527.txt');
const A3 = fixturePath('ascend', 'npu-smi-info-a3-16chip-vllm-ascend-5784.txt');
/** The same tables with a 25.5.1 driver (derived): the Qwen3.5-397B profiles ask for 25.5.0 or later. */
const A2_25_5 = fixturePath('synthetic', 'npu-smi-info-910b3-a2x8-25.5.1-derived.txt');
const A3_25_5 = fixturePath('synthetic', 'npu-smi-info-a3-16chip-25.5.1-derived.txt');
const DRIVER_25_5_1 = () => readFileSync(fixturePath('synthetic', 'driver-version-info-25.5.1-minimal-derived.txt'), 'utf8');
const DUO = fixturePath('ascend', 'npu-smi-info-310p3-300iduo-4cards-25.5.1-nodeexporter-cmdb-test.txt');
const BOARD = fixturePath('ascend', 'npu-smi-info-t-board-910a-mindcluster-fixture.txt');
const EIGHT = [0, 1, 2, 3, 4, 5, 6, 7];

beforeAll(() => {
  if (!IS_ROOT) console.warn(`skipping the end-to-end cases with healthy device nodes: ${NEEDS_ROOT}`);
});

describe('healthy hosts', () => {
  it.skipIf(!IS_ROOT)('A2 (8x 910B3, derived 25.5.1 driver) on the host: every NPU check passes except CANN, which lives in the image; exit 0', async () => {
    const bin = fakeTools({ info: { fixture: A2_25_5 }, 'info -t board -i 0': { fixture: BOARD }, ...eccAnswers(EIGHT) });
    const { run, report, statuses, byId } = await checkNpu(hostTree({ driverVersionInfo: DRIVER_25_5_1() }), bin, ['--profile', 'qwen3.5-397b-w8a8-a2']);
    // every check of the npu category ran (qprep list names them), and all but npu.cann passed
    const listed: Array<{ id: string; category: string }> = JSON.parse((await qprep(['list', '--format', 'json'])).stdout);
    expect(Object.keys(statuses)).toEqual(listed.filter((c) => c.category === 'npu').map((c) => c.id));
    expect(Object.entries(statuses).filter(([, status]) => status !== 'pass')).toEqual([['npu.cann', 'skip']]);
    expect(byId['npu.count']!.message).toBe('8 NPU devices, family a2, 8 selected by profile (profile: at least 8, a2)');
    expect(report.ready).toBe(true);
    expect(run.exitCode).toBe(0);
    expect(report.facts).toMatchObject({ family: 'a2', versions: { npuSmi: '25.5.1', driver: '25.5.1', firmware: '7.7.0.1.231' } });
    expect(report.facts.npus).toHaveLength(8);
    expect(byId['npu.driver-version']!.message).toBe('driver 25.5.1; version.info and npu-smi agree, at least 25.5.0 (profile qwen3.5-397b-w8a8-a2)');
  });

  it.skipIf(!IS_ROOT)("the captured A2 with its 25.3.rc1 driver is below the w8a8 profile's minimum driver: exit 1, the HDK upgrade as the fix", async () => {
    const bin = fakeTools({ info: { fixture: A2 }, 'info -t board -i 0': { fixture: BOARD }, ...eccAnswers(EIGHT) });
    const { run, report, byId } = await checkNpu(hostTree(), bin, ['--profile', 'qwen3.5-397b-w8a8-a2']);
    expect(run.exitCode).toBe(1);
    expect(report.blocking).toEqual(['npu.driver-version']);
    expect(byId['npu.driver-version']!.message).toBe('driver 25.3.rc1 (/usr/local/Ascend/driver/version.info) is older than 25.5.0, the minimum of profile qwen3.5-397b-w8a8-a2');
    expect(byId['npu.driver-version']!.remediation).toMatch(/^upgrade the NPU driver and firmware \(Ascend HDK\) to 25\.5\.0 or later/);
    // without a deployment profile the same host is ready
    expect((await checkNpu(hostTree(), bin)).run.exitCode).toBe(0);
  });

  it.skipIf(!IS_ROOT)('A3 (8 cards x 2 dies) with its profile: 16 devices by Phy-ID; exit 0', async () => {
    const bin = fakeTools({ info: { fixture: A3_25_5 }, 'info -t board -i 0': { fixture: BOARD }, ...eccAnswers(EIGHT, 2) });
    const tree = hostTree({ devices: [...Array(16).keys()], driverVersionInfo: DRIVER_25_5_1() });
    const { run, statuses, byId, report } = await checkNpu(tree, bin, ['--profile', 'qwen3.5-397b-w8a8-a3']);
    expect(Object.values(statuses).filter((s) => s !== 'pass' && s !== 'skip')).toEqual([]);
    expect(byId['npu.devices']!.message).toBe('16 NPU device nodes (/dev/davinci0-15) and davinci_manager, devmm_svm, hisi_hdc are character devices');
    expect(byId['npu.count']!.message).toBe('16 NPU devices (8 cards × 2 chips), family a3, 16 selected by profile (profile: at least 16, a3)');
    expect(report.facts.npus.map((n: { device: number }) => n.device)).toEqual([...Array(16).keys()]);
    expect(run.exitCode).toBe(0);
  });

  it.skipIf(!IS_ROOT)('300I Duo (310P) in a container with the guide\'s mounts and CANN in the image; exit 0', async () => {
    const bin = fakeTools({ info: { fixture: DUO }, 'info -t board -i 1': { fixture: BOARD } });
    const tree = hostTree({
      container: true,
      missing: ['/usr/local/Ascend/driver/tools/hccn_tool', '/usr/local/Ascend/firmware'],
      driverVersionInfo: readFileSync(fixturePath('synthetic', 'driver-version-info-25.5.1-minimal-derived.txt'), 'utf8'),
      files: { '/usr/local/Ascend/ascend-toolkit/latest/toolkit/version.info': readFileSync(fixturePath('ascend', 'cann-toolkit-version-info-8.2.RC1-mindie-notes.txt'), 'utf8') },
    });
    const { run, statuses, byId, report } = await checkNpu(tree, bin, ['--profile', 'qwen3.5-dense-300i-duo']);
    expect(statuses).toMatchObject({ 'npu.tools': 'pass', 'npu.devices': 'pass', 'npu.driver-files': 'pass', 'npu.smi': 'pass', 'npu.count': 'pass', 'npu.idle': 'pass', 'npu.cann': 'pass' });
    expect(byId['npu.driver-files']!.message).toMatch(/^5 driver paths mounted from the host/);
    expect(byId['npu.idle']!.message).toBe('8 NPU devices free: this driver prints no process table, 1105-1863 MB in use (idle baseline)');
    expect(report.host.inContainer).toBe(true);
    expect(run.exitCode).toBe(0);
  });
});

describe('broken hosts', () => {
  it.skipIf(!IS_ROOT)('an NPU held by a process: npu.idle fails naming it; exit 1', async () => {
    const bin = fakeTools({ info: { fixture: fixturePath('ascend', 'npu-smi-info-910b3-26.1.0-wide-proc-container-col-testfixture.txt') }, 'info -t board -i 0': { fixture: BOARD }, ...eccAnswers(EIGHT) });
    const tree = hostTree({ driverVersionInfo: 'Version=26.1.0\npackage_version=26.1.0\n' });
    const { run, statuses, byId, report } = await checkNpu(tree, bin);
    expect(statuses['npu.idle']).toBe('fail');
    expect(byId['npu.idle']!.message).toBe('1 of 8 NPU devices in use: NPU 0: pid 485946 pytest (5175 MB)');
    expect(report.blocking).toEqual(['npu.idle']);
    expect(run.exitCode).toBe(1);
  });

  it.skipIf(!IS_ROOT)('a chip not OK (derived table): npu.health fails with the error code of -t health; exit 1', async () => {
    const bin = fakeTools({
      info: { fixture: fixturePath('synthetic', 'npu-smi-info-910b3-a2x8-25.3.rc1-npu3-warning-derived.txt') },
      'info -t board -i 0': { fixture: BOARD },
      'info -t health -i 3 -c 0': { fixture: fixturePath('ascend', 'npu-smi-info-t-health-warning-errorcode-testfixture.txt') },
      ...eccAnswers(EIGHT),
    });
    const { run, byId, report } = await checkNpu(hostTree(), bin);
    expect(byId['npu.health']!.status).toBe('fail');
    expect(byId['npu.health']!.message).toBe('1 of 8 NPU devices the workload uses is not OK: NPU 3 Warning: 80E01801 RestartBusiness (Multi-bit ECC errors when accessing the HBM)');
    expect(report.blocking).toEqual(['npu.health']);
    expect(run.exitCode).toBe(1);
  });

  it.skipIf(!IS_ROOT)('a driver mount missing in a container: npu-smi cannot load libc_sec.so; npu.smi and npu.driver-files name the same -v flag; exit 1', async () => {
    const bin = fakeTools({ info: { stderr: 'npu-smi: error while loading shared libraries: libc_sec.so: cannot open shared object file: No such file or directory', exit: 127 } });
    const tree = hostTree({ container: true, missing: ['/usr/local/Ascend/driver/lib64'] });
    const { run, byId, statuses } = await checkNpu(tree, bin);
    const flag = '-v /usr/local/Ascend/driver/lib64/:/usr/local/Ascend/driver/lib64/';
    expect(byId['npu.smi']!.status).toBe('fail');
    expect(byId['npu.smi']!.message).toContain('libc_sec.so is missing');
    expect(byId['npu.smi']!.remediation).toBe(`add ${flag} to docker run`);
    expect(byId['npu.driver-files']!.status).toBe('fail');
    expect(byId['npu.driver-files']!.remediation).toBe(`add ${flag} to docker run`);
    expect(statuses['npu.idle']).toBe('error');
    expect(run.exitCode).toBe(1);
  });

  it.skipIf(!IS_ROOT)('DCMI -8005 in a container: cause and the in-container fix', async () => {
    const bin = fakeTools({ info: { fixture: fixturePath('ascend', 'npu-smi-error-dcmi-8005-vllm-ascend-2698.txt'), exit: 251 } });
    const { run, byId } = await checkNpu(hostTree({ container: true }), bin);
    expect(byId['npu.smi']!.message).toContain('ret is -8005" (DCMI_ERR_CODE_INNER_ERR');
    expect(byId['npu.smi']!.remediation).toContain('another container or process holds these NPUs');
    expect(run.exitCode).toBe(1);
  });

  it('a regular file where /dev/davinci0 should be is not a device (no root needed)', async () => {
    const bin = fakeTools({ info: { fixture: A2 }, 'info -t board -i 0': { fixture: BOARD } });
    const { run, byId } = await checkNpu(hostTree({ container: true, plainFileDevices: true }), bin, ['--only', 'npu.devices']);
    expect(byId['npu.devices']!.status).toBe('fail');
    expect(byId['npu.devices']!.message).toMatch(/^11 device nodes are not usable: \/dev\/davinci_manager a file, not a character device/);
    expect(byId['npu.devices']!.remediation).toContain('--device /dev/davinci0');
    expect(run.exitCode).toBe(1);
  });

  it('a hanging npu-smi that forks a child is killed at its timeout with the child; every other check still reports', async () => {
    const pids = join(tmp('pids'), 'pids');
    const bin = fakeTools({ info: { hang: true } }, pids);
    const tree = hostTree({ plainFileDevices: true });
    const started = Date.now();
    const run = await qprep(['check', '--root', tree, '--timeout', '700ms', '--format', 'json'], { env: { PATH: `${bin}:/usr/bin:/bin` } });
    expect(Date.now() - started).toBeLessThan(30_000);
    const report = JSON.parse(run.stdout);
    expect((await validateAgainstSchema('report', report)).valid).toBe(true);
    const smi = report.checks.find((c: CheckLine) => c.id === 'npu.smi');
    expect(smi.status).toBe('error');
    expect(smi.message).toBe(`"${bin}/npu-smi info" did not finish within 700 ms and was killed with its child processes`);
    const catalogue = JSON.parse((await qprep(['list', '--format', 'json'])).stdout);
    // every check of the default depth
    expect(report.checks.map((c: CheckLine) => c.id)).toEqual(catalogue.filter((c: { depth: string }) => c.depth !== 'deep').map((c: { id: string }) => c.id));
    expect(report.checks.filter((c: CheckLine) => c.category === 'tuning' && c.status !== 'error').length).toBeGreaterThan(0);
    expect(run.exitCode).toBe(1);
    const [parent, child] = readFileSync(pids, 'utf8').trim().split(' ').map(Number);
    for (const pid of [parent!, child!]) {
      let state = 'gone';
      try {
        const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
        state = stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3);
      } catch {
        // no such process
      }
      expect(['gone', 'Z']).toContain(state);
    }
  });
});

describe('qprep facts', () => {
  it('prints a document valid against `qprep schema facts`, from the fake host', async () => {
    const bin = fakeTools({ info: { fixture: A3 }, 'info -t board -i 0': { fixture: BOARD } });
    const tree = hostTree({ devices: [0], plainFileDevices: true });
    const run = await qprep(['facts', '--root', tree], { env: { PATH: `${bin}:/usr/bin:/bin` } });
    expect(run.exitCode).toBe(0);
    const facts = JSON.parse(run.stdout);
    const { valid, errors } = await validateAgainstSchema('facts', facts);
    expect(valid, errors).toBe(true);
    expect(facts).toMatchObject({ schemaVersion: 1, family: 'a3', devices: [], versions: { npuSmi: '25.2.1', driver: '25.2.1', firmware: '7.7.0.1.231', cann: null } });
    expect(facts.npus.map((n: { card: number; chip: number; device: number }) => [n.card, n.chip, n.device]).slice(0, 4)).toEqual([[0, 0, 0], [0, 1, 1], [1, 0, 2], [1, 1, 3]]);
    expect(run.stderr).toBe('');
  });

  it('on a machine without npu-smi: exit 0, the problem named', async () => {
    const run = await qprep(['facts', '--root', hostTree({ plainFileDevices: true })], { env: { PATH: '/usr/bin:/bin' } });
    expect(run.exitCode).toBe(0);
    const facts = JSON.parse(run.stdout);
    expect(facts.problems).toEqual([{ source: 'npu-smi', message: 'npu-smi not found (not on PATH, not in /usr/local/sbin or /usr/local/bin)' }]);
    expect((await validateAgainstSchema('facts', facts)).valid).toBe(true);
  });

  it('--output writes the file; a wrong option is exit 2', async () => {
    const dir = tmp('facts-out');
    const run = await qprep(['facts', '--root', hostTree({ plainFileDevices: true }), '--output', join(dir, 'node.json')], { env: { PATH: '/usr/bin:/bin' } });
    expect(run.exitCode).toBe(0);
    expect(JSON.parse(readFileSync(join(dir, 'node.json'), 'utf8')).schemaVersion).toBe(1);
    expect((await qprep(['facts', '--format', 'human'])).exitCode).toBe(2);
  });

  it('a failure is exit 2 with one line on stderr and, facts being JSON, the error document on stdout', async () => {
    const missing = join(tmp('facts-profile'), 'none.yaml');
    const run = await qprep(['facts', '--profile', missing]);
    expect(run.exitCode).toBe(2);
    expect(run.stderr).toMatch(new RegExp(`^qprep: error: .*${missing}.*\\n?$`));
    const document = JSON.parse(run.stdout);
    // facts gives no readiness verdict, so its error document has no `ready`
    expect(document).toMatchObject({ schemaVersion: 1, command: 'facts', error: { code: expect.any(String) } });
    expect(document).not.toHaveProperty('ready');
    expect(document.error.message).toContain(missing);
  });
});
