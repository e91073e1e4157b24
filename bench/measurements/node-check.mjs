// A full `qprep check --cluster` on the simulated 16-die A3 node and 8-NPU A2 node (bench/lib/sim-node.mjs),
// each one node of a 4-node cluster, against
//   - the documented manual verification (the vllm-ascend loops, reference §5) run by bash against
//     the same simulated tools: the ratio;
//   - the serialized hccn_tool time: the hccn_tool calls qprep made (from the fake's log), run
//     again one after the other by a bash loop. That is the number of calls times what a call
//     costs its caller (process start included), the wall time no schedule can beat, since the
//     tool runs one call at a time. The target: the check may cost at most 1.2 x that + 0.5 s. The
//     durations the fake logs itself are shown too: they leave out its own start (a bash start).
// Each round runs the commands back to back, so that a slow moment of a shared machine hits
// each alike; the ratios are taken round by round.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { REPO, stats, timed } from '../lib/harness.mjs';
import { DEFAULT_LATENCY, makeSimNode, maxOverlap, readCalls } from '../lib/sim-node.mjs';

const RATIO = 1.2;
const SLACK_MS = 500;

const sum = (values) => values.reduce((a, b) => a + b, 0);
const s2 = (ms) => `${(ms / 1000).toFixed(2)} s`;

/** What one run did to the simulated tools, from their log. */
function summarizeCalls(node) {
  const calls = readCalls(node.log);
  const hccn = calls.filter((c) => c.tool === 'hccn_tool' && c.outcome === 'ok');
  const pings = hccn.filter((c) => c.args[2] === '-ping' || c.args[2] === '-hccs_ping');
  return {
    hccnCalls: hccn.length,
    pings: pings.length,
    npuSmiCalls: calls.filter((c) => c.tool === 'npu-smi' && c.outcome === 'ok').length,
    busy: calls.filter((c) => c.outcome === 'busy').length,
    unknown: calls.filter((c) => c.outcome === 'unknown').map((c) => `${c.tool} ${c.args.join(' ')}`),
    overlap: maxOverlap(hccn, 'hccn_tool'),
    /** each call as long as the fake took, its own start left out */
    inToolMs: sum(hccn.map((c) => c.ms)),
    /** the calls, to run again from a shell loop */
    argvs: hccn.map((c) => c.args),
    /** the same with the configured latencies only */
    nominalMs: pings.length * node.latency.pingMs + (hccn.length - pings.length) * node.latency.hccnToolMs,
  };
}

