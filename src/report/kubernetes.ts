import { labelKeyProblem, labelValueProblem, toLabelValue } from '../util/k8s-labels.js';
import { formatNpd, formatNpdError } from './npd.js';
import type { AnyReport, Report } from './schema.js';

/**
 * What `qprep serve` tells Kubernetes about its node: labels (through node-feature-discovery's
 * local source, `--nfd-features`) and annotations (`--annotate`), both under qprep's prefix.
 * Labels are what a scheduler and a NodeFeatureRule select on: short values that change only
 * when the node changes (no run id, no time: a label that changes every run rewrites the Node
 * object every run). Annotations carry what a person or a remediation controller reads: the
 * failing checks, the error codes, the one-line reason.
 */
export const LABEL_PREFIX = 'qprep.io';

const key = (name: string) => `${LABEL_PREFIX}/${name}`;

export type RunVerdictLabel = 'ready' | 'not-ready' | 'no-verdict';

function verdictOfReport(report: AnyReport): RunVerdictLabel {
  if (!('checks' in report) || report.error) return 'no-verdict';
  return report.ready ? 'ready' : 'not-ready';
}

/** The evidence of one check, as the check recorded it (machine fields, never translated). */
function evidenceOf(report: Report, id: string): Record<string, unknown> | undefined {
  return report.checks.find((c) => c.id === id)?.evidence;
}

/** One value every element agrees on, or undefined. */
function agreed<T>(values: readonly T[]): T | undefined {
  return values.length > 0 && values.every((v) => v === values[0]) ? values[0] : undefined;
}

/** A3: the server index every die of hccn.spod reports (npu-smi info -t spod-info). */
function serverIndex(report: Report): number | undefined {
  const dies = evidenceOf(report, 'hccn.spod')?.dies;
  if (!Array.isArray(dies)) return undefined;
  const indexes = dies.map((d: unknown) => (d && typeof d === 'object' ? (d as { serverIndex?: unknown }).serverIndex : undefined));
  const index = agreed(indexes);
  return typeof index === 'number' && Number.isInteger(index) ? index : undefined;
}

function hardwareLabels(report: Report): Record<string, string | undefined> {
  const facts = report.facts;
  if (!facts) return {};
  const memory = facts.npus.map((n) => n.memory);
  const kind = agreed(memory.map((m) => m?.kind));
  // the smallest NPU: what a workload can count on on every NPU of the node
  const totals = memory.map((m) => m?.totalMB).filter((mb): mb is number => typeof mb === 'number');
  const perNpu = totals.length === memory.length && totals.length > 0 ? String(Math.min(...totals)) : undefined;
  const tls = facts.devices.map((d) => d.tls).filter((t): t is boolean => t !== undefined);
  const index = serverIndex(report);
  return {
    'npu.family': facts.family === 'unknown' ? undefined : facts.family,
    'npu.count': facts.npus.length > 0 ? String(facts.npus.length) : undefined,
    'npu.hbm-mb': kind === 'hbm' ? perNpu : undefined,
    'npu.ddr-mb': kind === 'ddr' ? perNpu : undefined,
    'driver.version': facts.versions.driver ?? undefined,
    'firmware.version': facts.versions.firmware ?? undefined,
    'cann.version': facts.versions.cann ?? undefined,
    'superpod.id': facts.family === 'a3' && typeof facts.superPod === 'number' ? String(facts.superPod) : undefined,
    'superpod.server-index': facts.family === 'a3' && index !== undefined ? String(index) : undefined,
    'hccn.tls': tls.length === 0 ? undefined : tls.every((t) => !t) ? 'off' : tls.every((t) => t) ? 'on' : 'mixed',
  };
}

/**
 * The node labels of a run: the verdict always; what the NPUs and their software are, when the
 * run read them. Values a tool printed pass through toLabelValue; every key and value is then
 * held to Kubernetes' syntax, and one that fails is a bug (it throws).
 */
export function nodeLabels(report: AnyReport): Record<string, string> {
  const verdict = verdictOfReport(report);
  const raw: Record<string, string | undefined> = {
    ready: verdict === 'ready' ? 'true' : 'false',
    verdict,
    // what to do about the node: the worst action of the run's findings (none when all pass)
    'worst-action': 'checks' in report ? report.summary.worstAction : undefined,
    ...('checks' in report ? hardwareLabels(report) : {}),
  };
  const labels: Record<string, string> = {};
  for (const [name, text] of Object.entries(raw)) {
    if (text === undefined) continue;
    const value = toLabelValue(text);
    if (value === undefined) continue;
    const problem = labelKeyProblem(key(name)) ?? labelValueProblem(value);
    if (problem) throw new Error(`node label ${key(name)}=${value}: ${problem}`);
    labels[key(name)] = value;
  }
  return labels;
}

/**
 * The feature file of node-feature-discovery's local source: `key=value` lines, comments, and
 * an expiry: if the agent stops rewriting it, NFD drops the labels once it has expired (at
 * its next discovery), so a node is never labelled ready by an agent that is gone.
 */
export function featureFileText(labels: Readonly<Record<string, string>>, run: { runId: string | undefined; finishedAt: Date; expiresAt: Date }): string {
  const lines = [
    '# qprep serve: the verdict of this node for node-feature-discovery (local source); rewritten after every run',
    `# run ${run.runId ?? '(no verdict)'} finished ${run.finishedAt.toISOString()}`,
    `# +expiry-time=${run.expiresAt.toISOString().replace(/\.\d{3}Z$/, 'Z')}`,
    ...Object.entries(labels).map(([k, v]) => `${k}=${v}`),
  ];
  return `${lines.join('\n')}\n`;
}

/** The NPU error codes behind a failing npu.health (npu-smi info -t health), as npu<device>:<code>. */
function npuErrorCodes(report: Report): string[] {
  const unhealthy = evidenceOf(report, 'npu.health')?.unhealthy;
  if (!Array.isArray(unhealthy)) return [];
  return unhealthy.flatMap((u: unknown) => {
    const entry = (u ?? {}) as { device?: unknown; errorCodes?: unknown };
    const codes = Array.isArray(entry.errorCodes) ? entry.errorCodes.filter((c): c is string => typeof c === 'string') : [];
    return codes.map((code) => `npu${String(entry.device)}:${code}`);
  });
}

/**
 * The node's annotations for a run (a JSON merge patch: null removes one). The failing checks,
 * the error codes (the NPU fault codes npu-smi reports, and the run's own error code when it
 * had no verdict), the recommended action and the one-line reason; on a ready node the lists
 * are removed.
 */
export function nodeAnnotations(report: AnyReport): Record<string, string | null> {
  const verdict = verdictOfReport(report);
  const full = 'checks' in report ? report : undefined;
  const failing = full ? full.blocking : [];
  const codes = [...(full ? npuErrorCodes(full) : []), ...(report.error ? [`qprep:${report.error.code}`] : [])];
  const reason = (full ? formatNpd(full) : formatNpdError(report as Exclude<AnyReport, Report>)).trimEnd();
  return {
    [key('verdict')]: verdict,
    [key('failing-checks')]: failing.length > 0 ? failing.join(',') : null,
    [key('error-codes')]: codes.length > 0 ? codes.join(',') : null,
    // the recommended action: the worst of the findings (a run without a verdict has none to give)
    [key('action')]: full?.summary.worstAction ?? null,
    [key('reason')]: reason,
  };
}
