import { execa } from 'execa';
import { mkdtempSync, readFileSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { qprep, REPO, validateAgainstSchema } from '../helpers/cli.js';

/** The demo hosts of examples/snapshots, replayed with the profile they were recorded with. */
const DEMOS = {
  'a2-healthy': { profile: 'qwen3.5-397b-w8a8-a2', ready: true },
  'a2-node2': { profile: 'qwen3.5-397b-w8a8-a2', ready: false },
  'a3-healthy': { profile: 'qwen3.5-397b-w8a8-a3', ready: true },
  '300i-duo-healthy': { profile: 'qwen3.5-dense-300i-duo', ready: true },
  'a2-broken': { profile: 'qwen3.5-397b-w8a8-a2', ready: false },
  'a2-healthy-node3': { profile: 'qwen3.5-397b-w8a8-a2', ready: true },
  'a2-link-flap': { profile: 'qwen3.5-397b-w8a8-a2', ready: false },
  'a3-pd-prefill': { profile: 'qwen3.5-397b-pd-prefill-a3', ready: true },
  'a3-pd-decode0': { profile: 'qwen3.5-397b-pd-decode-a3', ready: true },
  'a3-pd-decode1': { profile: 'qwen3.5-397b-pd-decode-a3', ready: true },
  'a2-w8a8-node0': { profile: 'qwen3.5-397b-w8a8-a2', ready: true },
  '300i-duo-4b': { profile: 'qwen3.5-dense-300i-duo', ready: true },
  '300i-duo-9b': { profile: 'qwen3.5-dense-300i-duo', ready: true },
} as const;

const PAIR = 'examples/cluster/a2-pair.yaml';
/** Checks that do not apply to one node without a cluster file, or to an A2. */
const SINGLE_NODE_SKIPS = ['net.host-nic', 'net.peer-ports', 'hccn.spod', 'hccn.peers'];

async function replay(name: keyof typeof DEMOS, extra: string[] = []) {
  const run = await qprep(['check', '--snapshot', `examples/snapshots/${name}.json`, '--profile', DEMOS[name].profile, ...extra, '--format', 'json'], { env: { PATH: '/nonexistent' } });
  const report = JSON.parse(run.stdout);
  const { valid, errors } = await validateAgainstSchema('report', report);
  expect(valid, errors).toBe(true);
  const statuses: Record<string, string> = Object.fromEntries(report.checks.map((c: { id: string; status: string }) => [c.id, c.status]));
  return { run, report, statuses };
}

describe('qprep check --snapshot on the demo hosts', () => {
  it('the healthy A2 (in the vllm-ascend container) is ready: the guide\'s docker run leaves out /etc/hccn.conf, a warning; no launch script was recorded', async () => {
    const { run, report, statuses } = await replay('a2-healthy');
    expect(run.exitCode).toBe(0);
    expect(report.ready).toBe(true);
    const launch = report.checks.filter((c: { category: string }) => c.category === 'launch').map((c: { id: string }) => c.id);
    expect(launch.map((id: string) => statuses[id])).toEqual(Array(launch.length).fill('skip'));
    expect(Object.entries(statuses).filter(([id, s]) => s !== 'pass' && !SINGLE_NODE_SKIPS.includes(id) && !launch.includes(id))).toEqual([['hccn.conf', 'warn']]);
    // the profile deploys two nodes: without a cluster file the host NIC is a warning, not "fine on one node"
    expect(SINGLE_NODE_SKIPS.map((id) => statuses[id])).toEqual(['warn', 'skip', 'skip', 'skip']);
    expect(report.checks.find((c: { id: string }) => c.id === 'net.host-nic').message).toMatch(/^the deployment of profile qwen3\.5-397b-w8a8-a2 spans 2 nodes, but HCCL_IF_IP/);
    expect(report.facts.devices.map((d: { ip: string }) => d.ip)).toEqual([80, 81, 82, 83, 84, 85, 86, 87].map((n) => `11.12.165.${n}`));
    expect(report.host.inContainer).toBe(true);
    expect(report.facts).toMatchObject({ hostname: 'a2-node1', family: 'a2', versions: { npuSmi: '25.5.1', driver: '25.5.1', cann: '8.3.RC2' } });
  });

  it("the healthy A3 (bare host): 16 dies, CANN skipped because it lives in the image, and the guide's single-node script's real finding", async () => {
    const { run, report, statuses } = await replay('a3-healthy');
    expect(run.exitCode).toBe(0);
    expect(statuses['npu.cann']).toBe('skip');
    // host.model: the demo hosts have no DMI strings, so the server model is unknown (a skip)
    // hccn.fec: the A3's hccn_tool cannot query the FEC mode
    expect(statuses['hccn.fec']).toBe('skip');
    expect(Object.entries(statuses).filter(([id, s]) => !['npu.cann', 'net.host-nic', 'net.peer-ports', 'hccn.peers', 'host.model', 'hccn.fec'].includes(id) && s !== 'pass')).toEqual([
      ['launch.script', 'warn'],
      // no KV connector in the single-node script; the demo host recorded no cpuset to judge the CPU binding by
      ['launch.mooncake', 'skip'],
      ['launch.cpu-binding', 'skip'],
      // no vllm-ascend on the bare host: the release is unknown, prefix caching without align is named in launch.model-rules' pass
      ['model.supported', 'skip'],
      // 133,000 tokens x 128 requests: the cache holds 11.9 of them at the full length
      ['model.fit', 'warn'],
      ['python.triton-ascend', 'skip'],
    ]);
    expect(report.checks.find((c: { id: string }) => c.id === 'launch.model-rules').message).toMatch(/the launch breaks qwen35\.prefix-caching-align \(in force on v0\.18\.0rc1 to v0\.21\.0rc1\)$/);
    expect(report.launch).toMatchObject({ file: 'qwen3.5-397b-w8a8-a3-single-node.sh', from: 'snapshot', lines: 35, serve: { line: 18, form: 'vllm serve', model: 'Eco-Tech/Qwen3.5-397B-A17B-w8a8-mtp' } });
    expect(report.launch.serve.layout).toMatchObject({ role: null, tp: 16, dp: 1, dpLocal: 1, startRank: 0, port: 8000, maxNumSeqs: 128, kv: null });
    expect(report.facts.npus).toHaveLength(16);
    expect(report.facts.family).toBe('a3');
    expect(report.facts.superPod).toBe(0);
    expect(report.facts.devices[15]).toEqual({ device: 15, ip: '11.12.170.95', netmask: '255.255.255.0', vnicIp: '192.168.3.25', tls: false });
    expect(report.checks.find((c: { id: string }) => c.id === 'hccn.spod').message).toBe('all 16 dies report Super Pod ID 0, Server Index 40');
  });

  it('the healthy 300I Duo: 310P family without hccn_tool; the guide\'s 2B script fits, triton uninstalled', async () => {
    const { run, statuses, report } = await replay('300i-duo-healthy');
    expect(run.exitCode).toBe(0);
    // host.model skips a 310P profile: the cards go into general servers
    expect(Object.entries(statuses).filter(([id, s]) => s !== 'pass' && !id.startsWith('hccn.') && !SINGLE_NODE_SKIPS.includes(id))).toEqual([
      ['host.model', 'skip'],
      // the 310P keeps the model in DDR: no HBM to judge
      ['npu.ecc', 'skip'],
      // the 2B script has no KV connector; the demo host recorded no cpuset to judge the CPU binding by
      ['launch.mooncake', 'skip'],
      ['launch.cpu-binding', 'skip'],
    ]);
    // no NPU network on the 310P: every HCCN check skips, with the reason
    expect(Object.entries(statuses).filter(([id]) => id.startsWith('hccn.')).every(([, s]) => s === 'skip')).toBe(true);
    expect(report.checks.find((c: { id: string }) => c.id === 'npu.tools').message).toContain('no hccn_tool (not needed for family 310p)');
  });

  it('the broken A2: an NPU held by a process, a chip not OK, a driver mount missing; not ready, exit 1', async () => {
    const { run, report, statuses } = await replay('a2-broken');
    expect(run.exitCode).toBe(1);
    expect(report.ready).toBe(false);
    expect(report.blocking).toEqual(['npu.driver-files', 'npu.health', 'npu.ecc', 'npu.idle']);
    expect(statuses).toMatchObject({ 'npu.idle': 'fail', 'npu.health': 'fail', 'npu.ecc': 'fail', 'npu.driver-files': 'fail', 'npu.smi': 'warn' });
    const byId = Object.fromEntries(report.checks.map((c: { id: string }) => [c.id, c]));
    expect(byId['npu.idle'].message).toBe('1 of 8 NPU devices in use: NPU 0: pid 485946 pytest (5175 MB)');
    expect(byId['npu.health'].message).toBe('1 of 8 NPU devices the workload uses is not OK: NPU 5 Warning: 80E01801 RestartBusiness (Multi-bit ECC errors when accessing the HBM)');
    // the same NPU's HBM: uncorrectable errors, pages retired
    expect(byId['npu.ecc']).toMatchObject({ status: 'fail', action: 'isolate-npu' });
    expect(report.summary.worstAction).toBe('isolate-npu');
    expect(byId['npu.driver-files'].remediation).toBe('add -v /etc/ascend_install.info:/etc/ascend_install.info to docker run');
  });

  it('the A2 pair of the cluster example, from a2-node1: exactly the pair through a2-node2\'s dark port fails, exit 1', async () => {
    const { run, report, statuses } = await replay('a2-healthy', ['--cluster', PAIR]);
    expect(run.exitCode).toBe(1);
    expect(report.blocking).toEqual(['hccn.peers']);
    expect(report.cluster).toMatchObject({ self: 'a2-node1', matchedBy: 'address', evidence: '10.20.0.11 on enp189s0f0', nodes: ['a2-node1', 'a2-node2'] });
    const peers = report.checks.find((c: { id: string }) => c.id === 'hccn.peers');
    expect(peers.message).toBe('1 of 8 pings failed: a2-node1 dev3 -> a2-node2 dev3 (11.12.165.91): 100% loss');
    expect(peers.details).toEqual(['a2-node2: 7 of 8 ok; failing dev3 (100% loss)', 'a2-node1 dev3 -> a2-node2 dev3 (11.12.165.91): 100% loss']);
    expect(statuses).toMatchObject({ 'hccn.tls': 'pass', 'hccn.ip': 'pass', 'net.host-nic': 'pass', 'net.peer-ports': 'pass', 'hccn.gateway': 'pass' });
  });

  it('the A2 pair from a2-node2: its dev3 is DOWN (link, health fail), its pings from dev3 are not run; only a single-node profile lets it warn', async () => {
    // the w8a8 A2 profile is of a two-node deployment: a dead NPU port blocks even without --cluster
    const alone = await replay('a2-node2');
    expect(alone.run.exitCode).toBe(1);
    expect(alone.report.blocking).toEqual(['hccn.link', 'hccn.net-health']);
    const single = await qprep(['check', '--snapshot', 'examples/snapshots/a2-node2.json', '--profile', 'default', '--format', 'json'], { env: { PATH: '/nonexistent' } });
    expect(single.exitCode).toBe(0);
    const singleStatuses = Object.fromEntries(JSON.parse(single.stdout).checks.map((c: { id: string; status: string }) => [c.id, c.status]));
    expect(Object.entries(singleStatuses).filter(([, s]) => s === 'warn').map(([id]) => id)).toEqual(['hccn.link', 'hccn.net-health', 'hccn.lldp']);
    const { run, report } = await replay('a2-node2', ['--cluster', PAIR]);
    expect(run.exitCode).toBe(1);
    expect(report.blocking).toEqual(['hccn.link', 'hccn.net-health', 'hccn.peers']);
    const byId = Object.fromEntries(report.checks.map((c: { id: string }) => [c.id, c]));
    expect(byId['hccn.link'].message).toBe('1 of 8 NPU ports not UP: dev3 DOWN');
    expect(byId['hccn.peers'].message).toBe('1 of 8 pings not run (local dev3 link is DOWN (hccn.link))');
    expect(byId['hccn.conf'].message).toBe('/etc/hccn.conf has an address for all 8 devices, equal to the running ones, mounted from the host');
    const human = await qprep(['check', '--snapshot', 'examples/snapshots/a2-node2.json', '--profile', 'qwen3.5-397b-w8a8-a2', '--cluster', PAIR], { env: { PATH: '/nonexistent' } });
    expect(human.stdout).toContain('             · a2-node2 dev3 -> a2-node1 dev3 (11.12.165.83): skipped: local dev3 link is DOWN (hccn.link)\n');
  });

  it('the third healthy A2 is the first one under another hostname and addresses: a node of the same cluster', async () => {
    const [first, second] = await Promise.all([replay('a2-healthy'), replay('a2-healthy-node3')]);
    expect(second.run.exitCode).toBe(0);
    expect(second.statuses).toEqual(first.statuses);
    expect(second.report.facts).toMatchObject({ hostname: 'a2-node3', hostAddresses: ['10.20.0.13'] });
    expect(first.report.facts).toMatchObject({ hostname: 'a2-node1', hostAddresses: ['10.20.0.11'] });
  });

  it('every seed deployment reports its fit (model.fit) from its config.json: weights per NPU, KV budget, tokens and concurrency, in its evidence', async () => {
    for (const name of ['a3-healthy', 'a3-pd-prefill', 'a3-pd-decode0', 'a3-pd-decode1', 'a2-w8a8-node0', '300i-duo-healthy', '300i-duo-4b', '300i-duo-9b'] as const) {
      const { report } = await replay(name);
      const fit = report.checks.find((c: { id: string }) => c.id === 'model.fit');
      expect(fit.status, name).not.toBe('skip');
      expect(fit.evidence.weightsBytesPerNpu, name).toBeGreaterThan(0);
      expect(fit.evidence.kvBudgetBytesPerNpu, name).toBeGreaterThan(0);
      expect(fit.evidence.basis, name).toBe('config.json');
      expect(fit.evidence.kvTokens, name).toBeGreaterThan(fit.evidence.maxModelLen);
      expect(fit.evidence.maxConcurrency, name).toBeGreaterThan(1);
      expect(fit.message, name).toMatch(/GiB of weights per NPU, [\d.]+ GiB for the KV cache/);
      expect((await validateAgainstSchema('fit-evidence', fit.evidence)).valid, name).toBe(true);
    }
  });

  it('the A2 that is up but not healthy replays at the depth it was recorded at: a port that flapped 12 h before the read, a weak lane; every other demo answers --depth deep with healthy links', async () => {
    const { run, report, statuses } = await replay('a2-link-flap');
    // NPU 3's HBM: uncorrectable errors and retired pages, the one problem of the node
    expect(run.exitCode).toBe(1);
    expect(report.blocking).toEqual(['npu.ecc']);
    expect(report.checks.find((c: { id: string }) => c.id === 'npu.ecc')).toMatchObject({ status: 'fail', action: 'isolate-npu' });
    expect(report.selection.depth).toBe('deep');
    // a replay does not wait the 3 s between the counters' reads: its answers were recorded
    expect(report.durationMs).toBeLessThan(3000);
    expect(statuses).toMatchObject({ 'hccn.link-stability': 'warn', 'hccn.optics': 'warn', 'hccn.counters': 'pass', 'hccn.fec': 'pass', 'hccn.link': 'pass' });
    expect(report.checks.find((c: { id: string }) => c.id === 'hccn.link-stability').message).toContain('dev4 went down once within 24 h');
    expect(report.checks.find((c: { id: string }) => c.id === 'hccn.optics').message).toContain('dev6 (Hisense LMQ8611-PC+): Rx lane 1 0.3054 mW, under the 0.6 mW warning level');
    const standard = await replay('a2-link-flap', ['--depth', 'standard']);
    expect(standard.statuses['hccn.optics']).toBeUndefined();
    const healthy = await replay('a2-healthy', ['--depth', 'deep']);
    expect(['hccn.link-stability', 'hccn.optics', 'hccn.counters', 'hccn.fec'].map((id) => healthy.statuses[id])).toEqual(['pass', 'pass', 'pass', 'pass']);
    const down = await replay('a2-node2', ['--depth', 'deep']);
    expect(['hccn.link-stability', 'hccn.optics'].map((id) => down.statuses[id])).toEqual(['fail', 'fail']);
  });

  it('each demo replays to what its recording concluded', async () => {
    for (const name of Object.keys(DEMOS) as Array<keyof typeof DEMOS>) {
      const snapshot = JSON.parse(readFileSync(join(REPO, 'examples/snapshots', `${name}.json`), 'utf8'));
      expect((await validateAgainstSchema('snapshot', snapshot)).valid, name).toBe(true);
      const { report } = await replay(name);
      const strip = (checks: Array<{ id: string; status: string; message: string }>) => checks.map(({ id, status, message }) => ({ id, status, message }));
      expect(strip(report.checks), name).toEqual(strip(snapshot.report.checks));
    }
  });

  it('the committed snapshots are what scripts/make-demo-snapshots.mjs makes (re-run it after changing a check)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'qprep-demo-'));
    await execa(process.execPath, [join(REPO, 'scripts/make-demo-snapshots.mjs'), dir]);
    const names = readdirSync(join(REPO, 'examples/snapshots')).filter((f) => f.endsWith('.json')).sort();
    expect(readdirSync(dir).sort()).toEqual(names);
    for (const name of names) {
      expect(readFileSync(join(dir, name), 'utf8'), name).toBe(readFileSync(join(REPO, 'examples/snapshots', name), 'utf8'));
    }
  });
});
