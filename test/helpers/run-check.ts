import { expect } from 'vitest';
import { loadBuiltinProfile, mergeProfiles, profileSchema, type Profile } from '../../src/core/profile.js';
import { applyPolicy, createContext, effectiveLevel } from '../../src/core/runner.js';
import type { LaunchInput } from '../../src/core/launch-input.js';
import type { Lang } from '../../src/i18n/lang.js';
import type { Check, CheckResult, Outcome } from '../../src/core/types.js';
import { FakeHost, type FakeHostSpec } from './fake-host.js';

export function profileWith(overrides: Record<string, unknown> = {}, base = 'default'): Profile {
  const builtin = loadBuiltinProfile(base).profile;
  return profileSchema.parse(mergeProfiles(builtin, overrides));
}

export interface CheckRun {
  outcome: Outcome;
  result: Omit<CheckResult, 'durationMs'>;
  host: FakeHost;
}

export interface RunOptions {
  /** the text of a --launch script (file name "run.sh"), or the whole input */
  launch?: string | LaunchInput;
  /** the language of the run's text; English by default */
  lang?: Lang;
  /** false: the run of --no-io-probe */
  ioProbe?: boolean;
}

/** Runs one check on a fake host, the way the runner would, and returns both its outcome and its report line. */
export async function runOn(check: Check, spec: FakeHostSpec, profileOverrides: Record<string, unknown> = {}, options: RunOptions = {}): Promise<CheckRun> {
  const host = new FakeHost(spec);
  const profile = profileWith(profileOverrides);
  const launch = typeof options.launch === 'string' ? { file: 'run.sh', text: options.launch, from: 'file' as const } : options.launch;
  const ctx = createContext({ host, profile, timeoutMs: 1000, now: () => new Date('2026-12-01T00:00:00Z'), launch, lang: options.lang ?? 'en', ...(options.ioProbe === false ? { ioProbe: false } : {}) });
  let outcome: Outcome;
  try {
    outcome = await check.run(ctx);
  } catch (error) {
    outcome = { status: 'error', message: `threw: ${(error as Error).message}` };
  }
  const result = applyPolicy(check, outcome, { level: effectiveLevel(check, profile), ignored: false, waivers: [], now: new Date(), text: ctx.text });
  return { outcome, result, host };
}

/** Every non-pass outcome names a fix. */
export function expectRemediation(outcome: Outcome): void {
  if (outcome.status !== 'pass') expect(outcome.remediation, `${outcome.status} without remediation: ${outcome.message}`).toBeTruthy();
  expect(outcome.message).not.toContain('\n');
}
