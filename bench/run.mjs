#!/usr/bin/env node
// `npm run bench`: measures qprep on this machine and prints the figures with the machine and
// the Node version. Not a test: nothing here fails the build; targets are reported PASS/FAIL.
// Usage: node bench/run.mjs [--only NAME[,NAME]] [--runs N] [--json FILE] [--long]
//          [--npu-smi-ms MS] [--hccn-ms MS] [--ping-ms MS] [--ping-cost-ms MS]
// --long: the measurements that have a long form take it (serve-footprint: an hour instead of 5 minutes).
// The latencies of the simulated tools (node-check, serve-footprint) are a real node's:
// npu-smi 400 ms, hccn_tool 100 ms a query, a -ping/-hccs_ping as its packets and interval make it
// (bench/lib/sim-node.mjs, PING_MODEL: 100 ms); QPREP_BENCH_NPU_SMI_MS, QPREP_BENCH_HCCN_MS and
// QPREP_BENCH_PING_MS set them too. --ping-cost-ms (default 2000, a real 3-packet ping) is the
// ping cost the cluster-scaling table turns pings per node into time per node with.
import { writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { machine } from './lib/harness.mjs';
import { DEFAULT_LATENCY, pingCallMs } from './lib/sim-node.mjs';
import { measurements } from './measurements/index.mjs';

const { values } = parseArgs({
  options: {
    only: { type: 'string' },
    runs: { type: 'string' },
    json: { type: 'string' },
    'npu-smi-ms': { type: 'string' },
    'hccn-ms': { type: 'string' },
    'ping-ms': { type: 'string' },
    'ping-cost-ms': { type: 'string' },
    long: { type: 'boolean', default: false },
  },
});

function milliseconds(flag, variable, fallback) {
  const text = values[flag] ?? process.env[variable];
  if (text === undefined) return fallback;
  if (!/^\d+$/.test(text)) {
    console.error(`--${flag} (${variable}) expects milliseconds, got "${text}"`);
    process.exit(2);
  }
  return Number(text);
}
const hccnToolMs = milliseconds('hccn-ms', 'QPREP_BENCH_HCCN_MS', DEFAULT_LATENCY.hccnToolMs);
const latency = {
  npuSmiMs: milliseconds('npu-smi-ms', 'QPREP_BENCH_NPU_SMI_MS', DEFAULT_LATENCY.npuSmiMs),
  hccnToolMs,
  // a ping: the query's own time and its packets' intervals, unless told
  pingMs: milliseconds('ping-ms', 'QPREP_BENCH_PING_MS', pingCallMs(hccnToolMs)),
};
const pingCostMs = milliseconds('ping-cost-ms', 'QPREP_BENCH_PING_COST_MS', 2000);
const only = values.only ? new Set(values.only.split(',')) : undefined;
const unknown = only ? [...only].filter((name) => !measurements.some((m) => m.name === name)) : [];
if (unknown.length > 0) {
  console.error(`unknown measurement ${unknown.join(', ')}; known: ${measurements.map((m) => m.name).join(', ')}`);
  process.exit(2);
}

const host = machine();
console.log(`qprep ${host.qprep} benchmark · node ${host.node} · ${host.os} · kernel ${host.kernel} · ${host.arch}`);
console.log(`machine: ${host.cpu}, ${host.cores} cores, ${host.memoryGiB} GiB memory (${host.freeMemoryGiB} GiB free)`);

const fixed = (value, digits = 0) => (typeof value === 'number' && Number.isFinite(value) ? value.toFixed(digits) : '-');
const signed = (value) => (value >= 0 ? `+${fixed(value)}` : fixed(value));

function printRows(rows) {
  const labelWidth = Math.max(...rows.map((r) => r.label.length), 7);
  const extra = (row) => {
    const parts = [];
    if (row.overBaselineMedian !== undefined) parts.push(`${signed(row.overBaselineMedian)} ms median, ${signed(row.overBaselineP90)} ms p90, ${signed(row.overBaselineMin)} ms min over node -e 0`);
    if (row.engineMs !== undefined) parts.push(`engine ${fixed(row.engineMs)} ms, ${row.checks} checks`);
    if (row.cpuMs !== undefined) parts.push(`CPU ${fixed(row.cpuMs)} ms median`);
    if (row.maxRssMiB !== undefined) parts.push(`max RSS ${fixed(row.maxRssMiB.median, 1)} MiB median, ${fixed(row.maxRssMiB.max, 1)} MiB max`);
    return parts.join('; ');
  };
  console.log(`  ${'command'.padEnd(labelWidth)}  runs  median     p90     min     max`);
  for (const row of rows) {
    const cells = [row.median, row.p90, row.min, row.max].map((v) => fixed(v).padStart(5)).join('   ');
    console.log(`  ${row.label.padEnd(labelWidth)}  ${String(row.n).padStart(4)}  ${cells}  ${row.unit}   ${extra(row)}`);
  }
}

const results = [];
let failed = 0;
for (const measurement of measurements) {
  if (only && !only.has(measurement.name)) continue;
  const runs = values.runs ? Number(values.runs) : measurement.defaultRuns;
  console.log(`\n${measurement.name}: ${measurement.title}`);
  console.log(`  target: ${measurement.target}`);
  const started = Date.now();
  const { rows, verdicts, lines = [] } = await measurement.run({ runs, version: host.qprep, latency, pingCostMs, long: values.long });
  if (rows.length > 0) printRows(rows);
  // a table of its own (cluster-scaling): printed as the measurement formatted it
  for (const line of lines) console.log(line);
  for (const verdict of verdicts) {
    // info lines state a figure that has no target (peak memory)
    if (!verdict.info && !verdict.ok) failed++;
    console.log(`  ${verdict.info ? 'INFO' : verdict.ok ? 'PASS' : 'FAIL'}  ${verdict.what}: ${verdict.detail}`);
  }
  console.log(`  (${((Date.now() - started) / 1000).toFixed(1)} s)`);
  results.push({ name: measurement.name, target: measurement.target, runs, rows, verdicts, ...(lines.length > 0 ? { lines } : {}) });
}

if (values.json) {
  writeFileSync(values.json, `${JSON.stringify({ machine: host, date: new Date().toISOString(), latency, pingCostMs, results }, null, 2)}\n`);
  console.log(`\nwrote ${values.json}`);
}
console.log(`\n${failed === 0 ? 'all targets met' : `${failed} target(s) missed`}`);
