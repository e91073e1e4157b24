import { execaSync } from 'execa';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';
import { BIN, REPO } from '../helpers/cli.js';
import { httpGet, startServe, type ServeProcess } from '../helpers/serve.js';
import { hasTool } from '../helpers/tools.js';

/**
 * The systemd recipe of examples/: what qprep relies on in it is checked field by field, the unit
 * by systemd itself, and the command line it runs is run with the built CLI; the heap sizes it
 * shares with the DaemonSet are applied by Node. The Kubernetes recipes: test/e2e/kubernetes.test.ts.
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
