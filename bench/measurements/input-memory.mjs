// What reading a launch script and a snapshot costs in memory, at the caps qprep puts on them
// (1 MiB and 16,384 words and operators for a launch script, 32 MiB for a snapshot), run as the
// install recipes start qprep: the NODE_OPTIONS of examples/systemd/qprep.service (a 192 MiB
// heap). Each input is the costliest of its kind found: the most words a script can hold, the
// longest words, assignments, a comment of 1 MiB; a snapshot of small directory entries (the
// most objects per byte), of NICs, of file contents. For each: the exit code, the peak heap (the
// largest heap V8 reports before a collection, --trace-gc, or at exit), the peak RSS, and the
// heap over the same run on a demo input, per input byte and per token.
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { recipeNodeOptions, REPO, stats, timed } from '../lib/harness.mjs';

const HEAP_PROBE = fileURLToPath(new URL('../lib/heap-probe.mjs', import.meta.url));

const MIB = 1024 * 1024;
const LAUNCH_BYTES = MIB;
const LAUNCH_TOKENS = 16_384;
const SNAPSHOT_BYTES = 32 * MIB;
/** The heap the recipes give Node, less room for the rest of a run. */
const PEAK_HEAP_TARGET_MIB = 160;
const DEMO = join(REPO, 'examples', 'snapshots', 'a2-healthy.json');

/** The launch scripts: [label, text, tokens]. */
function launchInputs() {
  const head = 'vllm serve /models/Qwen3.5-4B';
  const words = (count, width) => Array.from({ length: count }, (_, i) => `p${String(i).padStart(5, '0')}${'v'.repeat(width - 6)}`).join(' ');
  const assignment = (i) => `export VALUE_${String(i).padStart(5, '0')}=${'x'.repeat(160)}`;
  return [
    ['launch: demo-sized (the baseline)', `${head} --port 8000 --tensor-parallel-size 1\n`, 8],
    ['launch: 16,380 words of 63 bytes (1 MiB, 16,384 tokens)', `${head} ${words(LAUNCH_TOKENS - 4, 63)}\n`, LAUNCH_TOKENS],
    ['launch: 16,380 one-letter words (32 KiB, 16,384 tokens)', `${head}${' a'.repeat(LAUNCH_TOKENS - 4)}\n`, LAUNCH_TOKENS],
    ['launch: 5,400 assignments of 190 bytes (1 MiB, 16,204 tokens)', `${Array.from({ length: 5400 }, (_, i) => assignment(i)).join('\n')}\n${head} --port 8000\n`, 5400 * 3 + 4],
    ['launch: a comment of 1 MiB of letters', `# ${'x'.repeat(LAUNCH_BYTES - 64)}\n${head} --port 8000\n`, 5],
    ['launch: 600 KB of one-letter words (over the token cap: refused)', `${head}${' a'.repeat(300_000)}\n`, 300_003],
  ];
}

/** The snapshots: [label, document] on the demo A2 host. */
function snapshotInputs() {
  const demo = JSON.parse(readFileSync(DEMO, 'utf8'));
  const base = JSON.stringify(demo).length;
  const fill = (bytes, one) => Math.floor((bytes - base) / (JSON.stringify(one(0)).length + 1));
  const entry = (i) => ({ name: String(100_000 + i), kind: 'directory' });
  const nic = (i) => ({ name: `veth${i.toString(16).padStart(8, '0')}`, mac: '02:42:ac:11:00:02', ipv4: null, mtu: 1500, speedMbps: 10000, duplex: 'full', state: 'up', virtual: true });
  const file = (i) => [`/proc/qprep-bench/${i}`, { ok: true, value: 'y'.repeat(1024) }];
  const fileBytes = JSON.stringify(Object.fromEntries([file(100_000)])).length;
  const under = SNAPSHOT_BYTES - 64 * 1024;
  return [
    ['snapshot: demo a2-healthy (the baseline)', demo],
    ['snapshot: directory entries (32 MiB)', { ...demo, dirs: { ...demo.dirs, '/proc/qprep-bench': { ok: true, value: Array.from({ length: fill(under, entry) }, (_, i) => entry(i)) } } }],
    ['snapshot: NICs (32 MiB)', { ...demo, inventory: { ...demo.inventory, nics: Array.from({ length: fill(under, nic) }, (_, i) => nic(i)) } }],
    ['snapshot: file contents (32 MiB)', { ...demo, files: { ...demo.files, ...Object.fromEntries(Array.from({ length: Math.floor((under - base) / fileBytes) }, (_, i) => file(100_000 + i))) } }],
    ['snapshot: NICs (39 MB, over the cap: refused)', { ...demo, inventory: { ...demo.inventory, nics: Array.from({ length: fill(39_000_000, nic) }, (_, i) => nic(i)) } }],
  ];
}

