import { expect } from 'vitest';
import type { Check, Outcome } from '../../src/core/types.js';
import type { FakeHostSpec } from './fake-host.js';
import { runOn, type CheckRun, type RunOptions } from './run-check.js';

const HAN = /\p{Script=Han}/u;

/** The command part of a remediation line: what comes before a comment ("   #") or an alternative ("   (or: "). */
export function commandOf(line: string): string {
  return line.split(/ {3}(?:#|\()/)[0]!.trim();
}

/**
 * Runs a check in English and in Chinese on the same host and asserts what must not change
 * with the language: status, level, expected, actual, evidence, the cause; and that the
 * Chinese title and message are Chinese. Returns both runs for the exact assertions.
 */
export async function runInBoth(check: Check, spec: FakeHostSpec, overrides: Record<string, unknown> = {}, options: RunOptions = {}): Promise<{ en: CheckRun; zh: CheckRun }> {
  const en = await runOn(check, spec, overrides, { ...options, lang: 'en' });
  const zh = await runOn(check, spec, overrides, { ...options, lang: 'zh' });
  const same = (outcome: Outcome) => ({
    status: outcome.status,
    expected: outcome.expected,
    actual: outcome.actual,
    evidence: outcome.evidence,
    causedBy: outcome.causedBy,
    hasRemediation: outcome.remediation !== undefined,
  });
  expect(same(zh.outcome)).toEqual(same(en.outcome));
  expect(zh.result.id).toBe(en.result.id);
  expect(zh.result.level).toBe(en.result.level);
  expect(zh.result.status).toBe(en.result.status);
  expect(zh.result.title).toMatch(HAN);
  expect(zh.outcome.message).toMatch(HAN);
  expect(zh.outcome.message).not.toBe(en.outcome.message);
  if (en.outcome.remediation !== undefined) {
    expect(zh.outcome.remediation!.split('\n')).toHaveLength(en.outcome.remediation.split('\n').length);
  }
  return { en, zh };
}

/** Every command of the English remediation is in the Chinese one, byte for byte, on the same line. */
export function expectSameCommands(en: Outcome, zh: Outcome): void {
  const lines = (outcome: Outcome) => (outcome.remediation ?? '').split('\n');
  const english = lines(en);
  const chinese = lines(zh);
  english.forEach((line, i) => {
    if (/^or: /.test(line)) expect(chinese[i]).toMatch(/^or: /);
    // a line that starts with a command keeps it; a prose line is translated as a whole
    if (/^(sudo |echo |export |kill |docker |modelscope |huggingface-cli |\/)/.test(line)) expect(commandOf(chinese[i]!)).toBe(commandOf(line));
  });
  const alternative = (line: string) => / {3}\(or: (.+)\)$/.exec(line)?.[1];
  english.forEach((line, i) => expect(alternative(chinese[i]!)).toBe(alternative(line)));
}
