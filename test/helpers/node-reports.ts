import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Report } from '../../src/report/schema.js';

const REPO = new URL('../..', import.meta.url).pathname;

/** The report a demo host of examples/snapshots concluded when it was recorded. */
export function demoReport(name: 'a2-healthy' | 'a2-broken' | 'a3-healthy' | '300i-duo-healthy' | 'a2-healthy-node3' | 'a3-pd-prefill' | 'a3-pd-decode0' | 'a3-pd-decode1' | 'a2-w8a8-node0' | '300i-duo-4b'): Report {
  return (JSON.parse(readFileSync(join(REPO, 'examples', 'snapshots', `${name}.json`), 'utf8')) as { report: Report }).report;
}

export interface NodeOptions {
  /** NPU device addresses of the HCCN facts: 198.18.<index>.<10 + device> unless given */
  deviceIp?: (device: number) => string;
  tls?: boolean | ((device: number) => boolean);
  superPod?: number | null;
  startedAt?: string;
}

/**
 * One node of a cluster made from a demo report: its own hostname, host address, run id and
 * NPU device addresses (the HCCN facts a report carries), so that N of them form a consistent
 * cluster where nothing differs until a test plants a difference.
 */
export function clusterNode(template: Report, index: number, options: NodeOptions = {}): Report & { facts: NonNullable<Report['facts']> & { superPod?: number | null } } {
  const report = structuredClone(template) as Report & { facts: NonNullable<Report['facts']> & { superPod?: number | null } };
  const name = `node${String(index + 1).padStart(2, '0')}`;
  report.runId = `run-${name}`;
  report.host.hostname = name;
  if (options.startedAt) report.startedAt = options.startedAt;
  report.facts.hostname = name;
  report.facts.hostAddresses = [`10.30.0.${index + 11}`];
  report.facts.devices = report.facts.npus.map((npu) => {
    const tls = typeof options.tls === 'function' ? options.tls(npu.device) : (options.tls ?? false);
    return { device: npu.device, ip: options.deviceIp?.(npu.device) ?? `198.18.${index}.${10 + npu.device}`, netmask: '255.255.255.0', tls };
  });
  if (options.superPod !== undefined) report.facts.superPod = options.superPod;
  return report;
}
