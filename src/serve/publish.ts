import { patchNodeAnnotations, type KubeApiConfig } from '../host/kube-api.js';
import { writeOutputFile } from '../host/output.js';
import { featureFileText, nodeAnnotations, nodeLabels } from '../report/kubernetes.js';
import type { AnyReport } from '../report/schema.js';
import { STALE_AFTER_INTERVALS } from './policy.js';

export interface PublishOptions {
  intervalMs: number;
  /** --nfd-features FILE */
  featureFile?: string;
  /** --annotate NODE, and how to reach the API server */
  annotate?: { node: string; api: KubeApiConfig };
}

/**
 * What serve publishes after every run: the feature file (rewritten every run, with an expiry
 * of 2 intervals: the same age at which /readyz calls a report stale) and the node's
 * annotations (patched when they change, and again after a patch that failed). Every part is
 * tried; the first failure is thrown once all were.
 */
export function createPublisher(options: PublishOptions): ((report: AnyReport, finishedAtMs: number) => Promise<void>) | undefined {
  const { featureFile, annotate } = options;
  if (featureFile === undefined && annotate === undefined) return undefined;
  let patched: string | undefined;
  return async (report, finishedAtMs) => {
    const parts: Array<Promise<void>> = [];
    if (featureFile !== undefined) {
      const finishedAt = new Date(finishedAtMs);
      const expiresAt = new Date(finishedAtMs + STALE_AFTER_INTERVALS * options.intervalMs);
      const text = featureFileText(nodeLabels(report), { runId: 'runId' in report ? report.runId : undefined, finishedAt, expiresAt });
      // nfd-worker reads it, and the labels are public on the Node object anyway
      parts.push(writeOutputFile(featureFile, text, 0o644));
    }
    if (annotate !== undefined) {
      const annotations = nodeAnnotations(report);
      const content = JSON.stringify(annotations);
      // the Node object is written only when the verdict's annotations change
      if (content !== patched) {
        parts.push(
          patchNodeAnnotations(annotate.api, annotate.node, annotations).then(() => {
            patched = content;
          }),
        );
      }
    }
    const results = await Promise.allSettled(parts);
    const failed = results.find((r): r is PromiseRejectedResult => r.status === 'rejected');
    if (failed) throw failed.reason;
  };
}
