import { execaSync } from 'execa';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';
import { BIN, qprep, REPO } from '../helpers/cli.js';
import { httpGet, startServe, type ServeProcess } from '../helpers/serve.js';
import { hasTool } from '../helpers/tools.js';
import { writeUntunedTree } from '../helpers/untuned-tree.js';

/**
 * The install recipes of examples/: what qprep relies on in each is checked field by field, the
 * systemd unit by systemd itself, and the command line each one runs is run with the built CLI.
 * No Kubernetes or node-problem-detector schema is available offline, so the DaemonSet is read
 * with the yaml parser and the NPD config is held to the rules NPD's own Validate() applies.
 */

const started: ServeProcess[] = [];
afterAll(async () => {
  await Promise.all(started.map((s) => s.stop()));
});

const HEALTHY = 'examples/snapshots/a2-healthy.json';

function unitSettings(text: string): Map<string, string[]> {
  const settings = new Map<string, string[]>();
  let section = '';
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    if (!line || line.startsWith('#')) continue;
    const header = /^\[(\w+)\]$/.exec(line);
    if (header) {
      section = header[1]!;
      continue;
    }
    const eq = line.indexOf('=');
    const key = `${section}.${line.slice(0, eq)}`;
    settings.set(key, [...(settings.get(key) ?? []), line.slice(eq + 1)]);
  }
  return settings;
}

/** The variables of the unit's Environment= lines ("NAME=value with spaces", quoted or not). */
function unitEnvironment(unit: Map<string, string[]>): Record<string, string> {
  const variables: Record<string, string> = {};
  for (const setting of unit.get('Service.Environment') ?? []) {
    const assignment = /^"(.*)"$/.exec(setting)?.[1] ?? setting;
    const eq = assignment.indexOf('=');
    variables[assignment.slice(0, eq)] = assignment.slice(eq + 1);
  }
  return variables;
}

/** The young generation's largest size and the heap's limit of a Node started with NODE_OPTIONS. */
function heapSizesUnder(nodeOptions: string): { newSpaceMiB: number; heapLimitMiB: number } {
  const script = "const v8 = require('node:v8'); const young = v8.getHeapSpaceStatistics().find((s) => s.space_name === 'new_space'); let keep = []; for (let i = 0; i < 3e5; i++) { keep.push({ i }); if (keep.length > 5e4) keep = []; } const after = v8.getHeapSpaceStatistics().find((s) => s.space_name === 'new_space'); console.log(JSON.stringify({ newSpaceMiB: Math.max(young.space_size, after.space_size) / 1048576, heapLimitMiB: v8.getHeapStatistics().heap_size_limit / 1048576 }));";
  const run = execaSync(process.execPath, ['-e', script], { env: { NODE_OPTIONS: nodeOptions }, extendEnv: false });
  return JSON.parse(String(run.stdout));
}

/** Go's time.ParseDuration for the forms NPD configs use: 90s, 5m, 1h30m. */
function goDuration(text: string): number {
  const match = /^(?:(\d+)h)?(?:(\d+)m)?(?:(\d+)s)?$/.exec(text);
  if (!match || text === '') throw new Error(`not a Go duration: ${text}`);
  return (Number(match[1] ?? 0) * 3600 + Number(match[2] ?? 0) * 60 + Number(match[3] ?? 0)) * 1000;
}

describe('examples/systemd/qprep.service', () => {
  const text = readFileSync(join(REPO, 'examples/systemd/qprep.service'), 'utf8');
  const unit = unitSettings(text);
  const one = (key: string) => unit.get(key)?.at(-1);

  it('is hardened: no new privileges, no capability, the file system read-only but for the state directory', () => {
    expect(one('Service.NoNewPrivileges')).toBe('yes');
    expect(one('Service.ProtectSystem')).toBe('strict');
    expect(one('Service.StateDirectory')).toBe('qprep');
    expect(unit.get('Service.CapabilityBoundingSet')).toEqual(['']);
    expect(one('Service.ExecReload')).toBe('/bin/kill -HUP $MAINPID');
    // qprep stops within 3 s; systemd must not SIGKILL it before
    expect(goDuration(one('Service.TimeoutStopSec')!)).toBeGreaterThan(3000);
    // Node's JIT writes its code pages; npu-smi needs the NPU device nodes
    expect(unit.has('Service.MemoryDenyWriteExecute')).toBe(false);
    expect(unit.has('Service.PrivateDevices')).toBe(false);
  });

  it.skipIf(!hasTool(['systemd-analyze', '--version'], 'systemd'))('passes systemd-analyze verify without a remark', () => {
    const dir = mkdtempSync(join(tmpdir(), 'qprep-unit-'));
    const file = join(dir, 'qprep.service');
    // verify wants the executable to exist: the built CLI stands in for the installed one
    writeFileSync(file, text.replace('/usr/local/bin/qprep', BIN));
    const run = execaSync('systemd-analyze', ['verify', file], { reject: false });
    expect(String(run.stderr)).toBe('');
    expect(run.exitCode).toBe(0);
    const exposure = execaSync('systemd-analyze', ['security', '--offline=yes', file], { reject: false });
    const level = Number(/Overall exposure level for qprep\.service: ([\d.]+)/.exec(String(exposure.stdout) + String(exposure.stderr))?.[1]);
    expect(level).toBeLessThan(3);
  });

  it('its ExecStart is a qprep serve command line that the built CLI runs', async () => {
    const [path, ...args] = one('Service.ExecStart')!.split(/\s+/);
    expect(path).toBe('/usr/local/bin/qprep');
    expect(args.slice(0, 3)).toEqual(['serve', '--listen', '127.0.0.1:9105']);
    // the same options, on a free port and answering from a demo snapshot
    const agent = await startServe([...args.slice(1), '--listen', '127.0.0.1:0', '--snapshot', HEALTHY], { env: unitEnvironment(unit) });
    started.push(agent);
    await agent.waitForLog((l) => l.event === 'run');
    expect(agent.logs[0]).toMatchObject({ interval: '5m', profile: 'default' });
    expect((await httpGet(`${agent.base}/readyz`)).status).toBe(200);
  });
});

