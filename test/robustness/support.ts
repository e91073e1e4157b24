import { execa, type ResultPromise } from 'execa';
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { expect } from 'vitest';
import { BIN, REPO, validateAgainstSchema } from '../helpers/cli.js';
import { fixturePath } from '../helpers/fixtures.js';
import { stateOf } from '../helpers/proc.js';
import { writeUntunedTree } from '../helpers/untuned-tree.js';

/*
 * What the robustness tests share: a host tree for --root, fake npu-smi / hccn_tool programs
 * that misbehave on purpose, the built CLI run as a real process, and looking at /proc to prove
 * that no process of a killed tool survived.
 */

export function tmp(prefix: string): string {
  return mkdtempSync(join(tmpdir(), `qprep-robust-${prefix}-`));
}

export function shellQuote(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`;
}

export const A2_TABLE = fixturePath('ascend', 'npu-smi-info-910b3-a2x8-vllm-ascend-5527.txt');
export const BOARD = fixturePath('ascend', 'npu-smi-info-t-board-910a-mindcluster-fixture.txt');
const ECC = fixturePath('ascend', 'npu-smi-info-t-ecc-910a-23.0.5-mindcluster-doc.txt');

/**
 * A host tree as the NPU and HCCN checks read it: driver files, version files, /etc/hccn.conf,
 * and the device nodes as plain files (mknod needs root; npu.devices then fails, which these
 * tests do not look at).
 */
export function hostTree(files: Record<string, string> = {}): string {
  const root = tmp('tree');
  const all: Record<string, string> = {
    '/usr/local/dcmi/libdcmi.so': 'ELF',
    '/usr/local/Ascend/driver/lib64/driver/libascend_hal.so': 'ELF',
    '/usr/local/Ascend/driver/version.info': readFileSync(fixturePath('synthetic', 'driver-version-info-25.3.rc1-derived.txt'), 'utf8'),
    '/usr/local/Ascend/firmware/version.info': readFileSync(fixturePath('ascend', 'firmware-version-info-7.7.0.1.231-mindie-notes.txt'), 'utf8'),
    '/etc/ascend_install.info': readFileSync(fixturePath('ascend', 'ascend-install-info-llm-action.txt'), 'utf8'),
    '/etc/hccn.conf': readFileSync(fixturePath('ascend', 'hccn-conf-910b-arthurchiao.txt'), 'utf8'),
    '/proc/sys/vm/swappiness': '0\n',
    '/proc/meminfo': 'MemTotal:       16384000 kB\nMemAvailable:   12000000 kB\n',
    ...files,
  };
  for (const [path, content] of Object.entries(all)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), content);
  }
  mkdirSync(join(root, 'dev'), { recursive: true });
  for (const node of ['davinci_manager', 'devmm_svm', 'hisi_hdc', ...[...Array(8).keys()].map((i) => `davinci${i}`)]) writeFileSync(join(root, 'dev', node), '');
  return root;
}

/** A bin directory holding the given programs (shell scripts), executable. */
export function fakeBin(programs: Record<string, string>): string {
  const bin = tmp('bin');
  for (const [name, script] of Object.entries(programs)) {
    writeFileSync(join(bin, name), script.startsWith('#!') ? script : `#!/bin/sh\n${script}`);
    chmodSync(join(bin, name), 0o755);
  }
  return bin;
}

/**
 * npu-smi answering `info` from the A2 table, `info -t board` from the board fixture and
 * `info -t ecc -i N` from the ECC capture (clean counters) with the card's id in its NPU ID line.
 */
export function healthyNpuSmi(): string {
  return [
    '#!/bin/sh',
    'case "$*" in',
    `  info) cat ${shellQuote(A2_TABLE)} ;;`,
    `  "info -t board -i "*) cat ${shellQuote(BOARD)} ;;`,
    `  "info -t ecc -i "*) sed "s/^\\( *NPU ID *: \\)1$/\\1$5/" ${shellQuote(ECC)} ;;`,
    '  *) echo "Command or option is not found."; exit 1 ;;',
    'esac',
    '',
  ].join('\n');
}

