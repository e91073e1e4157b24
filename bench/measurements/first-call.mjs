// The first tool call of `qprep check` after exec: how long npu-smi and hccn_tool wait for qprep
// to start. The single file's head starts `npu-smi info` and hccn_tool's first -ip -g before the
// rest of qprep is compiled (src/main.ts). Measured on the simulated A3 node (bench/lib/sim-node.mjs)
// from the fake tools' log: the start of the first call (as the fake's first line sees it, its
// bash start included) less the moment the bench spawned qprep. Interleaved with the same for the
// bare Node loop (bench/lib/node-loop.mjs: node's start, one module, a spawn), the floor of any
// Node program, and a bare `node -e 0`. The tools answer at once: the first call's moment does
// not depend on their latency, and a run is short.
// Run on its own with `node bench/run.mjs --only first-call` (after npm run build); --runs N.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { REPO, stats, timed } from '../lib/harness.mjs';
import { makeSimNode, readCalls } from '../lib/sim-node.mjs';

const TARGET_MS = 100;

/** The first call's start (ms from `startedAt`, epoch ms) among the logged calls; NaN without one. */
function firstCallMs(log, startedAt, tool) {
  const starts = readCalls(log)
    .filter((c) => c.outcome === 'ok' && (tool === undefined || c.tool === tool))
    .map((c) => c.startMs);
  return starts.length > 0 ? Math.min(...starts) - startedAt : NaN;
}

export default {
  name: 'first-call',
  title: 'the first tool call of `qprep check` after exec, on the simulated A3 node, against the bare Node loop\'s',
  target: `the first call (npu-smi or hccn_tool) within ${TARGET_MS} ms of exec (median)`,
  defaultRuns: 10,
  async run({ runs }) {
    const work = mkdtempSync(join(tmpdir(), 'qprep-bench-first-'));
    try {
      const node = makeSimNode({ dir: join(work, 'a3'), family: 'a3', nodes: 4, latency: { npuSmiMs: 0, hccnToolMs: 0, pingMs: 0 } });
      const loopScript = join(work, 'one-call.sh');
      writeFileSync(loopScript, 'npu-smi info >/dev/null\n');
      const commands = [
        { label: 'qprep check --cluster', argv: [process.execPath, join(REPO, 'bin', 'qprep.js'), 'check', '--format', 'json', '--root', node.root, '--cluster', node.cluster, '--node', node.name], calls: true },
        { label: 'qprep check, the single file', argv: [process.execPath, join(REPO, 'dist', 'qprep.mjs'), 'check', '--format', 'json', '--root', node.root, '--cluster', node.cluster, '--node', node.name], calls: true },
        { label: 'bare Node loop (one npu-smi info)', argv: [process.execPath, join(REPO, 'bench/lib/node-loop.mjs'), loopScript], calls: true },
        { label: 'node -e 0 (its whole run)', argv: [process.execPath, '-e', '0'], calls: false },
      ];
      const samples = commands.map(() => ({ first: [], npuSmi: [], hccn: [], wall: [] }));
      for (let round = 0; round < runs + 1; round++) {
        for (const [i, command] of commands.entries()) {
          rmSync(node.log, { force: true });
          const startedAt = Date.now();
          const run = await timed(command.argv, { env: node.env });
          if (command.calls && run.exitCode !== 0 && run.exitCode !== 1) throw new Error(`${command.label} exited ${run.exitCode}: ${run.stderr.slice(0, 400)}`);
          // the first round warms the page cache
          if (round === 0) continue;
          samples[i].wall.push(run.ms);
          if (!command.calls) continue;
          samples[i].first.push(firstCallMs(node.log, startedAt));
          samples[i].npuSmi.push(firstCallMs(node.log, startedAt, 'npu-smi'));
          samples[i].hccn.push(firstCallMs(node.log, startedAt, 'hccn_tool'));
        }
      }
      const rows = [];
      for (const [i, command] of commands.entries()) {
        const s = samples[i];
        if (command.calls) rows.push({ label: `${command.label}: first tool call after exec`, unit: 'ms', ...stats(s.first) });
        else rows.push({ label: command.label, unit: 'ms', ...stats(s.wall) });
      }
      const fixed = (values) => stats(values).median.toFixed(0);
      const verdicts = commands.slice(0, 2).map((command, i) => ({
        what: `${command.label}: the first tool call`,
        ok: stats(samples[i].first).median <= TARGET_MS,
        detail:
          `median ${fixed(samples[i].first)} ms after exec (npu-smi ${fixed(samples[i].npuSmi)} ms, hccn_tool ${fixed(samples[i].hccn)} ms; run by run ${samples[i].first.map((v) => v.toFixed(0)).join(', ')}); ` +
          `the bare Node loop's ${fixed(samples[2].first)} ms, node -e 0 ${fixed(samples[3].wall)} ms in all; target ${TARGET_MS} ms`,
      }));
      return { rows, verdicts };
    } finally {
      rmSync(work, { recursive: true, force: true });
    }
  },
};
