import { describe, expect, it } from 'vitest';
import { placeholderIn } from '../../../src/probes/launch.js';

describe('placeholderIn: the forms the vllm-ascend docs use', () => {
  it.each([
    ['{local_ip}', '{local_ip}'],
    ['{ node0 ip }', '{ node0 ip }'],
    ['{服务器ip}', '{服务器ip}'],
    ['{head_node_ip}:6379', '{head_node_ip}:6379'.slice(0, 14)],
    ['/data/path-to-weights/DeepSeek-R1', 'path-to-weights'],
    ['your_ip_here', 'your_ip_here'],
    ['<服务器ip>', '<服务器ip>'],
    ['141.xx.xx.1', '141.xx.xx.1'],
  ])('%s is a placeholder (%s)', (value, expected) => {
    expect(placeholderIn(value)).toBe(expected);
  });

  it.each(['{"kv_role": "kv_producer"}', '{0..7}', '/models/Qwen3-8B', '10.0.0.11', '{"cudagraph_mode": "FULL_DECODE_ONLY"}'])('%s is not', (value) => {
    expect(placeholderIn(value)).toBeUndefined();
  });
});