export default {
  name: 'node-check',
  title: 'a full `qprep check --cluster` of a simulated A3 (16 dies) and A2 (8 NPUs) node, one of 4 nodes, vs the manual procedure and the serialized hccn_tool time',
  target: `at most ${RATIO} x the serialized hccn_tool time + ${SLACK_MS / 1000} s; the ratio to the documented manual loops is reported (no target: see below)`,
  defaultRuns: 5,
  async run({ runs, latency = DEFAULT_LATENCY }) {
    const work = mkdtempSync(join(tmpdir(), 'qprep-bench-node-'));
    const bin = join(REPO, 'bin', 'qprep.js');
    try {
      console.log(`  simulated tools: npu-smi ${latency.npuSmiMs} ms, hccn_tool ${latency.hccnToolMs} ms, -ping/-hccs_ping ${latency.pingMs} ms a call; hccn_tool busy when called concurrently`);
      const families = ['a3', 'a2'].map((family) => {
        const node = makeSimNode({ dir: join(work, family), family, nodes: 4, latency });
        const argv = [process.execPath, bin, 'check', '--format', 'json', '--root', node.root, '--cluster', node.cluster, '--node', node.name];
        return { family, node, argv, qprep: [], manual: [], serial: [], inTool: [], nominal: [], toManual: [], toSerial: [], toInTool: [], rss: [], cpu: [], last: undefined };
      });
      // no warm-up round: the simulated nodes and the build were just written, so the files are in the page cache
      for (let round = 0; round < runs; round++) {
        for (const f of families) {
          rmSync(f.node.log, { force: true });
          const check = await timed(f.argv, { env: f.node.env, rss: true });
          if (check.exitCode !== 0 && check.exitCode !== 1) throw new Error(`qprep check on ${f.node.name} exited ${check.exitCode}: ${check.stderr.slice(0, 400)}`);
          const calls = summarizeCalls(f.node);

          const replay = join(f.node.dir, 'serial.sh');
          writeFileSync(replay, `${calls.argvs.map((args) => `hccn_tool ${args.join(' ')} >/dev/null`).join('\n')}\n`);
          rmSync(f.node.log, { force: true });
          const serial = await timed(['/bin/bash', replay], { env: f.node.env });
          const replayed = summarizeCalls(f.node);
          if (serial.exitCode !== 0 || replayed.hccnCalls !== calls.hccnCalls) throw new Error(`the shell loop of qprep's hccn_tool calls failed on ${f.node.name}: ${serial.stderr.slice(0, 400)}`);

          rmSync(f.node.log, { force: true });
          const manual = await timed(['/bin/bash', f.node.manual], { env: f.node.env });
          if (manual.exitCode !== 0) throw new Error(`the manual procedure on ${f.node.name} exited ${manual.exitCode}: ${manual.stderr.slice(0, 400)}`);
          const manualCalls = summarizeCalls(f.node);

          f.qprep.push(check.ms);
          f.serial.push(serial.ms);
          f.manual.push(manual.ms);
          f.inTool.push(calls.inToolMs);
          f.nominal.push(calls.nominalMs);
          f.toManual.push(check.ms / manual.ms);
          f.toSerial.push(check.ms / serial.ms);
          f.toInTool.push(check.ms / calls.inToolMs);
          if (check.maxRssKiB !== undefined) f.rss.push(check.maxRssKiB);
          if (check.cpuMs !== undefined) f.cpu.push(check.cpuMs);
          f.last = { report: JSON.parse(check.stdout), calls, manualCalls };
        }
      }

      const rows = [];
      const verdicts = [];
      for (const f of families) {
        const { report, calls, manualCalls } = f.last;
        const label = f.family.toUpperCase();
        const notPassing = report.checks.filter((c) => c.category === 'hccn' && c.status !== 'pass' && !(c.status === 'skip' && ((c.id === 'hccn.spod' && f.family === 'a2') || (c.id === 'hccn.fec' && f.family === 'a3')))).map((c) => `${c.id} ${c.status}: ${c.message}`);
        if (notPassing.length > 0) throw new Error(`every HCCN check should pass on the simulated ${label} node: ${notPassing.join('; ')}`);
        const unknown = [...calls.unknown, ...manualCalls.unknown];
        if (unknown.length > 0) throw new Error(`the simulated tools have no answer for: ${unknown.slice(0, 5).join('; ')}`);
        const q = stats(f.qprep);
        const m = stats(f.manual);
        const serial = stats(f.serial);
        const inTool = stats(f.inTool);
        const nominal = stats(f.nominal);
        const budget = RATIO * serial.median + SLACK_MS;
        const peers = report.checks.find((c) => c.id === 'hccn.peers');
        const list = (values) => values.map((r) => r.toFixed(2)).join(', ');
        rows.push(
          {
            label: `${label}: qprep check --cluster (${report.checks.length} checks; ${calls.hccnCalls} hccn_tool calls, ${calls.pings} of them pings; ${calls.npuSmiCalls} npu-smi)`,
            unit: 'ms',
            ...q,
            cpuMs: stats(f.cpu).median,
            maxRssMiB: { median: stats(f.rss).median / 1024, max: stats(f.rss).max / 1024 },
          },
          { label: `${label}: manual procedure, bash (${manualCalls.hccnCalls} hccn_tool calls, ${manualCalls.pings} of them pings; ${manualCalls.npuSmiCalls} npu-smi)`, unit: 'ms', ...m },
          { label: `${label}: serialized hccn_tool time: qprep's ${calls.hccnCalls} calls one after another (bash loop)`, unit: 'ms', ...serial },
          { label: `${label}:   the same calls inside the fake (its own log, its start left out)`, unit: 'ms', ...inTool },
          { label: `${label}:   the same calls at the configured latencies alone`, unit: 'ms', ...nominal },
        );
        // No target is set against the manual loops, and none could hold everywhere: where
        // the loops make exactly the hccn_tool calls qprep makes (A2), they are the serialized lower
        // bound itself, so qprep can only approach them, by its start-up and per-spawn cost.
        const callSet = (summary) => summary.argvs.map((args) => args.join(' ')).sort().join('\n');
        const sameCalls = callSet(manualCalls) === callSet(calls);
        verdicts.push({
          what: `${label}: qprep check vs the manual procedure`,
          info: true,
          detail:
            `median ratio ${stats(f.toManual).median.toFixed(3)} (qprep ${s2(q.median)}, manual ${s2(m.median)}; run by run ${list(f.toManual)})` +
            (sameCalls ? '; the loops make the same hccn_tool calls as qprep, so they are the lower bound here' : ''),
        });
        verdicts.push({
          what: `${label}: qprep check vs the serialized hccn_tool time`,
          ok: q.median <= budget,
          detail:
            `median ${s2(q.median)} = ${(q.median / serial.median).toFixed(3)} x ${s2(serial.median)} (run by run ${list(f.toSerial)}); ` +
            `budget ${RATIO} x + ${SLACK_MS / 1000} s = ${s2(budget)}, ${s2(budget - q.median)} to spare. ` +
            `Against the fake's own durations: ${(q.median / inTool.median).toFixed(3)} x ${s2(inTool.median)} (run by run ${list(f.toInTool)}; ` +
            `budget ${s2(RATIO * inTool.median + SLACK_MS)}); against the configured latencies: ${(q.median / nominal.median).toFixed(3)} x ${s2(nominal.median)}`,
        });
        verdicts.push({
          what: `${label}: hccn_tool one call at a time`,
          ok: calls.overlap <= 1 && calls.busy === 0,
          detail: `at most ${calls.overlap} call(s) at once, ${calls.busy} busy answer(s); ${peers.message}`,
        });
        verdicts.push({ what: `${label}: peak RSS of the check`, info: true, detail: `${(stats(f.rss).median / 1024).toFixed(1)} MiB median, ${(stats(f.rss).max / 1024).toFixed(1)} MiB max (the node process, by getrusage)` });
      }
      return { rows, verdicts };
    } finally {
      rmSync(work, { recursive: true, force: true });
    }
  },
};
