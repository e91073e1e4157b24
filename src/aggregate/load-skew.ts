import { loadTimeEvidenceSchema } from '../probes/load-time-evidence.js';
import type { Report } from '../report/schema.js';
import { formatBytes, formatRate } from '../util/size.js';
import type { AggregateLoadTime, Finding } from '../report/aggregate-schema.js';

/**
 * The nodes' load times side by side. The ranks of the nodes meet in their first collectives
 * after the load: a node that is ready waits HCCL_CONNECT_TIMEOUT (its own) for the slowest,
 * then fails with "wait socket establish timeout". So the gap between the slowest node's load
 * and another node's must stay under that node's HCCL_CONNECT_TIMEOUT; the finding names the
 * slowest node and its storage.
 */

/** What a report says of its node's load (model.load-time's evidence); null when it estimated none. */
export interface LoadTimeRecord {
  estimatedSeconds: number;
  bytesToRead: number;
  throughputBytesPerSec: number | null;
  filesystem: string | null;
  mountSource: string | null;
  mountPoint: string | null;
  /** HCCL_CONNECT_TIMEOUT in force on the node, seconds */
  hcclConnectTimeoutSeconds: number | null;
}

/** HCCL_CONNECT_TIMEOUT's range (CANN environment-variable reference): above it, only a faster storage helps. */
const HCCL_CONNECT_MAX_S = 7200;
/** the default, for a report that does not say (an older qprep) */
const HCCL_CONNECT_DEFAULT_S = 120;

export function readLoadTime(report: Report): LoadTimeRecord | null {
  const check = report.checks.find((c) => c.id === 'model.load-time');
  if (!check || (check.status !== 'pass' && check.status !== 'warn' && check.status !== 'fail')) return null;
  const parsed = loadTimeEvidenceSchema.safeParse(check.evidence);
  if (!parsed.success || parsed.data.estimatedSeconds === null) return null;
  const evidence = parsed.data;
  return {
    estimatedSeconds: evidence.estimatedSeconds!,
    bytesToRead: evidence.bytesToRead,
    throughputBytesPerSec: evidence.throughputBytesPerSec,
    filesystem: evidence.filesystem,
    mountSource: evidence.storage?.source ?? null,
    mountPoint: evidence.storage?.mountPoint ?? null,
    hcclConnectTimeoutSeconds: evidence.hcclConnectTimeoutSeconds ?? null,
  };
}

export interface LoadTimeNode {
  name: string;
  load: LoadTimeRecord;
}

function storageOf(load: LoadTimeRecord): string {
  const where = [load.filesystem ?? 'unknown filesystem', load.mountSource].filter(Boolean).join(' ');
  return load.throughputBytesPerSec === null ? where : `${where} at ${formatRate(load.throughputBytesPerSec)}`;
}

/** The export line that covers a gap, within HCCL's range; undefined when no value of it can. */
function connectTimeoutFor(gapSeconds: number): number | undefined {
  const value = Math.ceil((gapSeconds * 1.5) / 60) * 60;
  return value <= HCCL_CONNECT_MAX_S ? Math.max(value, HCCL_CONNECT_DEFAULT_S) : undefined;
}

/** The nodes' estimates and, when the spread outlasts a waiting node's HCCL_CONNECT_TIMEOUT, the finding. */
export function judgeLoadSkew(nodes: readonly LoadTimeNode[]): { loadTime: AggregateLoadTime; findings: Finding[] } | undefined {
  if (nodes.length < 2) return undefined;
  const sorted = [...nodes].sort((a, b) => b.load.estimatedSeconds - a.load.estimatedSeconds);
  const slowest = sorted[0]!;
  const fastest = sorted[sorted.length - 1]!;
  const spread = slowest.load.estimatedSeconds - fastest.load.estimatedSeconds;
  const loadTime: AggregateLoadTime = {
    spreadSeconds: spread,
    slowest: slowest.name,
    fastest: fastest.name,
    nodes: sorted.map((n) => ({
      node: n.name,
      estimatedSeconds: n.load.estimatedSeconds,
      bytesToRead: n.load.bytesToRead,
      throughputBytesPerSec: n.load.throughputBytesPerSec,
      filesystem: n.load.filesystem,
      mountSource: n.load.mountSource,
      hcclConnectTimeoutSeconds: n.load.hcclConnectTimeoutSeconds,
    })),
  };
  // every node that waits longer than its own HCCL_CONNECT_TIMEOUT for the slowest one
  const waiting = sorted.slice(1).filter((n) => slowest.load.estimatedSeconds - n.load.estimatedSeconds > (n.load.hcclConnectTimeoutSeconds ?? HCCL_CONNECT_DEFAULT_S));
  if (waiting.length === 0) return { loadTime, findings: [] };
  const worst = waiting[waiting.length - 1]!;
  const gap = slowest.load.estimatedSeconds - worst.load.estimatedSeconds;
  const timeout = worst.load.hcclConnectTimeoutSeconds ?? HCCL_CONNECT_DEFAULT_S;
  const others = waiting.length > 1 ? ` (and ${waiting.length - 1} more ${waiting.length - 1 === 1 ? 'node' : 'nodes'})` : '';
  const message =
    `${slowest.name} loads its weights in ~${slowest.load.estimatedSeconds} s from ${storageOf(slowest.load)}, ${gap} s after ${worst.name} ` +
    `(~${worst.load.estimatedSeconds} s from ${storageOf(worst.load)})${others}: more than HCCL_CONNECT_TIMEOUT ${timeout} s, ` +
    `so ${worst.name} gives up waiting for it ("wait socket establish timeout")`;
  const value = connectTimeoutFor(gap);
  const copy = `copy the weights of ${slowest.name} (${formatBytes(slowest.load.bytesToRead)}) to a local disk${slowest.load.mountPoint ? ` (they are on ${slowest.load.mountPoint})` : ''}, as fast as the other nodes' storage`;
  const remediation =
    value === undefined
      ? `${copy}: no HCCL_CONNECT_TIMEOUT covers a gap of ${gap} s (at most ${HCCL_CONNECT_MAX_S} s)`
      : `${copy}\nor: export HCCL_CONNECT_TIMEOUT=${value}   # in the launch script of every node, the same value: 1.5 x the ${gap} s gap`;
  return {
    loadTime,
    findings: [{ severity: 'fail', kind: 'load-skew', message, nodes: [slowest.name, ...waiting.map((n) => n.name)], remediation }],
  };
}
