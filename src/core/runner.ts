import type { LoadedCluster } from '../cluster/load.js';
import { detectContainer, type ContainerInfo } from '../host/container.js';
import type { Host } from '../host/types.js';
import { describeCheck, textFor, type Catalogue, type Lang } from '../i18n/index.js';
import { en } from '../i18n/en/index.js';
import { Semaphore } from '../util/semaphore.js';
import { withTimeout } from '../util/timeout.js';
import type { HealthLedger } from './health-ledger.js';
import type { LaunchInput } from './launch-input.js';
import type { Profile } from './profile.js';
import type { Action } from './ids/actions.js';
import type { ActionRule, Check, CheckContext, CheckResult, Level, Outcome, Status, Waiver } from './types.js';

export interface RunOptions {
  /** checks running at once */
  concurrency: number;
  /** commands running at once, all tools together */
  commandConcurrency: number;
  /** commands running at once per executable name; hccn_tool answers "busy" when run concurrently */
  toolLimits: Readonly<Record<string, number>>;
  /** timeout of one probe */
  timeoutMs: number;
  /** ids whose fail is downgraded to warn; "all" for every check */
  ignore: ReadonlySet<string> | 'all';
  now?: () => Date;
  onCheckDone?: (result: CheckResult, done: number, total: number) => void;
}

/** What a run's checks share: the host, the profile and the run's settings. */
export interface ContextOptions {
  host: Host;
  profile: Profile;
  timeoutMs: number;
  /** the clock; the wall clock when not given */
  now?: () => Date;
  cluster?: LoadedCluster;
  launch?: LaunchInput;
  /** the language of the messages; English when not given */
  lang?: Lang;
  /** false: --no-io-probe */
  ioProbe?: boolean;
  /** qprep serve: what earlier runs observed */
  history?: HealthLedger;
}

export function createContext(options: ContextOptions): CheckContext {
  const { host, profile, timeoutMs, now = () => new Date(), cluster, launch, lang = 'en', ioProbe, history } = options;
  const memo = new Map<string, Promise<unknown>>();
  const shared = <T>(key: string, compute: () => Promise<T>): Promise<T> => {
    let promise = memo.get(key) as Promise<T> | undefined;
    if (!promise) {
      promise = compute();
      memo.set(key, promise);
    }
    return promise;
  };
  return {
    host,
    profile,
    timeoutMs,
    shared,
    container: () => shared<ContainerInfo>('container', () => detectContainer(host)),
    now,
    ...(cluster ? { cluster } : {}),
    ...(launch ? { launch } : {}),
    ...(ioProbe === false ? { ioProbe } : {}),
    ...(history ? { history } : {}),
    lang,
    text: textFor(lang),
  };
}

export function effectiveLevel(check: Check, profile: Profile): Level {
  return profile.levels[check.id] ?? check.level;
}

/** The watchdog of one check: probes have their own timeouts, this catches a check that loops. */
export function checkBudgetMs(check: Check, ctx: CheckContext): number {
  return check.budgetMs?.(ctx) ?? ctx.timeoutMs * 4 + 5000;
}

export const WAIVER_REFUSED = 'waiver not applied: error means could not assess; use --skip';

export interface PolicyInput {
  level: Level;
  ignored: boolean;
  waivers: Profile['waivers'];
  now: Date;
  /** the catalogue of the run's language, for the title; English when not given */
  text?: Catalogue;
}

/**
 * Turns what a check observed into what the report says: a recommended check's fail is a warn;
 * an ignored or waived fail or warn is a warn that says so. An error is never waived: it means the node
 * could not be assessed (skip the check instead).
 */
export function applyPolicy(check: Check, outcome: Outcome, input: PolicyInput): Omit<CheckResult, 'durationMs'> {
  let status = outcome.status;
  let message = outcome.message;
  let waived: CheckResult['waived'];
  let expired: Required<Waiver> | undefined;
  let refused: string | undefined;
  // Waivers come first, so that a waived warning of a recommended check is recorded as waived
  // (and --strict respects it) just like a waived failure of a required one.
  if (status === 'fail' || status === 'warn') {
    const today = input.now.toISOString().slice(0, 10);
    const waiver = input.waivers.find((w) => w.id === check.id);
    const found = status;
    if (input.ignored) {
      status = 'warn';
      waived = { reason: 'ignored with --ignore', found };
    } else if (waiver && (!waiver.expires || waiver.expires >= today)) {
      status = 'warn';
      waived = waiver.expires ? { reason: waiver.reason, expires: waiver.expires, found } : { reason: waiver.reason, found };
    } else if (waiver?.expires) {
      message = (input.text ?? en).report.waiverExpiredMessage({ message, expires: waiver.expires });
      expired = { reason: waiver.reason, expires: waiver.expires };
    }
  }
  if (status === 'error' && (input.ignored || input.waivers.some((w) => w.id === check.id))) {
    refused = WAIVER_REFUSED;
  }
  if (status === 'fail' && input.level === 'recommended') status = 'warn';
  const result: Omit<CheckResult, 'durationMs'> = {
    id: check.id,
    title: input.text ? describeCheck(check.id, input.text).title : check.title,
    category: check.category,
    level: input.level,
    status,
    message,
    evidence: outcome.evidence ?? {},
  };
  if (outcome.expected !== undefined) result.expected = outcome.expected;
  if (outcome.actual !== undefined) result.actual = outcome.actual;
  if (outcome.remediation !== undefined) result.remediation = outcome.remediation;
  if (outcome.details !== undefined && outcome.details.length > 0) result.details = outcome.details;
  if (waived) result.waived = waived;
  if (refused) result.waiverRefused = refused;
  if (expired) result.waiverExpired = expired;
  if (outcome.causedBy !== undefined && outcome.causedBy !== check.id && status !== 'pass') result.causedBy = outcome.causedBy;
  const action = actionOf(check.action, outcome);
  if (action !== undefined) result.action = action;
  return result;
}

