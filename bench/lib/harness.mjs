// What every measurement uses: timed child processes, peak memory, statistics, the machine.
import { spawn } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import { cpus, freemem, release, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const REPO = fileURLToPath(new URL('../..', import.meta.url));
const RSS_PROBE = fileURLToPath(new URL('./rss-probe.mjs', import.meta.url));

/**
 * Runs argv (no shell) to completion and returns its wall time in milliseconds, its exit code,
 * its stdout, and with `rss: true` its peak RSS in KiB and the CPU time it used in milliseconds
 * (node processes only: a preload reports them). On a machine shared with other work the wall
 * time stretches with the load; the CPU time much less.
 * `stdinFile` is opened as its standard input (`command < file`), so that feeding a large input
 * costs this process nothing while the command runs; `input` writes a string through a pipe.
 */
export async function timed(argv, { cwd = REPO, env = process.env, rss = false, input, stdinFile } = {}) {
  let rssDir;
  let args = argv.slice(1);
  const childEnv = { ...env };
  if (rss) {
    rssDir = mkdtempSync(join(tmpdir(), 'qprep-bench-'));
    childEnv.QPREP_BENCH_RSS_FILE = join(rssDir, 'rss');
    args = ['--import', RSS_PROBE, ...args];
  }
  const stdinFd = stdinFile === undefined ? undefined : openSync(stdinFile, 'r');
  const started = process.hrtime.bigint();
  const child = spawn(argv[0], args, { cwd, env: childEnv, stdio: [stdinFd ?? (input === undefined ? 'ignore' : 'pipe'), 'pipe', 'pipe'] });
  if (stdinFd !== undefined) closeSync(stdinFd);
  const stdout = [];
  const stderr = [];
  child.stdout.on('data', (chunk) => stdout.push(chunk));
  child.stderr.on('data', (chunk) => stderr.push(chunk));
  if (input !== undefined) child.stdin.end(input);
  const exitCode = await new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code) => resolve(code));
  });
  const ms = Number(process.hrtime.bigint() - started) / 1e6;
  let maxRssKiB;
  let cpuMs;
  if (rssDir) {
    try {
      const [rssKiB, userUs, systemUs] = readFileSync(join(rssDir, 'rss'), 'utf8').split(' ').map(Number);
      maxRssKiB = rssKiB;
      cpuMs = (userUs + systemUs) / 1000;
    } finally {
      rmSync(rssDir, { recursive: true, force: true });
    }
  }
  return { ms, exitCode, maxRssKiB, cpuMs, stdout: Buffer.concat(stdout).toString('utf8'), stderr: Buffer.concat(stderr).toString('utf8') };
}

/** Nearest-rank percentile of a sample (p in 0..100). */
export function percentile(values, p) {
  const sorted = [...values].sort((a, b) => a - b);
  if (sorted.length === 0) return NaN;
  const rank = Math.max(1, Math.ceil((p / 100) * sorted.length));
  return sorted[rank - 1];
}

/** The middle value; of an even number of values, the mean of the two in the middle (of 2 runs, not the better one). */
export function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  if (sorted.length === 0) return NaN;
  const middle = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

export function stats(values) {
  return { n: values.length, median: median(values), p90: percentile(values, 90), min: Math.min(...values), max: Math.max(...values) };
}

/**
 * Runs each command `runs` times, interleaved (a, b, c, a, b, c, ...), after `warmup` discarded
 * rounds, so that a slow moment of a shared machine hits every command alike.
 */
export async function interleaved(commands, { runs, warmup = 2, rss = false }) {
  const samples = commands.map(() => ({ ms: [], rss: [], cpu: [], exitCodes: new Set(), last: undefined }));
  for (let round = 0; round < warmup + runs; round++) {
    for (const [i, command] of commands.entries()) {
      const result = await timed(command.argv, { ...command.options, rss });
      if (round < warmup) continue;
      samples[i].ms.push(result.ms);
      if (result.maxRssKiB !== undefined) samples[i].rss.push(result.maxRssKiB);
      if (result.cpuMs !== undefined) samples[i].cpu.push(result.cpuMs);
      samples[i].exitCodes.add(result.exitCode);
      samples[i].last = result;
    }
  }
  return samples;
}

function osPrettyName() {
  try {
    return /^PRETTY_NAME="?([^"\n]*)"?$/m.exec(readFileSync('/etc/os-release', 'utf8'))?.[1] ?? 'unknown';
  } catch {
    return 'unknown';
  }
}

export function machine() {
  const cpuList = cpus();
  const { version } = JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8'));
  return {
    cpu: cpuList[0]?.model?.trim() ?? 'unknown',
    cores: cpuList.length,
    memoryGiB: Math.round((totalmem() / 2 ** 30) * 10) / 10,
    freeMemoryGiB: Math.round((freemem() / 2 ** 30) * 10) / 10,
    os: osPrettyName(),
    kernel: release(),
    arch: process.arch,
    node: process.version,
    qprep: version,
  };
}

const SERVICE_UNIT = join(REPO, 'examples', 'systemd', 'qprep.service');

/** The NODE_OPTIONS the install recipes start qprep with: the systemd unit's Environment="NODE_OPTIONS=..." line. */
export function recipeNodeOptions() {
  const line = readFileSync(SERVICE_UNIT, 'utf8')
    .split('\n')
    .find((l) => /^Environment="?NODE_OPTIONS=/.test(l));
  if (!line) throw new Error(`${SERVICE_UNIT}: no Environment=NODE_OPTIONS line`);
  return /^Environment="?NODE_OPTIONS=(.*?)"?$/.exec(line)[1];
}

/** The JSON lines a stream carries (qprep serve's log on stderr), parsed into an array as each line completes. */
export function jsonLines(stream) {
  const lines = [];
  let pending = '';
  stream.on('data', (chunk) => {
    pending += chunk.toString('utf8');
    const complete = pending.split('\n');
    pending = complete.pop() ?? '';
    for (const line of complete) lines.push(JSON.parse(line));
  });
  return lines;
}

