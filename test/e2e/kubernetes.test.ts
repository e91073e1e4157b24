import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { LABEL_PREFIX } from '../../src/report/kubernetes.js';
import { NPD_MESSAGE_BYTES } from '../../src/report/npd.js';
import { labelKeyProblem } from '../../src/util/k8s-labels.js';
import { qprep, REPO } from '../helpers/cli.js';
import { excessFields, manifestProblems, readManifests, type Manifest } from '../helpers/kubernetes.js';
import { httpGet, startServe, type ServeProcess } from '../helpers/serve.js';
import { writeUntunedTree } from '../helpers/untuned-tree.js';

/**
 * The recipes of examples/kubernetes: every manifest against the Kubernetes OpenAPI schemas of
 * the pinned kubernetes-models package (and the CRDs' own schemas for NodeFeatureRule and
 * PodMonitor), offline; then what qprep relies on in each, field by field, and the command
 * lines they run, run with the built CLI.
 */

const DIR = 'examples/kubernetes';
const YAML_FILES = readdirSync(join(REPO, DIR)).filter((f) => f.endsWith('.yaml')).sort();
const all = YAML_FILES.flatMap((file) => readManifests(join(DIR, file)).map((manifest, i) => ({ name: `${file}#${i + 1} ${String(manifest.kind)}`, manifest })));
const find = (kind: string, name?: string): Manifest => {
  const found = all.find(({ manifest }) => manifest.kind === kind && (name === undefined || manifest.metadata?.name === name));
  if (!found) throw new Error(`no ${kind} ${name ?? ''} in ${DIR}`);
  return found.manifest;
};

const started: ServeProcess[] = [];
afterAll(async () => {
  await Promise.all(started.map((s) => s.stop()));
});

/** Go's time.ParseDuration for the forms NPD configs use: 90s, 5m, 1h30m. */
function goDuration(text: string): number {
  const match = /^(?:(\d+)h)?(?:(\d+)m)?(?:(\d+)s)?$/.exec(text);
  if (!match || text === '') throw new Error(`not a Go duration: ${text}`);
  return (Number(match[1] ?? 0) * 3600 + Number(match[2] ?? 0) * 60 + Number(match[3] ?? 0)) * 1000;
}

describe('every manifest of examples/kubernetes validates against the pinned schemas', () => {
  it('the manifests are the ones the docs name', () => {
    expect(YAML_FILES).toEqual(['nfd-qprep-rule.yaml', 'npd-qprep.yaml', 'qprep-daemonset.yaml', 'qprep-podmonitor.yaml', 'qprep-rbac.yaml']);
  });

  it.each(all.map(({ name, manifest }) => [name, manifest] as const))('%s', async (_name, manifest) => {
    expect(await manifestProblems(manifest)).toEqual([]);
  });

  it('no built-in manifest has a field its kind does not have (the TypeScript types of the same package)', () => {
    expect(excessFields(all)).toEqual([]);
  }, 60_000);

  it('the validators catch what they must: a wrong type, a misspelt field, an unknown field of a custom resource', async () => {
    const daemonSet = structuredClone(find('DaemonSet', 'qprep'));
    daemonSet.spec.template.spec.containers[0].ports[0].containerPort = '9105';
    expect((await manifestProblems(daemonSet)).join()).toMatch(/containerPort must be integer/);
    const typo = structuredClone(find('DaemonSet', 'qprep'));
    typo.spec.template.spec.containers[0].readinesProbe = typo.spec.template.spec.containers[0].readinessProbe;
    expect(excessFields([{ name: 'typo', manifest: typo }]).join()).toMatch(/^typo: Object literal may only specify known properties.*readinesProbe/);
    const rule = structuredClone(find('NodeFeatureRule'));
    rule.spec.rules[0].taint = rule.spec.rules[0].taints;
    expect((await manifestProblems(rule)).join()).toMatch(/must NOT have additional properties: taint/);
    const monitor = structuredClone(find('PodMonitor'));
    monitor.spec.podMetricsEndpoints[0].interval = 'every minute';
    expect(await manifestProblems(monitor)).not.toEqual([]);
  }, 60_000);
});

