import type { RollingLedger } from '../../src/cluster/rolling.js';
import type { HealthLedger } from '../../src/core/health-ledger.js';
import { locateSelf, parseClusterText } from '../../src/cluster/load.js';
import { applyPolicy, createContext, effectiveLevel } from '../../src/core/runner.js';
import type { Check, CheckContext, CheckResult, Outcome } from '../../src/core/types.js';
import type { Lang } from '../../src/i18n/lang.js';
import { FakeHost, type FakeCommand, type FakeHostSpec } from './fake-host.js';
import { ascendFixture, bundleAnswer, syntheticFixture } from './fixtures.js';
import { HCCN_TOOL, NPU_SMI, npuHost, type NpuHostOptions } from './npu-host.js';
import { profileWith } from './run-check.js';

/**
 * A fake A2 or A3 host whose hccn_tool answers every device. The defaults are the single-device
 * slices of the vendor docs' `for i in {0..7}` loop captures (test/fixtures/ascend/hccn-*-a2x8-*,
 * one device's lines each); A3 devices 8..15, which no capture covers, continue the same
 * numbering. Any answer can be replaced per device.
 */

export type HccnOp = 'ip' | 'vnic' | 'link' | 'net_health' | 'netdetect' | 'gateway' | 'lldp' | 'tls';
/** The link diagnostics the deep checks read; `stat` may answer a sequence (its first read, then the later ones). */
export type DiagOp = 'link_stat' | 'optical' | 'fec' | 'speed' | 'stat';
export type Answer = string | Omit<FakeCommand, 'argv'>;

export interface HccnHostOptions extends NpuHostOptions {
  family?: 'a2' | 'a3';
  /** replaces the default answer of an op for the devices the function answers (undefined keeps the default) */
  answers?: Partial<Record<HccnOp, (device: number) => Answer | undefined>>;
  /** /etc/hccn.conf; null leaves it out; default: address_N/netmask_N of the default IPs */
  conf?: string | null;
  /** `hccn_tool -i D -ping|-hccs_ping -g address X` answers */
  pings?: Array<{ device: number; address: string; method?: 'roce' | 'hccs'; answer: Answer }>;
  /** npu-smi info -t spod-info answers by card and chip; default: the two A3 captures */
  spod?: (card: number, chip: number) => Answer;
  /**
   * The link diagnostics; an answer list is a sequence (the first call gets the first, the last
   * repeats). Defaults (defaultDiag): mind-cluster's bundle before its job for -link_stat and
   * -stat (device mod 8), the derived healthy module for -optical, the doc's rs FEC for -fec.
   */
  diag?: Partial<Record<DiagOp, (device: number) => Answer | Answer[] | undefined>>;
}

/** The default answers of the link diagnostics (see HccnHostOptions.diag). */
export function defaultDiag(op: DiagOp, device: number): string | undefined {
  const before = (name: string) => bundleAnswer(ascendFixture(name), device % 8, op).replace(/\[devid \d+\]/g, `[devid ${device}]`);
  switch (op) {
    case 'link_stat':
      return before('hccn-link-stat-g-8dev-before-mindcluster-modelarts.txt');
    case 'stat':
      return before('hccn-stat-g-short-8dev-before-mindcluster-modelarts.txt');
    case 'optical':
      return syntheticFixture('hccn-optical-g-healthy-derived.txt');
    case 'fec':
      return ascendFixture('hccn-fec-g-rs-mindcluster-doc.txt');
    case 'speed':
      return undefined;
  }
}

const DIAG_OPS: readonly DiagOp[] = ['link_stat', 'optical', 'fec', 'speed', 'stat'];

function diagCommands(device: number, options: HccnHostOptions): FakeCommand[] {
  const commands: FakeCommand[] = [];
  for (const op of DIAG_OPS) {
    const answer = options.diag?.[op]?.(device) ?? defaultDiag(op, device);
    if (answer === undefined) continue;
    const argv = [HCCN_TOOL, '-i', String(device), `-${op}`, '-g'];
    const sequence = Array.isArray(answer) ? answer : [answer];
    sequence.forEach((one, i) => commands.push({ ...asCommand(argv, one), ...(i < sequence.length - 1 ? { once: true } : {}) }));
  }
  return commands;
}

/** Lines [from, from+count) of a capture: one device's part of a loop. */
export function captureLines(name: string, from: number, count = 1): string {
  const lines = ascendFixture(name).split('\n');
  return `${lines.slice(from, from + count).join('\n')}\n`;
}

export function defaultIp(device: number): string {
  return `11.12.165.${80 + device}`;
}

export function defaultVnic(device: number): string {
  return `192.168.3.${10 + device}`;
}

