import { describe, expect, it } from 'vitest';
import type { FakeNode } from '../../helpers/fake-host.js';
import { FakeHost } from '../../helpers/fake-host.js';
import { a3Node } from '../../helpers/launch.js';
import { profileWith } from '../../helpers/run-check.js';
import { createContext } from '../../../src/core/runner.js';
import { launchView } from '../../../src/probes/launch.js';
import { configNumber, idFromCachePath, resolveModel } from '../../../src/probes/model-resolve.js';

const HF = '/root/.cache/huggingface/hub';
const REVISION = 'b51c43f2e7d4a9c0b1e3f5a7c9d1e3f5a7b9c1d3';
/** the layer count of Qwen3-8B, in a directory named after a 28-layer model: the name lies */
const CONFIG_36 = JSON.stringify({ architectures: ['Qwen3ForCausalLM'], model_type: 'qwen3', num_hidden_layers: 36, num_attention_heads: 32, num_key_value_heads: 8 });

async function resolved(script: string, files: Record<string, FakeNode> = {}, env: Record<string, string> = {}) {
  const spec = a3Node({ files });
  const host = new FakeHost({ ...spec, env: { ...(spec.env ?? {}), ...env } });
  const ctx = createContext({ host, profile: profileWith(), timeoutMs: 1000, now: () => new Date('2026-12-01T00:00:00Z'), launch: { file: 'run.sh', text: script, from: 'file' }, lang: 'en' });
  const view = (await launchView(ctx))!;
  return resolveModel(ctx, view);
}

function hfEntry(id: string, config?: string): Record<string, FakeNode> {
  const entry = `${HF}/models--${id.replace('/', '--')}`;
  const files: Record<string, FakeNode> = { [`${entry}/refs/main`]: `${REVISION}\n`, [`${entry}/snapshots/${REVISION}/model-00001-of-00001.safetensors`]: { kind: 'file', content: '', size: 1024 } };
  if (config) files[`${entry}/snapshots/${REVISION}/config.json`] = config;
  return files;
}

