import { describe, expect, it } from 'vitest';
import check from '../../../checks/net.proxy.js';
import { expectRemediation, runOn } from '../../helpers/run-check.js';
import { expectChineseTwin } from '../../helpers/zh.js';

describe('net.proxy', () => {
  it('passes without proxy variables', async () => {
    const { outcome } = await runOn(check, { env: { PATH: '/bin', no_proxy: 'localhost' } });
    expect(outcome.status).toBe('pass');
  });

  it('warns with the variables, redacting credentials everywhere', async () => {
    const { outcome, result } = await runOn(check, {
      env: { https_proxy: 'http://alice:s3cret@proxy.corp:3128', HTTP_PROXY: 'http://proxy.corp:3128', no_proxy: '10.0.0.0/8' },
    });
    expect(outcome.status).toBe('warn');
    expect(result.status).toBe('warn');
    expect(outcome.message).toContain('https_proxy=http://***@proxy.corp:3128');
    expect(outcome.message).toContain('no_proxy lacks localhost, 127.0.0.1');
    expect(JSON.stringify(outcome)).not.toContain('s3cret');
    expect(JSON.stringify(outcome)).not.toContain('alice');
    expect(outcome.remediation).toContain('unset https_proxy HTTP_PROXY');
    expectRemediation(outcome);
  });

  it('still warns when no_proxy covers localhost (the guides unset them anyway)', async () => {
    const { outcome } = await runOn(check, { env: { http_proxy: 'http://p:1', NO_PROXY: 'localhost,127.0.0.1' } });
    expect(outcome.status).toBe('warn');
    expect(outcome.message).toContain('no_proxy covers localhost');
  });
});

describe('net.proxy in Chinese', () => {
  it('the pass and the warning in Chinese; the unset line intact, credentials still redacted', async () => {
    const ok = await runOn(check, { env: { PATH: '/bin' } }, {}, { lang: 'zh' });
    expect(ok.result.title).toBe('HTTP 代理变量');
    expect(ok.outcome.message).toBe('未设置代理变量');
    const spec = { env: { https_proxy: 'http://alice:s3cret@proxy.corp:3128', no_proxy: '10.0.0.0/8' } };
    const english = await runOn(check, spec);
    const chinese = await runOn(check, spec, {}, { lang: 'zh' });
    expect(chinese.outcome.message).toBe('已设置代理变量（https_proxy=http://***@proxy.corp:3128）；no_proxy 缺少 localhost, 127.0.0.1');
    expect(JSON.stringify(chinese.outcome)).not.toContain('s3cret');
    expectChineseTwin(english.outcome, chinese.outcome, ['unset https_proxy', 'export no_proxy=localhost,127.0.0.1,']);
  });
});