/**
 * A tool that writes its pid and the pid of a child it forks to `pidFile`, then hangs; the
 * child sleeps and holds stdout open, so only killing the whole group ends the read.
 */
export function hangingWithChild(pidFile: string): string {
  return `sleep 3600 &\necho "$$ $!" > ${shellQuote(pidFile)}\nsleep 3600\n`;
}

export interface CliRun {
  exitCode: number;
  stdout: string;
  stderr: string;
}

export const BASE_PATH = '/usr/bin:/bin';

/** How the built CLI runs here: the fake tools first on PATH, nothing else inherited. */
function cliOptions(bin: string | null, env: Record<string, string>) {
  return {
    reject: false,
    extendEnv: false,
    env: { PATH: bin ? `${bin}:${BASE_PATH}` : BASE_PATH, HOME: process.env.HOME ?? '/root', ...env },
    cwd: REPO,
    timeout: 180_000,
    stripFinalNewline: false,
    encoding: 'utf8',
  } as const;
}

/** The built CLI with the fake tools first on PATH; `stdinFile` becomes its standard input. */
export async function qprepWith(bin: string | null, args: string[], env: Record<string, string> = {}, stdinFile?: string): Promise<CliRun> {
  const run = await execa(process.execPath, [BIN, ...args], { ...cliOptions(bin, env), ...(stdinFile ? { inputFile: stdinFile } : {}) });
  return { exitCode: run.exitCode ?? -1, stdout: String(run.stdout), stderr: String(run.stderr) };
}

/** The built CLI started in the background, to be signalled. */
export function startQprep(bin: string | null, args: string[], env: Record<string, string> = {}): ResultPromise<{ reject: false; stripFinalNewline: false; encoding: 'utf8' }> {
  return execa(process.execPath, [BIN, ...args], cliOptions(bin, env));
}

export interface CheckLine {
  id: string;
  category: string;
  level: string;
  status: string;
  message: string;
  remediation?: string;
  evidence: Record<string, unknown>;
}

export interface ParsedReport {
  report: Record<string, unknown> & { checks: CheckLine[]; ready: boolean; blocking: string[] };
  byId: Record<string, CheckLine>;
}

/**
 * Parses a report, proves it valid against `qprep schema report`, and holds every line to the
 * contract whatever went wrong on the host: one-line messages, a fix on every non-pass, and no
 * check that crashed ("internal error").
 */
export async function parseReport(text: string): Promise<ParsedReport> {
  const report = JSON.parse(text) as ParsedReport['report'];
  const { valid, errors } = await validateAgainstSchema('report', report);
  expect(valid, errors).toBe(true);
  for (const check of report.checks) {
    expect(check.message, check.id).not.toMatch(/internal error|did not finish within \d+ ms$/);
    expect(check.message, check.id).not.toContain('\n');
    if (check.status !== 'pass') expect(check.remediation, `${check.id} has no remediation: ${check.message}`).toBeTruthy();
  }
  return { report, byId: Object.fromEntries(report.checks.map((c) => [c.id, c])) };
}


/** Running or sleeping; a zombie has ended and only waits for its parent (or init) to reap it. */
export function isAlive(pid: number): boolean {
  const state = stateOf(pid);
  return state !== undefined && state !== 'Z' && state !== 'X';
}

/** Live processes whose process group is `pgid`. */
export function livingInGroup(pgid: number): number[] {
  const members: number[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      // fields: state, ppid, pgrp, ...
      if (Number(fields[2]) === pgid && fields[0] !== 'Z' && fields[0] !== 'X') members.push(Number(name));
    } catch {
      // ended while we looked
    }
  }
  return members;
}

/**
 * Waits until none of the pids (and nothing in their process groups) is alive. SIGKILL is
 * delivered at once but a process takes a moment to end, so this waits rather than asserts
 * on the spot; a generous deadline, no timing assertion.
 */
