/**
 * Attention heads and KV heads of the models the vllm-ascend tutorials deploy, for the tensor
 * parallel rule when the weights' config.json is not on this host. Each row is the
 * `num_attention_heads` / `num_key_value_heads` of the model's config.json on Hugging Face
 * (https://huggingface.co/<id>/blob/main/config.json); the quantized and fine-tuned variants the
 * tutorials use (w8a8, -Instruct-2507, -Thinking) keep the base model's attention. Models whose
 * config was not checked are not listed: for them the rule needs the local config.json.
 */

export interface ModelHeads {
  /** the Hugging Face id the numbers were read from */
  id: string;
  /** matches the model's name (the resolver's identity: a hub id's NAME, not a cache revision), case-insensitive */
  pattern: RegExp;
  heads: number;
  kvHeads: number;
}

export const MODEL_HEADS: readonly ModelHeads[] = [
  { id: 'Qwen/Qwen3-0.6B', pattern: /^qwen3-0\.6b\b/i, heads: 16, kvHeads: 8 },
  { id: 'Qwen/Qwen3-1.7B', pattern: /^qwen3-1\.7b\b/i, heads: 16, kvHeads: 8 },
  { id: 'Qwen/Qwen3-4B', pattern: /^qwen3-4b\b/i, heads: 32, kvHeads: 8 },
  { id: 'Qwen/Qwen3-8B', pattern: /^qwen3-8b\b/i, heads: 32, kvHeads: 8 },
  { id: 'Qwen/Qwen3-14B', pattern: /^qwen3-14b\b/i, heads: 40, kvHeads: 8 },
  { id: 'Qwen/Qwen3-32B', pattern: /^qwen3-32b\b/i, heads: 64, kvHeads: 8 },
  { id: 'Qwen/Qwen3-30B-A3B', pattern: /^qwen3-30b-a3b\b/i, heads: 32, kvHeads: 4 },
  { id: 'Qwen/Qwen3-Coder-30B-A3B-Instruct', pattern: /^qwen3-coder-30b-a3b\b/i, heads: 32, kvHeads: 4 },
  { id: 'Qwen/Qwen3-235B-A22B', pattern: /^qwen3-235b-a22b\b/i, heads: 64, kvHeads: 4 },
  { id: 'Qwen/Qwen3-Next-80B-A3B-Instruct', pattern: /^qwen3-next-80b-a3b\b/i, heads: 16, kvHeads: 2 },
  // MLA: every head has its own latent KV, so the KV heads equal the heads
  { id: 'deepseek-ai/DeepSeek-V3', pattern: /^deepseek-(v3|r1)\b(?!-distill)/i, heads: 128, kvHeads: 128 },
  { id: 'moonshotai/Kimi-K2-Instruct', pattern: /^kimi-k2\b/i, heads: 64, kvHeads: 64 },
  { id: 'zai-org/GLM-4.5', pattern: /^glm-4\.5(-air)?\b/i, heads: 96, kvHeads: 8 },
];

/** The table row of a model by its name (src/probes/model-resolve.ts: "Qwen3-235B-A22B-w8a8" -> Qwen/Qwen3-235B-A22B). */
export function modelHeadsOf(name: string): ModelHeads | undefined {
  return MODEL_HEADS.find((row) => row.pattern.test(name));
}
