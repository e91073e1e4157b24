import type { CheckResult } from '../../src/core/types.js';
import { blockingResults, summarize } from '../../src/core/verdict.js';
import type { Report } from '../../src/report/schema.js';

const CATEGORY_OF_PREFIX: Record<string, CheckResult['category']> = { cpu: 'tuning', sysctl: 'tuning', sched: 'tuning', mem: 'tuning', host: 'host', net: 'network', npu: 'npu', hccn: 'hccn' };

type ResultSpec = Partial<CheckResult> & Pick<CheckResult, 'id' | 'status'>;

/** A check result as the runner would produce it; every non-pass one has a remediation. */
export function result(spec: ResultSpec): CheckResult {
  return {
    title: spec.id,
    category: CATEGORY_OF_PREFIX[spec.id.split('.')[0] ?? ''] ?? 'host',
    level: 'required',
    message: `${spec.id} is ${spec.status}`,
    evidence: {},
    durationMs: 12,
    ...(spec.status === 'pass' ? {} : { remediation: `fix ${spec.id}` }),
    ...spec,
  };
}

/** A report over the given results, with the verdict computed as performCheck computes it. */
export function reportOf(results: CheckResult[], options: { strict?: boolean; hostname?: string } = {}): Report {
  const strict = options.strict ?? false;
  const blocking = blockingResults(results, strict);
  return {
    schemaVersion: 1,
    tool: { name: 'qprep', version: '0.1.0' },
    runId: '5f0c6d0e-8a0f-4c59-9a57-0d3f3c8d7a51',
    host: { hostname: options.hostname ?? 'node1', arch: 'aarch64', kernel: '5.15.0', os: 'Ubuntu 22.04.4 LTS', inContainer: false, containerRuntime: null },
    source: { kind: 'live', root: '/' },
    profile: { name: 'default', source: 'builtin' },
    startedAt: '2026-12-02T10:00:00.000Z',
    durationMs: 1234,
    ready: blocking.length === 0,
    strict,
    selection: { only: [], skip: [], ignore: [] },
    summary: summarize(results),
    blocking: blocking.map((r) => r.id),
    checks: results,
  };
}

/** One result of every kind the formatters distinguish. */
export function mixedResults(): CheckResult[] {
  return [
    result({ id: 'sysctl.numa-balancing', status: 'pass', level: 'recommended', message: 'kernel.numa_balancing is 0' }),
    result({ id: 'sysctl.swappiness', status: 'warn', level: 'recommended', message: 'vm.swappiness is 60, expected at most 1', expected: '<= 1', actual: '60', remediation: 'sudo sysctl -w vm.swappiness=0' }),
    result({ id: 'net.proxy', status: 'warn', level: 'recommended', waived: { reason: 'unset by the launch wrapper (OPS-1234)', expires: '2027-03-31' } }),
    result({ id: 'host.shm', status: 'fail', message: '/dev/shm is 64 MiB, expected at least 1 GiB', remediation: 'docker run --shm-size=16g ...' }),
    result({ id: 'host.disk', status: 'error', message: 'cannot statfs /mnt/weights: permission denied' }),
    result({ id: 'mem.jemalloc', status: 'error', level: 'recommended', message: '"ldconfig -p" did not finish within 500 ms' }),
    result({ id: 'cpu.governor', status: 'skip', level: 'recommended', message: 'cpufreq is not exposed here' }),
  ];
}
