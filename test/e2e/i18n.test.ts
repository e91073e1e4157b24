import { describe, expect, it } from 'vitest';
import { qprep } from '../helpers/cli.js';

const BROKEN = ['--snapshot', 'examples/snapshots/a2-broken.json'];

/** The report with what may differ between languages (and between runs) taken out. */
function languageFree(report: Record<string, unknown>): unknown {
  const { lang: _lang, runId: _runId, startedAt: _startedAt, durationMs: _durationMs, ...rest } = report;
  const checks = (rest.checks as Record<string, unknown>[]).map((check) => {
    const { title: _t, message: _m, remediation: _r, details: _d, durationMs: _ms, ...kept } = check;
    return kept;
  });
  return { ...rest, checks };
}

describe('--lang and the language of the environment', () => {
  it('check --lang zh: the JSON report carries lang and a Chinese npu.idle; the rest a program reads is as in English', async () => {
    const [en, zh] = await Promise.all([qprep(['check', ...BROKEN, '-f', 'json', '--lang', 'en']), qprep(['check', ...BROKEN, '-f', 'json', '--lang', 'zh'])]);
    expect(zh.exitCode).toBe(en.exitCode);
    const [english, chinese] = [JSON.parse(en.stdout), JSON.parse(zh.stdout)];
    expect(english.lang).toBe('en');
    expect(chinese.lang).toBe('zh');
    const idle = chinese.checks.find((c: { id: string }) => c.id === 'npu.idle');
    expect(idle.title).toBe('NPU 空闲可用');
    expect(idle.message).toMatch(/被占用/);
    expect(languageFree(chinese)).toEqual(languageFree(english));
  });

  it('LANG=zh_CN.UTF-8 is Chinese, LC_ALL=C over it English, QPREP_LANG over both', async () => {
    const title = async (env: Record<string, string>) => {
      const run = await qprep(['check', ...BROKEN, '--only', 'npu.idle', '-f', 'json'], { env: { QPREP_LANG: '', ...env } });
      return JSON.parse(run.stdout).checks[0].title as string;
    };
    expect(await title({ LANG: 'zh_CN.UTF-8' })).toBe('NPU 空闲可用');
    expect(await title({ LANG: 'zh_CN.UTF-8', LC_ALL: 'C' })).toBe('NPUs free for the workload');
    expect(await title({ LANG: 'zh_CN.UTF-8', QPREP_LANG: 'en' })).toBe('NPUs free for the workload');
  });

  it('a bad --lang or QPREP_LANG is a usage error naming it (exit 2), before anything runs', async () => {
    const flag = await qprep(['check', ...BROKEN, '--lang', 'hz']);
    expect(flag.exitCode).toBe(2);
    expect(flag.stderr).toContain('--lang expects en or zh, got "hz"');
    expect(flag.stderr).toContain('did you mean "zh"?');
    const env = await qprep(['check', ...BROKEN, '-f', 'json'], { env: { QPREP_LANG: 'fr' } });
    expect(env.exitCode).toBe(2);
    expect(JSON.parse(env.stdout).error).toMatchObject({ code: 'usage', message: 'QPREP_LANG expects en or zh, got "fr"' });
  });
});
