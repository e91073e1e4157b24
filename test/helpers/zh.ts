import { expect } from 'vitest';
import type { Outcome } from '../../src/core/types.js';

const HAN = /\p{Script=Han}/u;

/**
 * The Chinese run of a check beside the English one: what a program reads (status, expected,
 * actual, evidence, causedBy) is the same; what a person reads (message, remediation, details)
 * is in Chinese; and each command named keeps its bytes in both.
 */
export function expectChineseTwin(english: Outcome, chinese: Outcome, commands: readonly string[] = []): void {
  expect(chinese.status).toBe(english.status);
  expect(chinese.expected).toBe(english.expected);
  expect(chinese.actual).toBe(english.actual);
  expect(chinese.evidence).toEqual(english.evidence);
  expect(chinese.causedBy).toBe(english.causedBy);
  expect(chinese.action).toBe(english.action);
  expect(chinese.message).toMatch(HAN);
  expect(chinese.message).not.toBe(english.message);
  if (english.remediation !== undefined) expect(chinese.remediation).toMatch(HAN);
  expect(chinese.details?.length ?? 0).toBe(english.details?.length ?? 0);
  for (const detail of chinese.details ?? []) expect(detail).toMatch(HAN);
  for (const command of commands) {
    expect(english.remediation).toContain(command);
    expect(chinese.remediation).toContain(command);
  }
}
