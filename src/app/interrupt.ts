import { describeCheck, textFor } from '../i18n/index.js';
import { effectiveLevel } from '../core/runner.js';
import type { Check, CheckContext, CheckResult } from '../core/types.js';
import { stopAllCommands } from '../host/exec.js';
import { exitProcess } from '../host/exit.js';
import type { HostInfo, Report } from '../report/schema.js';
import { takeSignals } from './signals.js';

/**
 * SIGINT, SIGTERM and SIGHUP during `qprep check` (Ctrl-C, Ansible's or systemd's timeout,
 * docker stop, a closed terminal or SSH session):
 * the running probes are killed with their process groups, no new command starts, and the run
 * ends with a partial report marked interrupted and exit code 2. A second signal, or a report
 * that cannot be written within REPORT_GRACE_MS, ends qprep at once, still with exit code 2.
 * A signal that comes once every check has finished (settle()) changes nothing in the report:
 * it is complete, and written with its own verdict and exit code.
 */

/** docker stop sends SIGKILL 10 s after SIGTERM; the partial report must be out well before. */
export const REPORT_GRACE_MS = 3000;

export interface Interruption {
  /** resolves with the first SIGINT, SIGTERM or SIGHUP; never resolves when none comes */
  readonly signal: Promise<NodeJS.Signals>;
  /** the signal, once it came */
  readonly received: NodeJS.Signals | undefined;
  /** Every check has finished: a signal from now on no longer cuts the report (or snapshot) short. */
  settle(document: 'report' | 'snapshot'): void;
}

export function watchInterruption(): Interruption {
  let received: NodeJS.Signals | undefined;
  let settled: 'report' | 'snapshot' | undefined;
  let resolve: (signal: NodeJS.Signals) => void = () => undefined;
  const signal = new Promise<NodeJS.Signals>((r) => {
    resolve = r;
  });
  const onSignal = (sig: NodeJS.Signals) => {
    if (received) {
      process.stderr.write(`\nqprep: error: ${sig} again: exiting without a report\n`);
      void exitProcess(2);
      return;
    }
    received = sig;
    stopAllCommands();
    const document = settled ? `complete ${settled}` : 'partial report';
    // a check's report keeps its verdict (and exit code); a snapshot has none
    const verdict = settled === 'report' ? ', with its verdict' : '';
    process.stderr.write(
      settled
        ? `\nqprep: ${sig} came after every check had finished: writing the ${document}${verdict}\n`
        : `\nqprep: interrupted by ${sig}: running probes were killed; writing the partial report\n`,
    );
    setTimeout(() => {
      process.stderr.write(`qprep: error: the ${document} could not be written within ${REPORT_GRACE_MS} ms after ${sig}; exiting without it\n`);
      void exitProcess(2);
    }, REPORT_GRACE_MS).unref();
    resolve(sig);
  };
  takeSignals(onSignal);
  return {
    signal,
    get received() {
      return received;
    },
    settle(document: 'report' | 'snapshot') {
      settled = document;
    },
  };
}

export type UntilInterrupted<T> = { value: T } | { signal: NodeJS.Signals };

/**
 * The value of `work`, or the signal when one comes first. The work goes on in the background
 * until qprep exits; its late failure must not crash the exit path.
 */
export async function untilInterrupted<T>(work: Promise<T>, interrupted: Promise<NodeJS.Signals> | undefined): Promise<UntilInterrupted<T>> {
  if (!interrupted) return { value: await work };
  work.catch(() => undefined);
  return Promise.race([work.then((value) => ({ value })), interrupted.then((signal) => ({ signal }))]);
}

/** The report line of a check that was still running (or waiting) when the signal came. */
export function unfinishedResult(check: Check, ctx: CheckContext, signal: NodeJS.Signals, durationMs: number): CheckResult {
  return {
    id: check.id,
    title: describeCheck(check.id, ctx.text).title,
    category: check.category,
    level: effectiveLevel(check, ctx.profile),
    status: 'error',
    message: ctx.text.errors.unfinished({ signal }),
    remediation: ctx.text.errors.runAgain,
    // the run was stopped, not the host found wanting: nothing to do but run it again
    action: 'none',
    evidence: { interrupted: signal },
    durationMs,
  };
}

/** What the header says when the host could not be described before the signal. */
export async function minimalHostInfo(ctx: CheckContext): Promise<HostInfo> {
  const identity = await ctx.host.identity();
  return { hostname: identity.hostname, arch: identity.arch, kernel: identity.kernel, os: 'unknown', inContainer: false, containerRuntime: null };
}

/**
 * Marks a report as interrupted: never ready, the unfinished checks blocking (whatever their
 * level: the node was not assessed), and the `error` that every exit-2 document carries.
 */
export function markInterrupted(report: Report, signal: NodeJS.Signals, unfinished: readonly string[]): Report {
  const total = report.checks.length;
  const t = textFor(report.lang === 'zh' ? 'zh' : 'en').errors;
  const message = unfinished.length > 0 ? t.interruptedChecks({ signal, unfinished: unfinished.length, total }) : t.interruptedReport({ signal });
  return {
    ...report,
    ready: false,
    blocking: [...new Set([...report.blocking, ...unfinished])],
    interrupted: { signal, unfinished: [...unfinished] },
    error: { code: 'interrupted', message },
  };
}
