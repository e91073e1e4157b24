#!/usr/bin/env node
// Builds one simulated Ascend node of the benchmark (bench/lib/sim-node.mjs) in a directory, to
// try qprep or the manual procedure against it by hand:
//   node scripts/sim-node.mjs --family a3 --out /tmp/a3 [--nodes 4] [--npu-smi-ms 400] [--hccn-ms 100] [--ping-ms MS] [--exclusive-npu-smi]
//   PATH=/tmp/a3/bin:$PATH qprep check --root /tmp/a3/root --cluster /tmp/a3/cluster.yaml --node a3-node1
//   PATH=/tmp/a3/bin:$PATH bash /tmp/a3/manual.sh
// A ping takes what a query takes and its packets' intervals (PING_MODEL) unless --ping-ms says;
// --exclusive-npu-smi makes npu-smi answer "busy" to a call made while another runs.
// Prints the node (its paths and latencies) as JSON on stdout.
import { existsSync, readdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { DEFAULT_LATENCY, FAMILIES, makeSimNode, pingCallMs } from '../bench/lib/sim-node.mjs';

const { values } = parseArgs({
  options: {
    family: { type: 'string', default: 'a3' },
    out: { type: 'string' },
    nodes: { type: 'string', default: '4' },
    'npu-smi-ms': { type: 'string', default: String(DEFAULT_LATENCY.npuSmiMs) },
    'hccn-ms': { type: 'string', default: String(DEFAULT_LATENCY.hccnToolMs) },
    'ping-ms': { type: 'string' },
    'exclusive-npu-smi': { type: 'boolean', default: false },
  },
});

function usage(message) {
  process.stderr.write(`sim-node: ${message}\nusage: node scripts/sim-node.mjs --family a3|a2 --out DIR [--nodes N] [--npu-smi-ms MS] [--hccn-ms MS] [--ping-ms MS] [--exclusive-npu-smi]\n`);
  process.exit(2);
}

function count(flag, min) {
  const text = values[flag];
  if (!/^\d+$/.test(text) || Number(text) < min) usage(`--${flag} expects a whole number of at least ${min}, got "${text}"`);
  return Number(text);
}

if (!FAMILIES[values.family]) usage(`--family is a3 or a2, got "${values.family}"`);
if (!values.out) usage('--out DIR is required');
const dir = resolve(values.out);
if (existsSync(dir) && readdirSync(dir).length > 0) usage(`${dir} is not empty`);
const node = makeSimNode({
  dir,
  family: values.family,
  nodes: count('nodes', 2),
  latency: { npuSmiMs: count('npu-smi-ms', 0), hccnToolMs: count('hccn-ms', 0), pingMs: values['ping-ms'] === undefined ? pingCallMs(count('hccn-ms', 0)) : count('ping-ms', 0) },
  exclusiveNpuSmi: values['exclusive-npu-smi'],
});
process.stdout.write(`${JSON.stringify(node, null, 2)}\n`);
