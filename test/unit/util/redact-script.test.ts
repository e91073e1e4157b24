import { describe, expect, it } from 'vitest';
import { Redactor, redactEnvValue, redactMessage, redactScript } from '../../../src/util/redact.js';
import { isSecret } from '../../../src/util/secrets.js';

describe('redactScript', () => {
  it('removes secret-named values, --api-key values and URL credentials, and keeps every line where it was', () => {
    const script = [
      'export HF_TOKEN="hf_abc def"',
      'export A=1 MODELSCOPE_API_TOKEN=ms-123',
      'MY_PASSWORD=pw vllm serve /m --api-key sk-123 \\',
      '  --api_key=sk-456 --port 8000',
      'export http_proxy=http://user:pw@proxy:3128',
      'nic_name="xxx"',
      'export PASSWORD=',
    ].join('\n');
    const redacted = redactScript(script);
    expect(redacted.split('\n')).toEqual([
      'export HF_TOKEN="***"',
      'export A=1 MODELSCOPE_API_TOKEN=***',
      'MY_PASSWORD=*** vllm serve /m --api-key *** \\',
      '  --api_key=*** --port 8000',
      'export http_proxy=http://***@proxy:3128',
      'nic_name="xxx"',
      'export PASSWORD=',
    ]);
  });

  it('a secret quoted over several lines keeps its line breaks, so the lines after it keep their numbers', () => {
    expect(redactScript("export SSH_PRIVATE_KEY='-----BEGIN\nabc\n-----END'\nvllm serve /m")).toBe("export SSH_PRIVATE_KEY='***\n\n'\nvllm serve /m");
  });

  it('hides JSON members with secret names inside flag values, Bearer tokens, webhook paths and secret query parameters', () => {
    const line = `--kv-transfer-config '{"kv_role": "kv_both", "password": "p1", "api_token": 7, "num_speculative_tokens": 1}'`;
    expect(redactScript(line)).toBe(`--kv-transfer-config '{"kv_role": "kv_both", "password": "***", "api_token": ***, "num_speculative_tokens": 1}'`);
    expect(redactScript('curl -H "Authorization: Bearer abc.def" https://x')).toBe('curl -H "Authorization: Bearer ***" https://x');
    expect(redactScript('curl -H "X: bearer tok123"')).toBe('curl -H "X: bearer ***"');
    expect(redactScript('notify https://hooks.slack.com/services/T/B/xyz')).toBe('notify https://hooks.slack.com/***');
    expect(redactScript('curl "https://oapi.dingtalk.com/robot/send?access_token=abc"')).toBe('curl "https://oapi.dingtalk.com/***"');
    expect(redactScript('wget https://example.com/file?sig=abcd&x=1')).toBe('wget https://example.com/file?sig=***&x=1');
  });

  it('leaves flags and values that only look alike: counts of tokens, tokenizers, key files', () => {
    const line = 'vllm serve /m --tokenizer /t --max-num-batched-tokens 8192 --return-tokens-as-token-ids --ssl-keyfile /k.pem --port 8000';
    expect(redactScript(line)).toBe(line);
  });
});

describe('the redaction policy', () => {
  it('names: secret words at the end or anywhere for the strong ones; PWD is a directory', () => {
    for (const name of ['HF_TOKEN', 'hfToken', '--hf-token', '--api-key', 'MYSQL_PWD', 'PGPASSWORD', 'SESSION', 'COOKIE', 'KUBECONFIG_DATA', 'JAVA_TOOL_OPTIONS', 'AWS_SECRET_ACCESS_KEY', 'access_token', 'ALERT_WEBHOOK_URL']) {
      expect(isSecret({ name, value: 'x' }), name).toBe(true);
    }
    for (const name of ['PWD', 'OLDPWD', 'PATH', 'TOKENIZERS_PARALLELISM', 'num_speculative_tokens', '--max-num-batched-tokens', 'HCCL_IF_IP', 'kv_role', '--ssl-keyfile']) {
      expect(isSecret({ name, value: 'x' }), name).toBe(false);
    }
  });

  it('environment values: URL credentials anywhere in the value, Bearer tokens, and the whole value of a secret-named variable', () => {
    expect(redactEnvValue('PIP_INSTALL_OPTIONS', '--index-url=https://u:pw@mirror/simple')).toBe('--index-url=https://***@mirror/simple');
    expect(redactEnvValue('JAVA_TOOL_OPTIONS', '-Dx.password=1')).toBe('***');
    expect(redactEnvValue('HEADERS', 'Authorization: Basic dXNlcjpwdw==')).toBe('Authorization: Basic ***');
  });

  it('a value hidden once is hidden wherever qprep quotes it later', () => {
    const redactor = new Redactor();
    redactor.script('vllm serve /m --api-key sk-live-123456');
    expect(redactor.message('--api-key is "sk-live-123456" (line 1)')).toBe('--api-key is "***" (line 1)');
    expect(redactor.deep({ message: 'x sk-live-123456', evidence: { password: 'p4ss', tokens: 'abc' } })).toEqual({
      message: 'x ***',
      evidence: { password: '***', tokens: 'abc' },
    });
  });

  it("qprep's own words about a secret flag stay readable", () => {
    expect(redactMessage('--api-key has no value: vllm refuses to start')).toBe('--api-key has no value: vllm refuses to start');
  });
});