/** The largest heap size before a collection (--trace-gc lines: "Mark-Compact 180.1 (190.0) -> ..."), in MiB. */
function peakHeapMiB(stdout, atExitBytes) {
  let peak = atExitBytes / MIB;
  for (const match of stdout.matchAll(/: (?:Scavenge|Mark-Compact|Mark-sweep)[^\n]*?([\d.]+) \([\d.]+\) ->/g)) peak = Math.max(peak, Number(match[1]));
  return peak;
}

async function measure(argv, env, runs) {
  const heap = [];
  const rss = [];
  const exitCodes = new Set();
  const dir = mkdtempSync(join(tmpdir(), 'qprep-bench-heap-'));
  const atExit = join(dir, 'heap');
  try {
    for (let run = 0; run < runs; run++) {
      // the heap in use at exit too: a run may end above the last collection's figure
      const result = await timed([process.execPath, '--trace-gc', '--import', HEAP_PROBE, ...argv], { env: { ...env, QPREP_BENCH_HEAP_FILE: atExit }, rss: true });
      exitCodes.add(result.exitCode);
      heap.push(peakHeapMiB(result.stdout, Number(readFileSync(atExit, 'utf8'))));
      rss.push(result.maxRssKiB / 1024);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  return { heap: stats(heap), rss: stats(rss), exitCodes: [...exitCodes] };
}

export default {
  name: 'input-memory',
  title: "peak memory of reading a launch script and a snapshot at their caps, under the install recipes' NODE_OPTIONS",
  target: `within the caps a verdict (exit 0 or 1), over them exit 2, never an abort; peak heap at most ${PEAK_HEAP_TARGET_MIB} MiB of the recipes' 192 MiB`,
  defaultRuns: 3,
  async run({ runs }) {
    const bin = join(REPO, 'bin', 'qprep.js');
    const env = { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: process.env.HOME ?? '/root', NODE_OPTIONS: recipeNodeOptions() };
    const dir = mkdtempSync(join(tmpdir(), 'qprep-bench-inputs-'));
    const rows = [];
    const verdicts = [];
    const lines = [];
    try {
      const cases = [];
      for (const [label, text, tokens] of launchInputs()) {
        const path = join(dir, `launch-${cases.length}.sh`);
        writeFileSync(path, text);
        cases.push({ label, kind: 'launch', path, tokens, argv: [bin, 'check', '--snapshot', DEMO, '--launch', path, '--only', 'launch,model', '--format', 'json'] });
      }
      for (const [label, document] of snapshotInputs()) {
        const path = join(dir, `snapshot-${cases.length}.json`);
        writeFileSync(path, JSON.stringify(document));
        cases.push({ label, kind: 'snapshot', path, argv: [bin, 'check', '--snapshot', path, '--format', 'json'] });
      }
      const baseline = {};
      for (const item of cases) {
        const bytes = statSync(item.path).size;
        const { heap, rss, exitCodes } = await measure(item.argv, env, runs);
        rows.push({ label: `${item.label}, ${(bytes / MIB).toFixed(2)} MiB`, unit: 'MiB heap', ...heap, maxRssMiB: rss });
        baseline[item.kind] ??= heap.median;
        const over = item.label.includes('refused');
        const ok = over ? exitCodes.every((code) => code === 2) : exitCodes.every((code) => code === 0 || code === 1) && heap.max <= PEAK_HEAP_TARGET_MIB;
        if (item.label.includes('baseline')) continue;
        verdicts.push({ what: item.label, ok, detail: `exit ${exitCodes.join('/')}, peak heap ${heap.median.toFixed(1)} MiB median (${heap.max.toFixed(1)} max), peak RSS ${rss.median.toFixed(1)} MiB` });
        const grown = (heap.median - baseline[item.kind]) * MIB;
        // the scripts whose tokens, not bytes, are the cap
        const perToken = item.tokens >= LAUNCH_TOKENS / 2 && !over ? `, ${(grown / item.tokens).toFixed(0)} B per token` : '';
        lines.push(`  ${item.label}: ${(grown / bytes).toFixed(1)} B of heap per input byte over the baseline${perToken}`);
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
    return { rows, verdicts, lines };
  },
};