describe('qprep-daemonset.yaml', () => {
  const daemonSet = find('DaemonSet', 'qprep');
  const pod = daemonSet.spec.template.spec;
  const container = pod.containers[0];
  const args: string[] = container.args;
  const option = (name: string) => args[args.indexOf(name) + 1];
  const listen = option('--listen')!;
  const port = Number(listen.split(':').at(-1));

  it("pod readiness is the agent's (/agentz), never the node's; a rollout of a fleet takes a tenth at a time", () => {
    expect(container.readinessProbe.httpGet).toEqual({ path: '/agentz', port });
    expect(container.livenessProbe.httpGet).toEqual({ path: '/healthz', port });
    expect(daemonSet.spec.updateStrategy).toEqual({ type: 'RollingUpdate', rollingUpdate: { maxUnavailable: '10%', maxSurge: 0 } });
    expect(pod.hostNetwork).toBe(true);
  });

  it('the node readiness travels by label and annotation: --nfd-features into the directory NFD reads, --annotate its own node', () => {
    expect(option('--nfd-features')).toBe('/etc/kubernetes/node-feature-discovery/features.d/qprep');
    expect(option('--annotate')).toBe('$(NODE_NAME)');
    expect(container.env).toContainEqual({ name: 'NODE_NAME', valueFrom: { fieldRef: { fieldPath: 'spec.nodeName' } } });
    const features = container.volumeMounts.find((m: Manifest) => m.mountPath === '/etc/kubernetes/node-feature-discovery/features.d');
    expect(pod.volumes.find((v: Manifest) => v.name === features.name).hostPath).toEqual({ path: '/etc/kubernetes/node-feature-discovery/features.d', type: 'DirectoryOrCreate' });
    expect(pod.serviceAccountName).toBe(find('ServiceAccount', 'qprep').metadata.name);
    expect(find('ServiceAccount', 'qprep').metadata.namespace).toBe(daemonSet.metadata.namespace);
  });

  it("mounts the host's / read-only at /host, the NPU tools, libraries, install record and control devices at the guide's paths; the feature directory is the one writable mount", () => {
    expect(option('--root')).toBe('/host');
    const hostPaths = Object.fromEntries(pod.volumes.filter((v: Manifest) => v.hostPath).map((v: Manifest) => [v.hostPath.path, v.hostPath.type]));
    expect(hostPaths).toMatchObject({
      '/': 'Directory',
      '/usr/local/bin/npu-smi': 'File',
      '/usr/local/dcmi': 'Directory',
      // lib64, tools/hccn_tool and version.info are under it
      '/usr/local/Ascend/driver': 'Directory',
      '/etc/ascend_install.info': 'File',
      '/dev/davinci_manager': 'CharDevice',
      '/dev/devmm_svm': 'CharDevice',
      '/dev/hisi_hdc': 'CharDevice',
    });
    for (const mount of container.volumeMounts) {
      const volume = pod.volumes.find((v: Manifest) => v.name === mount.name);
      expect(volume, mount.name).toBeDefined();
      // each host path at the same path inside the container (the guide's -v a:a), but / at /host
      if (volume.hostPath.path !== '/') expect(mount.mountPath, mount.name).toBe(volume.hostPath.path);
      expect(mount.readOnly === true, mount.mountPath).toBe(mount.name !== 'nfd-features');
    }
    // privileged for /dev/davinciN (the device plugin would take them from vLLM), root for their owner
    expect(container.securityContext).toEqual({ privileged: true, runAsUser: 0, readOnlyRootFilesystem: true });
  });

  it('requests what the agent was measured to use, no CPU limit, a memory limit over the heap it is given', () => {
    expect(container.resources.requests).toEqual({ cpu: '20m', memory: '160Mi' });
    expect(container.resources.limits).toEqual({ memory: '320Mi' });
    expect(daemonSet.spec.template.metadata.annotations).toEqual({ 'prometheus.io/scrape': 'true', 'prometheus.io/port': String(port), 'prometheus.io/path': '/metrics' });
  });

  it('its command line runs with the built CLI: /agentz answers 200 on a node that is not ready, and the feature file is written', async () => {
    const root = mkdtempSync(join(tmpdir(), 'qprep-daemonset-root-'));
    writeUntunedTree(root);
    const features = join(mkdtempSync(join(tmpdir(), 'qprep-daemonset-nfd-')), 'qprep');
    // --annotate needs an API server: test/integration/serve-annotate.test.ts gives it one
    const withoutAnnotate = args.filter((arg, i) => arg !== '--annotate' && args[i - 1] !== '--annotate');
    const local = withoutAnnotate.slice(1).map((arg) => (arg === listen ? '127.0.0.1:0' : arg === '/host' ? root : arg === option('--nfd-features') ? features : arg));
    const values = (container.env as Manifest[]).filter((e) => e.value !== undefined);
    const agent = await startServe([...local, '--only', 'sysctl,npu.tools'], { env: Object.fromEntries(values.map((e) => [e.name, e.value])) });
    started.push(agent);
    await agent.waitForLog((l) => l.event === 'run');
    expect((await httpGet(`${agent.base}/readyz`)).status).toBe(503);
    const health = await httpGet(`${agent.base}${container.readinessProbe.httpGet.path}`);
    expect(health).toMatchObject({ status: 200, body: expect.stringMatching(/^agent works: last run \d+s ago, verdict not-ready\n$/) });
    expect((await httpGet(`${agent.base}${container.livenessProbe.httpGet.path}`)).status).toBe(200);
    expect(readFileSync(features, 'utf8')).toContain(`${LABEL_PREFIX}/ready=false\n`);
  });
});

