import { describe, expect, it } from 'vitest';
import { SAFETENSORS_MAX_HEADER_BYTES, safetensorsHeaderLength } from '../../../src/parsers/safetensors.js';
import { envDefault, fixedEngineReadyWaitMs, readsEnv } from '../../../src/parsers/vllm-source.js';

/*
 * The shapes vLLM's vllm/envs.py and vllm/v1/engine/core_client.py write (as of vllm-project/vllm
 * 00080ee13c7a451fce071ccb8d0e94d395acf5a7 and the releases before PR #27444), re-typed here in a
 * few lines each: the parser reads them as text, nothing is imported.
 */
const ENVS_WITH_READY = [
  '    # Timeout in seconds for waiting for engine cores to become ready',
  '    "VLLM_ENGINE_READY_TIMEOUT_S": lambda: int(',
  '        os.environ.get("VLLM_ENGINE_READY_TIMEOUT_S", "600")',
  '    ),',
  "    'VLLM_RPC_TIMEOUT':",
  "    lambda: int(os.getenv('VLLM_RPC_TIMEOUT', '10000')),",
].join('\n');
const ENVS_BEFORE_READY = ['    "VLLM_RPC_TIMEOUT":', '    lambda: int(os.getenv("VLLM_RPC_TIMEOUT", "10000")),'].join('\n');
const CORE_CLIENT_BEFORE_READY = [
  '            while identities:',
  '                if not sync_input_socket.poll(timeout=600_000):',
  '                    raise TimeoutError("Timed out waiting for engines to send"',
].join('\n');

describe('vllm-source', () => {
  it('reads the default envs.py gives a variable, over a line break and in either quotes', () => {
    expect(envDefault(ENVS_WITH_READY, 'VLLM_ENGINE_READY_TIMEOUT_S')).toBe('600');
    expect(envDefault(ENVS_WITH_READY, 'VLLM_RPC_TIMEOUT')).toBe('10000');
    expect(envDefault(ENVS_BEFORE_READY, 'VLLM_ENGINE_READY_TIMEOUT_S')).toBeUndefined();
    expect(readsEnv(ENVS_WITH_READY, 'VLLM_ENGINE_READY_TIMEOUT_S')).toBe(true);
    expect(readsEnv(ENVS_BEFORE_READY, 'VLLM_ENGINE_READY_TIMEOUT_S')).toBe(false);
  });

  it('reads the fixed wait of a core_client.py from before VLLM_ENGINE_READY_TIMEOUT_S', () => {
    expect(fixedEngineReadyWaitMs(CORE_CLIENT_BEFORE_READY)).toBe(600_000);
    expect(fixedEngineReadyWaitMs('if not sync_input_socket.poll(\n    timeout=VLLM_ENGINE_READY_TIMEOUT_S * 1000  # convert to ms\n):')).toBeUndefined();
  });

  it('a name with other characters matches nothing rather than building another pattern', () => {
    expect(envDefault(ENVS_WITH_READY, '.*')).toBeUndefined();
    expect(readsEnv(ENVS_WITH_READY, '')).toBe(false);
  });
});

describe('safetensorsHeaderLength', () => {
  it('reads the little-endian u64 before the JSON header', () => {
    expect(safetensorsHeaderLength(Uint8Array.from([0x3c, 0, 0, 0, 0, 0, 0, 0, 0x7b]))).toBe(60);
    expect(safetensorsHeaderLength(Uint8Array.from([0x00, 0x00, 0x01, 0, 0, 0, 0, 0]))).toBe(65536);
  });

  it('refuses too few bytes, a zero length and one over the format cap', () => {
    expect(safetensorsHeaderLength(Uint8Array.from([1, 2, 3]))).toBeNull();
    expect(safetensorsHeaderLength(new Uint8Array(8))).toBeNull();
    const over = Buffer.alloc(8);
    over.writeBigUInt64LE(BigInt(SAFETENSORS_MAX_HEADER_BYTES + 1));
    expect(safetensorsHeaderLength(over)).toBeNull();
  });
});
