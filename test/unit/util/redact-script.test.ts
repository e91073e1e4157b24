import { describe, expect, it } from 'vitest';
import { redactScript } from '../../../src/util/redact.js';

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
      'export HF_TOKEN=***',
      'export A=1 MODELSCOPE_API_TOKEN=***',
      'MY_PASSWORD=*** vllm serve /m --api-key *** \\',
      '  --api_key=*** --port 8000',
      'export http_proxy=http://***@proxy:3128',
      'nic_name="xxx"',
      'export PASSWORD=',
    ]);
  });
});