describe('the V8 heap sizes of the install recipes', () => {
  const unit = unitSettings(readFileSync(join(REPO, 'examples/systemd/qprep.service'), 'utf8'));
  const daemonSet = parseAllDocuments(readFileSync(join(REPO, 'examples/kubernetes/qprep-daemonset.yaml'), 'utf8'))
    .map((d) => d.toJS())
    .find((o) => o.kind === 'DaemonSet');
  const container = daemonSet.spec.template.spec.containers[0];

  it('the unit and the DaemonSet give Node the same NODE_OPTIONS, and Node applies them', () => {
    const nodeOptions = unitEnvironment(unit).NODE_OPTIONS!;
    expect(nodeOptions).toMatch(/--max-semi-space-size=\d+/);
    expect(container.env).toContainEqual({ name: 'NODE_OPTIONS', value: nodeOptions });
    const sizes = heapSizesUnder(nodeOptions);
    // without them: a young generation of 32 MiB and a heap limit of a quarter of the memory or more
    expect(sizes.newSpaceMiB).toBeLessThanOrEqual(4);
    const oldSpaceMiB = Number(/--max-old-space-size=(\d+)/.exec(nodeOptions)?.[1]);
    expect(sizes.heapLimitMiB).toBeLessThan(oldSpaceMiB + 16);
    // the whole heap fits under the container's memory limit, with room for the rest of the process
    const limitMiB = Number(/^(\d+)Mi$/.exec(container.resources.limits.memory)?.[1]);
    expect(sizes.heapLimitMiB + 48).toBeLessThan(limitMiB);
  });
});

