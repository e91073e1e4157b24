// `qprep aggregate` of 1,000 node reports (target: under 2 s). The reports are what
// `qprep check --format json --cluster` prints for the simulated 16-die A3 node of a 4-node
// cluster (bench/lib/sim-node.mjs, every latency 0: about 70 KiB, hccn.peers with its 48 pings)
// and, for 1 node in 50, for the broken demo A2 host, cloned into 1,000 distinct nodes
// (hostname, host address, NPU device and vNIC addresses, run id, start time).
import { existsSync, mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { interleaved, REPO, stats, timed } from '../lib/harness.mjs';
import { makeSimNode } from '../lib/sim-node.mjs';

const NODES = 1000;
const TARGET_MS = 2000;

async function report(argv, env) {
  const run = await timed(argv, env ? { env } : {});
  if (run.exitCode !== 0 && run.exitCode !== 1) throw new Error(`${argv.slice(2).join(' ')} exited ${run.exitCode}: ${run.stderr}`);
  return JSON.parse(run.stdout);
}

/**
 * The report of a ready 16-NPU node in a cluster: the simulated A3 node, answering at once. Its
 * tree has no /dev/davinci* character devices (they take mknod and root) and its tools are on
 * PATH, not at the driver's paths: those two checks are ignored (reported as waived warnings).
 */
function simulatedA3Report(bin, dir) {
  const node = makeSimNode({ dir, family: 'a3', nodes: 4, latency: { npuSmiMs: 0, hccnToolMs: 0, pingMs: 0 } });
  return report([...bin, 'check', '--format', 'json', '--root', node.root, '--cluster', node.cluster, '--node', node.name, '--ignore', 'npu.devices,npu.driver-files'], node.env);
}

function cloneNode(template, index, now) {
  const report = structuredClone(template);
  const name = `node${String(index + 1).padStart(4, '0')}`;
  const hostAddress = `10.${20 + Math.floor(index / 250)}.${index % 250}.11`;
  report.runId = `bench-${index}`;
  report.startedAt = new Date(now - (index % 600) * 1000).toISOString();
  report.host.hostname = name;
  const npus = report.facts?.npus ?? [];
  const devices = npus.map((npu) => ({
    device: npu.device,
    ip: `198.${18 + (index >= 500 ? 1 : 0)}.${Math.floor((index % 500) / 2)}.${(index % 2) * 100 + npu.device + 10}`,
    netmask: '255.255.255.0',
    vnicIp: `192.168.${Math.floor(index / 16)}.${(index % 16) * 16 + npu.device}`,
    tls: false,
  }));
  if (report.facts) {
    report.facts.hostname = name;
    report.facts.hostAddresses = [hostAddress];
    report.facts.devices = devices;
    report.facts.superPod = Math.floor(index / 48);
  }
  // a report names its own node in the cluster; the clones are nodes of one cluster of 1,000
  if (report.cluster) report.cluster.self = name;
  return report;
}

export default {
  name: 'aggregate',
  title: `\`qprep aggregate\` of ${NODES} node reports (16-NPU A3 cluster reports; 1 in 50 not ready)`,
  target: `${NODES} reports in under ${TARGET_MS} ms (median, whole process)`,
  defaultRuns: 7,
  async run({ runs }) {
    const bin = [process.execPath, join(REPO, 'bin', 'qprep.js')];
    const bundle = join(REPO, 'dist', 'qprep.mjs');
    const work = mkdtempSync(join(tmpdir(), 'qprep-bench-aggregate-'));
    try {
      const [healthy, broken] = await Promise.all([
        simulatedA3Report(bin, join(work, 'a3')),
        report([...bin, 'check', '--snapshot', join(REPO, 'examples', 'snapshots', 'a2-broken.json'), '--profile', 'qwen3.5-397b-w8a8-a2', '--format', 'json']),
      ]);
      const reportsDir = join(work, 'reports');
      mkdirSync(reportsDir);
      const now = Date.now();
      const reports = [];
      for (let i = 0; i < NODES; i++) {
        const report = cloneNode(i % 50 === 49 ? broken : healthy, i, now);
        reports.push(report);
        writeFileSync(join(reportsDir, `node${String(i + 1).padStart(4, '0')}.json`), `${JSON.stringify(report, null, 2)}\n`);
      }
      const cluster = join(work, 'cluster.json');
      writeFileSync(cluster, JSON.stringify(reports.map((r) => r.facts)));
      const stream = join(work, 'reports.ndjson');
      writeFileSync(stream, `${reports.map((r) => JSON.stringify(r)).join('\n')}\n`);
      const bytes = reports.reduce((sum, _r, i) => sum + statSync(join(reportsDir, `node${String(i + 1).padStart(4, '0')}.json`)).size, 0);

      const args = ['aggregate', reportsDir, '--format', 'json', '--max-age', '1h'];
      const commands = [
        { label: `${NODES} files in a directory`, argv: [...bin, ...args] },
        { label: `the same with --cluster (${NODES} facts)`, argv: [...bin, ...args, '--cluster', cluster] },
        { label: `${NODES} documents on stdin (NDJSON, < file)`, argv: [...bin, 'aggregate', '-', '--format', 'json'], options: { stdinFile: stream } },
      ];
      if (existsSync(bundle)) commands.push({ label: `${NODES} files, single file (dist/qprep.mjs)`, argv: [process.execPath, bundle, ...args] });
      const samples = await interleaved(commands, { runs, warmup: 1, rss: true });
      const rows = [];
      for (const [i, sample] of samples.entries()) {
        const unexpected = [...sample.exitCodes].filter((code) => code !== 1);
        if (unexpected.length > 0) throw new Error(`${commands[i].label}: exit code ${unexpected.join(', ')} (expected 1: 20 nodes are not ready): ${sample.last.stderr}`);
        const document = JSON.parse(sample.last.stdout);
        if (document.summary.nodes !== NODES || document.summary.notReady !== NODES / 50) throw new Error(`${commands[i].label}: ${document.summary.nodes} nodes, ${document.summary.notReady} not ready`);
        rows.push({ label: commands[i].label, unit: 'ms', ...stats(sample.ms), cpuMs: stats(sample.cpu).median, maxRssMiB: { median: stats(sample.rss).median / 1024, max: stats(sample.rss).max / 1024 } });
      }
      const verdicts = rows.map((row) => ({
        what: row.label,
        ok: row.median < TARGET_MS,
        detail: `median ${row.median.toFixed(0)} ms (p90 ${row.p90.toFixed(0)} ms, fastest ${row.min.toFixed(0)} ms; CPU ${row.cpuMs.toFixed(0)} ms) for ${NODES} reports of ${(bytes / NODES / 1024).toFixed(0)} KiB (${(bytes / 2 ** 20).toFixed(1)} MiB of JSON); target under ${TARGET_MS} ms`,
      }));
      return { rows, verdicts };
    } finally {
      rmSync(work, { recursive: true, force: true });
    }
  },
};