describe('qprep-rbac.yaml: patch nodes, and nothing else', () => {
  it('one ClusterRole with the one verb, bound to the DaemonSet\'s ServiceAccount; the policy that narrows it to its own node is bound', () => {
    expect(find('ClusterRole', 'qprep-node-annotations').rules).toEqual([{ apiGroups: [''], resources: ['nodes'], verbs: ['patch'] }]);
    const binding = find('ClusterRoleBinding', 'qprep-node-annotations');
    expect(binding.subjects).toEqual([{ kind: 'ServiceAccount', name: 'qprep', namespace: 'qprep' }]);
    const policy = find('ValidatingAdmissionPolicy');
    expect(find('ValidatingAdmissionPolicyBinding').spec).toEqual({ policyName: policy.metadata.name, validationActions: ['Deny'] });
    expect(policy.spec.matchConditions[0].expression).toBe("request.userInfo.username == 'system:serviceaccount:qprep:qprep'");
    expect(JSON.stringify(policy.spec)).toContain("authentication.kubernetes.io/node-name");
    expect(JSON.stringify(policy.spec)).toContain(`startsWith('${LABEL_PREFIX}/')`);
  });
});

describe('nfd-qprep-rule.yaml and qprep-podmonitor.yaml', () => {
  it('taints NoSchedule under qprep.io/ when the ready label of the feature file is false', () => {
    const [rule] = find('NodeFeatureRule').spec.rules;
    expect(rule.taints).toEqual([{ key: `${LABEL_PREFIX}/not-ready`, value: 'true', effect: 'NoSchedule' }]);
    expect(labelKeyProblem(rule.taints[0].key)).toBeUndefined();
    expect(rule.matchFeatures).toEqual([{ feature: 'local.label', matchExpressions: { [`${LABEL_PREFIX}/ready`]: { op: 'IsFalse' } } }]);
  });

  it("the PodMonitor selects the DaemonSet's pods and scrapes its metrics port", () => {
    const monitor = find('PodMonitor');
    const daemonSet = find('DaemonSet', 'qprep');
    expect(monitor.spec.selector.matchLabels).toEqual(daemonSet.spec.template.metadata.labels);
    expect(monitor.spec.namespaceSelector.matchNames).toEqual([daemonSet.metadata.namespace]);
    expect(daemonSet.spec.template.spec.containers[0].ports.map((p: Manifest) => p.name)).toContain(monitor.spec.podMetricsEndpoints[0].port);
  });
});

