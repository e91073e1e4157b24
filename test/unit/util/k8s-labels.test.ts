import { describe, expect, it } from 'vitest';
import { dnsSubdomainProblem, labelKeyProblem, labelValueProblem, toLabelValue } from '../../../src/util/k8s-labels.js';

/** The rules of https://kubernetes.io/docs/concepts/overview/working-with-objects/labels/#syntax-and-character-set, case by case. */
describe('Kubernetes label syntax', () => {
  it("accepts the documentation's own keys and values", () => {
    for (const key of ['environment', 'tier', 'app.kubernetes.io/name', 'example.com/my-label', 'a', 'A_b.C-9', 'qprep.io/npu.hbm-mb'])
      expect(labelKeyProblem(key, { reservedAllowed: true }), key).toBeUndefined();
    for (const value of ['production', 'frontend', '', 'v1.2.3', '25.5.1', '8.5.RC1', 'a', 'A-b_c.9']) expect(labelValueProblem(value), value).toBeUndefined();
  });

  it('refuses names that do not begin and end with an alphanumeric or hold other characters', () => {
    for (const key of ['-a', 'a-', '.a', 'a_', 'a b', 'a/b/c', 'ä', 'a:b', 'a,b', '']) expect(labelKeyProblem(key), key).toBeDefined();
  });

  it('limits the name to 63 characters and the prefix to 253, each DNS label to 63', () => {
    expect(labelKeyProblem('a'.repeat(63))).toBeUndefined();
    expect(labelKeyProblem('a'.repeat(64))).toMatch(/64 characters, over 63/);
    const prefix = Array.from({ length: 4 }, () => 'b'.repeat(63)).join('.'); // 255 characters
    expect(labelKeyProblem(`${prefix}/x`)).toMatch(/255 characters, over 253/);
    expect(labelKeyProblem(`${'c'.repeat(64)}.io/x`)).toMatch(/DNS label/);
    expect(labelKeyProblem(`${'c'.repeat(63)}.io/x`)).toBeUndefined();
  });

  it('wants the prefix in lower case, as a DNS subdomain, and keeps Kubernetes its own prefixes', () => {
    expect(labelKeyProblem('Example.com/x')).toMatch(/DNS label "Example"/);
    expect(labelKeyProblem('example_com/x')).toBeDefined();
    expect(labelKeyProblem('/x')).toBe('the prefix is empty');
    expect(labelKeyProblem('example.com/')).toBe('the name is empty');
    expect(labelKeyProblem('kubernetes.io/hostname')).toMatch(/reserved/);
    expect(labelKeyProblem('node.k8s.io/x')).toMatch(/reserved/);
    expect(labelKeyProblem('kubernetes.io/hostname', { reservedAllowed: true })).toBeUndefined();
    expect(dnsSubdomainProblem('qprep.io')).toBeUndefined();
  });

  it('limits a value to 63 characters of the name set, or empty', () => {
    expect(labelValueProblem('v'.repeat(63))).toBeUndefined();
    expect(labelValueProblem('v'.repeat(64))).toMatch(/over 63/);
    for (const value of ['-v', 'v.', 'a b', '1/2', 'x+y', 'é']) expect(labelValueProblem(value), value).toBeDefined();
  });

  it('turns what a tool printed into a valid value, or none', () => {
    expect(toLabelValue('25.5.1')).toBe('25.5.1');
    expect(toLabelValue('7.1.0.7.220')).toBe('7.1.0.7.220');
    expect(toLabelValue('8.3.RC1 (beta)')).toBe('8.3.RC1__beta');
    expect(toLabelValue('  1.0+git ')).toBe('1.0_git');
    expect(toLabelValue('---')).toBeUndefined();
    expect(toLabelValue('')).toBeUndefined();
    const long = toLabelValue(`${'x'.repeat(62)}.-y`)!;
    expect(long).toBe('x'.repeat(62));
    for (const text of ['a'.repeat(100), '版本 1.0', '_x_', 'a..b', '1.0-rc.1+build.5']) {
      const value = toLabelValue(text);
      if (value !== undefined) expect(labelValueProblem(value), text).toBeUndefined();
    }
  });
});