describe('examples/kubernetes/qprep-daemonset.yaml', () => {
  const documents = parseAllDocuments(readFileSync(join(REPO, 'examples/kubernetes/qprep-daemonset.yaml'), 'utf8'));
  // a parsed manifest is walked by path below; its shape is what the assertions check
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  const objects = documents.map((d) => d.toJS()) as Array<Record<string, any>>;
  const daemonSet = objects.find((o) => o.kind === 'DaemonSet')!;
  const pod = daemonSet.spec.template.spec;
  const container = pod.containers[0];
  const args: string[] = container.args;
  const listen = args[args.indexOf('--listen') + 1]!;
  const port = Number(listen.split(':').at(-1));

  it('is an apps/v1 DaemonSet whose selector matches its pods, in a namespace the file creates', () => {
    for (const document of documents) expect(document.errors).toEqual([]);
    expect(daemonSet.apiVersion).toBe('apps/v1');
    expect(daemonSet.spec.selector.matchLabels).toEqual(daemonSet.spec.template.metadata.labels);
    expect(objects.find((o) => o.kind === 'Namespace')?.metadata.name).toBe(daemonSet.metadata.namespace);
  });

  it("mounts the host's / read-only at /host and runs qprep serve --root /host", () => {
    expect(args[0]).toBe('serve');
    expect(args[args.indexOf('--root') + 1]).toBe('/host');
    const hostMount = container.volumeMounts.find((m: { mountPath: string }) => m.mountPath === '/host');
    expect(hostMount.readOnly).toBe(true);
    expect(pod.volumes.find((v: { name: string }) => v.name === hostMount.name).hostPath).toEqual({ path: '/', type: 'Directory' });
    // nothing of the host is writable, nor the container's own root
    for (const mount of container.volumeMounts) expect(mount.readOnly, mount.mountPath).toBe(true);
    expect(container.securityContext.readOnlyRootFilesystem).toBe(true);
    const volumes = new Set(pod.volumes.map((v: { name: string }) => v.name));
    for (const mount of container.volumeMounts) expect(volumes.has(mount.name), mount.name).toBe(true);
  });

  it("mounts the NPU control devices and the guide's tool paths", () => {
    const hostPaths = Object.fromEntries(pod.volumes.map((v: { hostPath: { path: string; type: string } }) => [v.hostPath.path, v.hostPath.type]));
    for (const device of ['/dev/davinci_manager', '/dev/devmm_svm', '/dev/hisi_hdc']) expect(hostPaths[device], device).toBe('CharDevice');
    expect(hostPaths['/usr/local/bin/npu-smi']).toBe('File');
    expect(hostPaths['/usr/local/Ascend/driver']).toBe('Directory');
    expect(hostPaths['/usr/local/dcmi']).toBe('Directory');
  });

  it('probes /readyz and /healthz and annotates for Prometheus on the port it listens on', () => {
    expect(listen).toBe('$(NODE_IP):9105');
    expect(container.env).toContainEqual({ name: 'NODE_IP', valueFrom: { fieldRef: { fieldPath: 'status.hostIP' } } });
    expect(container.readinessProbe.httpGet).toEqual({ path: '/readyz', port });
    expect(container.livenessProbe.httpGet).toEqual({ path: '/healthz', port });
    expect(container.ports[0].containerPort).toBe(port);
    expect(daemonSet.spec.template.metadata.annotations).toEqual({ 'prometheus.io/scrape': 'true', 'prometheus.io/port': String(port), 'prometheus.io/path': '/metrics' });
    // the kubelet waits this long after SIGTERM; qprep needs 3 s
    expect(pod.terminationGracePeriodSeconds).toBeGreaterThan(3);
  });

  it('its container command line runs with the built CLI, and the probe path answers', async () => {
    const root = mkdtempSync(join(tmpdir(), 'qprep-daemonset-root-'));
    writeUntunedTree(root);
    const local = args.slice(1).map((arg) => (arg === listen ? '127.0.0.1:0' : arg === '/host' ? root : arg));
    const values = (container.env as Array<{ name: string; value?: string }>).filter((e) => e.value !== undefined);
    const agent = await startServe(local, { env: Object.fromEntries(values.map((e) => [e.name, e.value!])) });
    started.push(agent);
    await agent.waitForLog((l) => l.event === 'run');
    const probe = await httpGet(`${agent.base}${container.readinessProbe.httpGet.path}`);
    expect([200, 503]).toContain(probe.status);
    expect(probe.body).toMatch(/^(ready|not ready|no verdict): [^\n]+\n$/);
    expect((await httpGet(`${agent.base}${container.livenessProbe.httpGet.path}`)).status).toBe(200);
  });
});

describe('examples/kubernetes/npd-qprep-plugin.json (node-problem-detector custom plugin)', () => {
  const config = JSON.parse(readFileSync(join(REPO, 'examples/kubernetes/npd-qprep-plugin.json'), 'utf8'));

  it("holds to NPD's Validate(): a custom plugin, rule timeouts within the global one, a default condition for every permanent rule", () => {
    expect(config.plugin).toBe('custom');
    const globalTimeout = goDuration(config.pluginConfig.timeout);
    for (const rule of config.rules) {
      expect(goDuration(rule.timeout)).toBeLessThanOrEqual(globalTimeout);
      if (rule.type === 'permanent') expect(config.conditions.map((c: { type: string }) => c.type)).toContain(rule.condition);
    }
    expect(goDuration(config.pluginConfig.invoke_interval)).toBeGreaterThanOrEqual(goDuration(config.pluginConfig.timeout));
  });

  it('runs qprep check --quiet, whose exit codes 0/1/2 are NPD\'s OK/NonOK/Unknown', async () => {
    const [rule] = config.rules;
    expect(rule.path).toBe('/usr/local/bin/qprep');
    expect(rule.args.slice(0, 2)).toEqual(['check', '--quiet']);
    // each probe is bounded by --timeout (10 s by default): a whole run fits NPD's timeout
    expect(goDuration(rule.timeout)).toBeGreaterThanOrEqual(60_000);
    // the other options are check's own: the built CLI accepts them (--quiet comes with its own change)
    const root = mkdtempSync(join(tmpdir(), 'qprep-npd-root-'));
    writeUntunedTree(root);
    const rest = rule.args.slice(2).map((arg: string) => (arg === '/host' ? root : arg));
    const run = await qprep(['check', ...rest, '--only', 'sysctl']);
    expect(run.stderr).not.toMatch(/error/);
    expect([0, 1]).toContain(run.exitCode);
  });
});