describe('node-problem-detector: npd-qprep-plugin.json and npd-qprep.yaml', () => {
  const config = JSON.parse(readFileSync(join(REPO, DIR, 'npd-qprep-plugin.json'), 'utf8'));
  const npd = () => find('DaemonSet', 'npd-qprep');

  it("holds to NPD's Validate() (pkg/custompluginmonitor/types/config.go): a custom plugin, rule timeouts within the global one, a default condition for every permanent rule", () => {
    expect(config.plugin).toBe('custom');
    const globalTimeout = goDuration(config.pluginConfig.timeout);
    for (const rule of config.rules) {
      expect(goDuration(rule.timeout)).toBeLessThanOrEqual(globalTimeout);
      if (rule.type === 'permanent') expect(config.conditions.map((c: { type: string }) => c.type)).toContain(rule.condition);
    }
    expect(goDuration(config.pluginConfig.invoke_interval)).toBeGreaterThanOrEqual(goDuration(config.pluginConfig.timeout));
    // the line qprep writes fits the message NPD keeps; the message changes update the condition
    expect(config.pluginConfig.max_output_length).toBe(NPD_MESSAGE_BYTES);
    expect(config.pluginConfig.enable_message_change_based_condition_update).toBe(true);
  });

  it('one condition per part of the node, each a qprep check of that part', () => {
    expect(config.rules.map((r: Manifest) => [r.condition, r.args.slice(r.args.indexOf('--only') + 1)[0]])).toEqual([
      ['AscendNpuProblem', 'npu'],
      ['AscendHccnProblem', 'hccn,network'],
      ['AscendHostTuningProblem', 'tuning,host'],
      ['AscendLaunchProblem', 'launch'],
    ]);
  });

  it("runs the plugin on the host: nsenter into PID 1's namespaces from a privileged pod in the host's PID namespace", () => {
    for (const rule of config.rules) {
      expect(rule.path).toBe('/usr/bin/nsenter');
      expect(rule.args.slice(0, 9)).toEqual(['--target', '1', '--mount', '--uts', '--ipc', '--net', '--pid', '--', '/usr/local/bin/qprep']);
      expect(rule.args.slice(9, 12)).toEqual(['check', '--format', 'npd']);
    }
    expect(npd().spec.template.spec.hostPID).toBe(true);
    expect(npd().spec.template.spec.containers[0].securityContext.privileged).toBe(true);
    expect(npd().spec.template.spec.containers[0].command).toContain('--config.custom-plugin-monitor=/config/npd-qprep-plugin.json');
    // the ConfigMap is the file, byte for byte
    expect(find('ConfigMap', 'npd-qprep-config').data['npd-qprep-plugin.json']).toBe(readFileSync(join(REPO, DIR, 'npd-qprep-plugin.json'), 'utf8'));
  });

  /** What NPD makes of a plugin's stdout (plugin.go): trimmed, then cut at max_output_length bytes. */
  const npdMessage = (stdout: string) => Buffer.from(stdout.trim()).subarray(0, config.pluginConfig.max_output_length).toString('utf8');

  it.each([
    ['a2-healthy', 0, 0, /^READY: \d+ checks, none blocking/],
    ['a2-broken', 0, 1, /^NOT READY: npu\.driver-files: .*; npu\.health: .*80E01801/],
    ['a2-node2', 1, 1, /^NOT READY: hccn\.link: /],
    ['a2-healthy', 3, 2, /^NO VERDICT \(invalid-input\): cannot read launch script \/etc\/qprep\/launch\.sh: no such file/],
  ] as const)('on %s, rule %i exits %i with its one-line reason on stdout, as NPD keeps it', async (demo, index, exitCode, reason) => {
    const rule = config.rules[index];
    // what nsenter runs on the host, with the host replayed from a demo snapshot
    const qprepArgs: string[] = rule.args.slice(rule.args.indexOf('--') + 2);
    const run = await qprep([...qprepArgs, '--snapshot', join(REPO, 'examples', 'snapshots', `${demo}.json`)]);
    expect(run.exitCode, run.stderr).toBe(exitCode);
    expect(run.stdout.trimEnd().split('\n')).toHaveLength(1);
    expect(Buffer.byteLength(run.stdout.trim())).toBeLessThanOrEqual(config.pluginConfig.max_output_length);
    expect(npdMessage(run.stdout)).toBe(run.stdout.trim());
    expect(npdMessage(run.stdout)).toMatch(reason);
  });
});
