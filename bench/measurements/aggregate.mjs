// `qprep aggregate` of 1,000 node reports (DESIGN §7: under 2 s). The reports are what
// `qprep check --format json` prints for the demo A3 and broken A2 hosts, cloned into 1,000
// distinct nodes (hostname, host address, NPU device and vNIC addresses, TLS switch, run id,
// start time) and padded with per-device HCCN results of the size a 16-NPU node reports.
import { existsSync, mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { interleaved, REPO, stats, timed } from '../lib/harness.mjs';

const NODES = 1000;
const TARGET_MS = 2000;

async function demoReport(bin, snapshot, profile) {
  const run = await timed([...bin, 'check', '--snapshot', join(REPO, 'examples', 'snapshots', snapshot), '--profile', profile, '--format', 'json']);
  if (run.exitCode !== 0 && run.exitCode !== 1) throw new Error(`qprep check --snapshot ${snapshot} exited ${run.exitCode}: ${run.stderr}`);
  return JSON.parse(run.stdout);
}

/** The HCCN results of a 16-NPU node: one per check, a line of evidence per device. */
function hccnResults(devices) {
  const names = ['hccn.conf', 'hccn.ip', 'hccn.link', 'hccn.net-health', 'hccn.netdetect', 'hccn.gateway', 'hccn.lldp', 'hccn.tls', 'hccn.peers'];
  return names.map((id) => ({
    id,
    title: id,
    category: 'hccn',
    level: 'required',
    status: 'pass',
    message: `${devices.length} of ${devices.length} NPU devices pass ${id}`,
    evidence: { devices: devices.map((d) => ({ device: d.device, ip: d.ip, state: 'UP' })) },
    durationMs: 140,
  }));
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
  const hccn = hccnResults(devices);
  report.checks.push(...hccn);
  report.summary.pass += hccn.length;
  return report;
}

export default {
  name: 'aggregate',
  title: `\`qprep aggregate\` of ${NODES} node reports (16-NPU A3 reports with HCCN results; 1 in 50 not ready)`,
  target: `DESIGN §7: ${NODES} reports in under ${TARGET_MS} ms (median, whole process)`,
  defaultRuns: 7,
  async run({ runs }) {
    const bin = [process.execPath, join(REPO, 'bin', 'qprep.js')];
    const bundle = join(REPO, 'dist', 'qprep.mjs');
    const [healthy, broken] = await Promise.all([demoReport(bin, 'a3-healthy.json', 'qwen3.5-397b-w8a8-a3'), demoReport(bin, 'a2-broken.json', 'qwen3.5-397b-w8a8-a2')]);
    const work = mkdtempSync(join(tmpdir(), 'qprep-bench-aggregate-'));
    try {
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
      const stream = `${reports.map((r) => JSON.stringify(r)).join('\n')}\n`;
      const bytes = reports.reduce((sum, _r, i) => sum + statSync(join(reportsDir, `node${String(i + 1).padStart(4, '0')}.json`)).size, 0);

      const args = ['aggregate', reportsDir, '--format', 'json', '--max-age', '1h'];
      const commands = [
        { label: `${NODES} files in a directory`, argv: [...bin, ...args] },
        { label: `the same with --cluster (${NODES} facts)`, argv: [...bin, ...args, '--cluster', cluster] },
        { label: `${NODES} documents on stdin (NDJSON)`, argv: [...bin, 'aggregate', '-', '--format', 'json'], options: { input: stream } },
      ];
      if (existsSync(bundle)) commands.push({ label: `${NODES} files, single file (dist/qprep.mjs)`, argv: [process.execPath, bundle, ...args] });
      const samples = await interleaved(commands, { runs, warmup: 1, rss: true });
      const rows = [];
      for (const [i, sample] of samples.entries()) {
        const unexpected = [...sample.exitCodes].filter((code) => code !== 1);
        if (unexpected.length > 0) throw new Error(`${commands[i].label}: exit code ${unexpected.join(', ')} (expected 1: 20 nodes are not ready): ${sample.last.stderr}`);
        const document = JSON.parse(sample.last.stdout);
        if (document.summary.nodes !== NODES || document.summary.notReady !== NODES / 50) throw new Error(`${commands[i].label}: ${document.summary.nodes} nodes, ${document.summary.notReady} not ready`);
        rows.push({ label: commands[i].label, unit: 'ms', ...stats(sample.ms), maxRssMiB: { median: stats(sample.rss).median / 1024, max: stats(sample.rss).max / 1024 } });
      }
      const verdicts = rows.map((row) => ({
        what: row.label,
        ok: row.median < TARGET_MS,
        detail: `median ${row.median.toFixed(0)} ms (p90 ${row.p90.toFixed(0)} ms, fastest ${row.min.toFixed(0)} ms) for ${NODES} reports of ${(bytes / NODES / 1024).toFixed(0)} KiB (${(bytes / 2 ** 20).toFixed(1)} MiB of JSON); target under ${TARGET_MS} ms`,
      }));
      return { rows, verdicts };
    } finally {
      rmSync(work, { recursive: true, force: true });
    }
  },
};