describe('model resolver', () => {
  it('reads the hub id out of a Hugging Face cache path, never the revision hash', () => {
    expect(idFromCachePath(`${HF}/models--Qwen--Qwen3-235B-A22B/snapshots/${REVISION}`)).toBe('Qwen/Qwen3-235B-A22B');
    expect(idFromCachePath(`${HF}/models--Qwen--Qwen3-235B-A22B/snapshots/${REVISION}/`)).toBe('Qwen/Qwen3-235B-A22B');
    expect(idFromCachePath('/data/hub/models--Eco-Tech--Qwen3.5-397B-A17B-w8a8-mtp')).toBe('Eco-Tech/Qwen3.5-397B-A17B-w8a8-mtp');
    expect(idFromCachePath('/root/.cache/modelscope/hub/models/Qwen/Qwen3___5-2B')).toBe('Qwen/Qwen3.5-2B');
    expect(idFromCachePath('/root/.cache/modelscope/hub/Qwen/Qwen3___5-2B/')).toBe('Qwen/Qwen3.5-2B');
    expect(idFromCachePath('/models/Qwen3-8B')).toBeNull();
  });

  it('takes a plain path with or without its trailing slash, naming it by its last segment', async () => {
    for (const path of ['/models/Qwen3-8B', '/models/Qwen3-8B/', '/models/Qwen3-8B//']) {
      const model = (await resolved(`vllm serve ${path} --tensor-parallel-size 2\n`))!;
      expect(model.directory, path).toBe('/models/Qwen3-8B');
      expect(model.identity, path).toEqual({ id: null, name: 'Qwen3-8B', from: 'path', modelType: null, architectures: [] });
      expect(model.inspected?.ok, path).toBe(false);
    }
  });

  it('believes config.json over the directory name', async () => {
    const model = (await resolved('vllm serve /models/Qwen3-0.6B\n', { '/models/Qwen3-0.6B/config.json': CONFIG_36 }))!;
    expect(model.identity).toEqual({ id: null, name: 'Qwen3-0.6B', from: 'config.json', modelType: 'qwen3', architectures: ['Qwen3ForCausalLM'] });
    expect(configNumber(model.config, 'num_hidden_layers')).toBe(36);
  });

  it('resolves a snapshot path written out to its hub id, and a bare id through the default cache', async () => {
    const written = (await resolved(`vllm serve ${HF}/models--Qwen--Qwen3-235B-A22B/snapshots/${REVISION}/\n`, hfEntry('Qwen/Qwen3-235B-A22B')))!;
    expect(written.identity).toMatchObject({ id: 'Qwen/Qwen3-235B-A22B', name: 'Qwen3-235B-A22B', from: 'cache-path' });
    expect(written.files?.shards).toHaveLength(1);
    const bare = (await resolved('vllm serve Qwen/Qwen3-235B-A22B\n', hfEntry('Qwen/Qwen3-235B-A22B')))!;
    expect(bare.location.kind).toBe('cached');
    expect(bare.directory).toBe(`${HF}/models--Qwen--Qwen3-235B-A22B/snapshots/${REVISION}`);
    expect(bare.identity).toMatchObject({ id: 'Qwen/Qwen3-235B-A22B', name: 'Qwen3-235B-A22B', from: 'hub-id' });
  });

  it('looks a bare id up through HF_HUB_CACHE, and through HF_HOME, set in the script or inherited', async () => {
    const moved = (id: string, root: string) => Object.fromEntries(Object.entries(hfEntry(id)).map(([path, node]) => [path.replace(HF, root), node]));
    const cache = (await resolved('export HF_HUB_CACHE=/data/hub\nvllm serve Qwen/Qwen3-8B\n', moved('Qwen/Qwen3-8B', '/data/hub')))!;
    expect(cache.directory).toBe(`/data/hub/models--Qwen--Qwen3-8B/snapshots/${REVISION}`);
    const home = (await resolved('vllm serve Qwen/Qwen3-8B\n', moved('Qwen/Qwen3-8B', '/srv/hf/hub'), { HF_HOME: '/srv/hf' }))!;
    expect(home.directory).toBe(`/srv/hf/hub/models--Qwen--Qwen3-8B/snapshots/${REVISION}`);
    const absent = (await resolved('vllm serve Qwen/Qwen3-8B\n'))!;
    expect(absent.location.kind).toBe('not-cached');
    expect(absent.directory).toBeNull();
    expect(absent.identity).toMatchObject({ id: 'Qwen/Qwen3-8B', name: 'Qwen3-8B', from: 'hub-id' });
  });

  it('looks a ModelScope id up in its cache with VLLM_USE_MODELSCOPE, "." written "___"', async () => {
    const dir = '/root/.cache/modelscope/hub/models/Qwen/Qwen3___5-2B';
    const model = (await resolved('export VLLM_USE_MODELSCOPE=True\nvllm serve Qwen/Qwen3.5-2B\n', { [`${dir}/config.json`]: '{"model_type": "qwen3_5"}' }))!;
    expect(model.directory).toBe(dir);
    expect(model.identity).toMatchObject({ id: 'Qwen/Qwen3.5-2B', name: 'Qwen3.5-2B', from: 'config.json', modelType: 'qwen3_5' });
    // the path of that entry, written out, names the same model
    const written = (await resolved(`vllm serve ${dir}\n`))!;
    expect(written.identity).toMatchObject({ id: 'Qwen/Qwen3.5-2B', name: 'Qwen3.5-2B', from: 'cache-path' });
  });

  it('ignores --served-model-name, and --model stands for the positional argument', async () => {
    const served = (await resolved('vllm serve /models/Qwen3-8B --served-model-name qwen3.5-397b\n'))!;
    expect(served.identity.name).toBe('Qwen3-8B');
    const flag = (await resolved('vllm serve --model /models/Qwen3-8B --served-model-name other\n'))!;
    expect(flag.identity.name).toBe('Qwen3-8B');
  });

  it('reads a multimodal config: model_type and sizes of its text model', async () => {
    const config = JSON.stringify({ architectures: ['Qwen3_5MoeForConditionalGeneration'], text_config: { model_type: 'qwen3_5_moe_text', num_attention_heads: 32 } });
    const model = (await resolved('vllm serve /models/q\n', { '/models/q/config.json': config }))!;
    expect(model.identity.modelType).toBe('qwen3_5_moe_text');
    expect(configNumber(model.config, 'num_attention_heads')).toBe(32);
  });
});
