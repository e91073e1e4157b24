/**
 * What the installed vLLM's own Python source says about its timeouts, read as text (nothing
 * is imported or run): the default of an environment variable in vllm/envs.py, and the wait
 * for the engines that vllm/v1/engine/core_client.py hard-codes in the versions before
 * VLLM_ENGINE_READY_TIMEOUT_S existed. Never throws.
 */

function escapeName(name: string): string {
  return name.replace(/[^A-Za-z0-9_]/g, '');
}

/** The default vllm/envs.py gives `name`: `os.getenv("NAME", "600")` or `os.environ.get("NAME", "600")`; undefined when it reads none. */
export function envDefault(envsPy: string, name: string): string | undefined {
  const key = escapeName(name);
  if (key === '') return undefined;
  const pattern = new RegExp(`(?:os\\.getenv|os\\.environ\\.get)\\(\\s*["']${key}["']\\s*,\\s*["']([^"'\\n]*)["']\\s*\\)`);
  return pattern.exec(envsPy)?.[1];
}

/** Whether vllm/envs.py reads `name` at all. */
export function readsEnv(envsPy: string, name: string): boolean {
  const key = escapeName(name);
  return key !== '' && new RegExp(`["']${key}["']`).test(envsPy);
}

/** The fixed wait of `sync_input_socket.poll(timeout=600_000)`, in milliseconds; undefined when the file has none. */
export function fixedEngineReadyWaitMs(coreClientPy: string): number | undefined {
  const match = /sync_input_socket\.poll\(\s*timeout\s*=\s*([0-9_]+)\s*\)/.exec(coreClientPy);
  if (!match) return undefined;
  const value = Number(match[1]!.replace(/_/g, ''));
  return Number.isSafeInteger(value) && value > 0 ? value : undefined;
}