function defaultAnswer(op: HccnOp, device: number): string {
  const inLoop = device < 8;
  switch (op) {
    case 'ip':
      return inLoop ? captureLines('hccn-ip-g-a2x8-mindie-dsv3doc.txt', device * 2, 2) : `ipaddr:${defaultIp(device)}\nnetmask:255.255.255.0\n`;
    case 'vnic':
      return `vnic link status: UP\nvnic ipaddr: ${defaultVnic(device)}\nvnic netmask: 255.255.255.0\n`;
    case 'link':
      return captureLines('hccn-link-up-mindie-dsv3doc.txt', 0);
    case 'net_health':
      return captureLines('hccn-net-health-success-mindie-dsv3doc.txt', 0);
    case 'netdetect':
      return captureLines('hccn-netdetect-mindie-dsv3doc.txt', 0);
    case 'gateway':
      return inLoop ? captureLines('hccn-gateway-a2x8-mindie-dsv3doc.txt', device) : `default gateway:11.12.165.1, Iface:eth${device}\n`;
    case 'lldp':
      return inLoop ? captureLines('hccn-lldp-ifname-a2x8-mindie-dsv3doc.txt', device) : `\tIfname: 400GE1/${device}/5:1\n`;
    case 'tls':
      return inLoop ? captureLines('hccn-tls-switch-a2x8-mindie-dsv3doc.txt', device) : captureLines('hccn-tls-switch-a2x8-mindie-dsv3doc.txt', 0).replace('dev_id:0', `dev_id:${device}`);
  }
}

const OPS: readonly HccnOp[] = ['ip', 'vnic', 'link', 'net_health', 'netdetect', 'gateway', 'lldp', 'tls'];

function asCommand(argv: string[], answer: Answer): FakeCommand {
  return typeof answer === 'string' ? { argv, stdout: answer } : { argv, ...answer };
}

export function defaultConf(devices: readonly number[]): string {
  return devices.map((d) => `address_${d}=${defaultIp(d)}\nnetmask_${d}=255.255.255.0\nnetdetect_${d}=11.12.165.1\ngateway_${d}=11.12.165.1\n`).join('');
}

export function hccnHost(options: HccnHostOptions = {}): FakeHostSpec {
  const a3 = options.family === 'a3';
  const devices = options.devices ?? (a3 ? Array.from({ length: 16 }, (_, i) => i) : [0, 1, 2, 3, 4, 5, 6, 7]);
  const commands: FakeCommand[] = [];
  for (const device of devices) {
    for (const op of OPS) {
      if (op === 'vnic' && !a3) continue;
      const answer = options.answers?.[op]?.(device) ?? defaultAnswer(op, device);
      commands.push(asCommand([HCCN_TOOL, '-i', String(device), `-${op}`, '-g'], answer));
    }
    commands.push(...diagCommands(device, options));
  }
  for (const ping of options.pings ?? []) {
    commands.push(asCommand([HCCN_TOOL, '-i', String(ping.device), ping.method === 'hccs' ? '-hccs_ping' : '-ping', '-g', 'address', ping.address], ping.answer));
  }
  if (a3) {
    for (let card = 0; card < 8; card++) {
      for (const chip of [0, 1]) {
        const answer = options.spod?.(card, chip) ?? ascendFixture(`npu-smi-info-t-spod-info-a3-dev${chip}-mindcluster-vllm-log.txt`);
        commands.push(asCommand([NPU_SMI, 'info', '-t', 'spod-info', '-i', String(card), '-c', String(chip)], answer));
      }
    }
  }
  const files = { ...(options.files ?? {}) };
  const conf = options.conf === undefined ? defaultConf(devices) : options.conf;
  if (conf !== null) files['/etc/hccn.conf'] = conf;
  const base = npuHost({
    ...options,
    devices,
    info: options.info ?? (a3 ? ascendFixture('npu-smi-info-a3-16chip-vllm-ascend-5784.txt') : undefined),
    files,
    commands: [...commands, ...(options.commands ?? [])],
  });
  return base;
}

export interface ClusterRun {
  outcome: Outcome;
  result: Omit<CheckResult, 'durationMs'>;
  host: FakeHost;
  ctx: CheckContext;
}

/** Runs a check on a fake host, as one node of a cluster file (YAML or JSON text) when one is given. */
export async function runHccn(
  check: Check,
  spec: FakeHostSpec,
  options: { cluster?: string; node?: string; profile?: Record<string, unknown>; rolling?: RollingLedger; now?: Date; lang?: Lang; history?: HealthLedger } = {},
): Promise<ClusterRun> {
  const host = new FakeHost(spec);
  const profile = profileWith(options.profile ?? {});
  const loaded = options.cluster === undefined ? undefined : await locateSelf(parseClusterText(options.cluster, 'cluster.yaml'), host, 'cluster.yaml', options.node);
  if (loaded && options.rolling) loaded.rolling = options.rolling;
  const now = options.now ?? new Date('2026-12-01T00:00:00Z');
  const ctx = createContext({ host, profile, timeoutMs: 1000, now: () => now, cluster: loaded, lang: options.lang ?? 'en', ...(options.history ? { history: options.history } : {}) });
  let outcome: Outcome;
  try {
    outcome = await check.run(ctx);
  } catch (error) {
    outcome = { status: 'error', message: `threw: ${(error as Error).message}` };
  }
  const result = applyPolicy(check, outcome, { level: effectiveLevel(check, profile), ignored: false, waivers: [], now: new Date(), text: ctx.text });
  return { outcome, result, host, ctx };
}

/** A two-node A2 cluster file: node1 has the default IPs, node2 the next eight. */
export function twoNodeCluster(extra = '', node2Ip = (d: number) => `11.12.165.${100 + d}`, devices = [0, 1, 2, 3, 4, 5, 6, 7]): string {
  const list = (ip: (d: number) => string) => devices.map((d) => `{device: ${d}, ip: ${ip(d)}}`).join(', ');
  return `${extra}
nodes:
  - name: node1
    host: 10.0.0.1
    devices: [${list(defaultIp)}]
  - name: node2
    host: 10.0.0.2
    devices: [${list(node2Ip)}]
`;
}