export async function expectAllGone(pids: readonly number[], groups: readonly number[] = pids, deadlineMs = 20_000): Promise<void> {
  const survivors = () => [...pids.filter(isAlive), ...groups.flatMap(livingInGroup)];
  const deadline = Date.now() + deadlineMs;
  while (survivors().length > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
  expect(survivors(), 'processes of the killed tool still running').toEqual([]);
}

/** "PID CHILD" as written by hangingWithChild, once the tool has started. */
export async function pidsFrom(pidFile: string, deadlineMs = 60_000): Promise<number[]> {
  const deadline = Date.now() + deadlineMs;
  while (Date.now() < deadline) {
    if (existsSync(pidFile)) {
      const pids = readFileSync(pidFile, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number);
      if (pids.length >= 2) return pids;
    }
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error(`${pidFile} was not written: the fake tool did not start`);
}

/** Root, and a mount namespace can be made here (not in an unprivileged container). */
export function mountNamespaceProblem(): string | undefined {
  if (process.platform !== 'linux') return 'mount namespaces exist on Linux only';
  if (process.getuid?.() !== 0) return 'mounting a tmpfs needs root';
  const probe = spawnSync('unshare', ['--mount', '--propagation', 'private', 'true']);
  if (probe.error) return `unshare (util-linux) cannot run: ${probe.error.message}`;
  if (probe.status !== 0) return `unshare --mount fails here (${String(probe.stderr).trim() || `exit ${probe.status}`}): no CAP_SYS_ADMIN`;
  return undefined;
}

/** A host tree as a fresh install leaves it for tune (test/helpers/untuned-tree.ts). */
export function untunedTree(): string {
  const root = tmp('tune');
  writeUntunedTree(root);
  return root;
}

/** The values tune sets on untunedTree(), as the files hold them afterwards. */
export const TUNED: Record<string, string> = {
  'proc/sys/vm/swappiness': '0\n',
  'proc/sys/kernel/numa_balancing': '0\n',
  'sys/kernel/debug/sched/migration_cost_ns': '50000\n',
  'sys/devices/system/cpu/cpu0/cpufreq/scaling_governor': 'performance\n',
  'sys/devices/system/cpu/cpu1/cpufreq/scaling_governor': 'performance\n',
};

export const UNTUNED: Record<string, string> = {
  'proc/sys/vm/swappiness': '60\n',
  'proc/sys/kernel/numa_balancing': '1\n',
  'sys/kernel/debug/sched/migration_cost_ns': '500000\n',
  'sys/devices/system/cpu/cpu0/cpufreq/scaling_governor': 'powersave\n',
  'sys/devices/system/cpu/cpu1/cpufreq/scaling_governor': 'powersave\n',
};

export function valuesOf(root: string, paths: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.keys(paths).map((path) => [path, readFileSync(join(root, path), 'utf8')]));
}

/** Waits for a condition on the file system (a run reaching a point), with a generous deadline. */
export async function waitFor(what: string, condition: () => boolean, deadlineMs = 60_000): Promise<void> {
  const deadline = Date.now() + deadlineMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

/**
 * Waits until process `pid` catches SIGHUP, SIGINT and SIGTERM (the SigCgt mask of
 * /proc/PID/status): the first moment a signal can be handled at all. Node catches none of the
 * three by default, so the mask shows qprep's own handling.
 */
export async function waitForCaughtSignals(pid: number, deadlineMs = 20_000): Promise<void> {
  const wanted = (1n << 0n) | (1n << 1n) | (1n << 14n);
  const deadline = Date.now() + deadlineMs;
  while (Date.now() < deadline) {
    try {
      const mask = /SigCgt:\s*([0-9a-f]+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
      if (mask && (BigInt(`0x${mask}`) & wanted) === wanted) return;
    } catch {
      // not started yet, or gone
    }
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
  throw new Error(`process ${pid} did not catch SIGHUP, SIGINT and SIGTERM within ${deadlineMs} ms`);
}