/**
 * The action of a result: the outcome's own, else what the check's rule says for the status it
 * was observed with (a recommended check's fail reported as warn, or a waived one, keeps the
 * action of what was found); undefined on a pass.
 */
export function actionOf(rule: ActionRule, outcome: Pick<Outcome, 'status' | 'action'>): Action | undefined {
  const status: Status = outcome.status;
  if (status === 'pass') return undefined;
  if (outcome.action !== undefined) return outcome.action;
  if (typeof rule === 'string') return status === 'error' ? 'reconfigure' : status === 'skip' ? 'none' : rule;
  if (status === 'fail') return rule.fail;
  if (status === 'warn') return rule.warn ?? rule.fail;
  if (status === 'error') return rule.error ?? 'reconfigure';
  return rule.skip ?? 'none';
}

function firstLine(text: string): string {
  return text.split('\n')[0] ?? '';
}

async function runOne(check: Check, ctx: CheckContext): Promise<Outcome> {
  const budget = checkBudgetMs(check, ctx);
  const t = ctx.text.errors;
  try {
    return await withTimeout(check.run(ctx), budget, () => ({
      status: 'error' as const,
      message: t.checkTimedOut({ id: check.id, budgetMs: budget }),
      remediation: t.largerTimeout({ id: check.id }),
      action: 'reconfigure' as const,
    }));
  } catch (caught) {
    const reason = caught instanceof Error ? caught.message : String(caught);
    return {
      status: 'error',
      message: t.internalError({ id: check.id, reason: firstLine(reason) }),
      remediation: t.reportInternal({ id: check.id }),
      // a defect of qprep, not of the host: nothing to do on the node but report it
      action: 'none',
      evidence: { stack: caught instanceof Error ? (caught.stack ?? '').split('\n').slice(0, 6).join('\n') : reason },
    };
  }
}

/**
 * Runs the checks concurrently (at most `concurrency` at once) and returns their results in
 * catalogue order, whatever order they finish in. One check's exception or hang is that
 * check's `error`; the others still report.
 */
export async function runChecks(checks: readonly Check[], ctx: CheckContext, options: RunOptions): Promise<CheckResult[]> {
  const now = options.now?.() ?? ctx.now();
  const results: CheckResult[] = new Array(checks.length);
  const slots = new Semaphore(options.concurrency);
  // Only a head start: the check asks for the same probes when it runs, so a prefetch that fails is ignored.
  for (const check of checks) {
    try {
      Promise.resolve(check.prefetch?.(ctx)).catch(() => undefined);
    } catch {
      // a prefetch that throws at once is ignored too
    }
  }
  let done = 0;
  await Promise.all(
    checks.map((check, index) =>
      slots.use(async () => {
        const started = performance.now();
        const outcome = await runOne(check, ctx);
        const ignored = options.ignore === 'all' || options.ignore.has(check.id);
        const result: CheckResult = {
          ...applyPolicy(check, outcome, { level: effectiveLevel(check, ctx.profile), ignored, waivers: ctx.profile.waivers, now, text: ctx.text }),
          durationMs: Math.round(performance.now() - started),
        };
        results[index] = result;
        done++;
        options.onCheckDone?.(result, done, checks.length);
      }),
    ),
  );
  return linkCauses(results);
}

/**
 * A dependant names its cause only while that cause is in the report and did not pass itself
 * (run with --skip npu.smi, the NPU checks stand on their own); chains end at their first link
 * so that every dependant is listed under the one result that says what went wrong.
 */
export function linkCauses(results: CheckResult[]): CheckResult[] {
  const byId = new Map(results.map((r) => [r.id, r]));
  const rootOf = (result: CheckResult, seen = new Set<string>()): CheckResult | undefined => {
    const cause = result.causedBy === undefined ? undefined : byId.get(result.causedBy);
    if (!cause || cause.status === 'pass' || seen.has(cause.id)) return undefined;
    seen.add(result.id);
    return rootOf(cause, seen) ?? cause;
  };
  return results.map((result) => {
    if (result.causedBy === undefined) return result;
    const root = rootOf(result);
    const { causedBy: _dropped, ...rest } = result;
    return root ? { ...rest, causedBy: root.id } : rest;
  });
}
