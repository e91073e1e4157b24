import { describe, expect, it } from 'vitest';
import { createContext } from '../../../src/core/runner.js';
import { launchView } from '../../../src/probes/launch.js';
import { launchLayout } from '../../../src/probes/launch-layout.js';
import { FakeHost } from '../../helpers/fake-host.js';
import { edited, filledIn, guideScript } from '../../helpers/launch.js';
import { profileWith } from '../../helpers/run-check.js';

async function layoutOf(text: string, file = 'run.sh') {
  const ctx = createContext({ host: new FakeHost({}), profile: profileWith(), timeoutMs: 1000, now: () => new Date('2026-12-01T00:00:00Z'), launch: { file, text, from: 'file' } });
  return launchLayout((await launchView(ctx))!);
}

describe('the serve layout the report carries for qprep aggregate', () => {
  it("run_p.sh: the prefill instance, its master address (from local_ip), and the kv sizes with their lines", async () => {
    const layout = await layoutOf(filledIn('run_p.sh', '10.0.0.11'), 'run_p.sh');
    expect(layout).toEqual({
      role: 'prefill',
      tp: 2,
      pp: 1,
      dp: 8,
      dpLocal: 8,
      startRank: 0,
      nnodes: 1,
      nodeRank: 0,
      headless: false,
      port: 30060,
      rpcPort: 6884,
      dpAddress: { value: '10.0.0.11', known: true, line: 40, from: { name: 'local_ip', line: 7 } },
      nodeAddress: { value: '10.0.0.11', known: true, name: 'HCCL_IF_IP', line: 7 },
      maxNumSeqs: 64,
      kv: {
        connector: 'MooncakeLayerwiseConnector',
        role: 'kv_producer',
        port: '23010',
        engineId: '0',
        line: 56,
        prefill: { dp: 8, tp: 2, dpLine: 63, tpLine: 64 },
        decode: { dp: 16, tp: 2, dpLine: 67, tpLine: 68 },
      },
      lines: { serve: 32, tp: 43, dp: 37, dpLocal: 38, startRank: null, rpcPort: 42, maxNumSeqs: 41 },
    });
  });

  it('run_d1.sh: headless, ranks 8-15 of 16, the master from node0_ip', async () => {
    const layout = (await layoutOf(filledIn('run_d1.sh', '10.0.0.13', '10.0.0.12'), 'run_d1.sh'))!;
    expect(layout).toMatchObject({ role: 'decode', tp: 2, dp: 16, dpLocal: 8, startRank: 8, headless: true, port: null, maxNumSeqs: 32 });
    expect(layout.dpAddress).toEqual({ value: '10.0.0.12', known: true, line: 43, from: { name: 'node0_ip', line: 10 } });
    expect(layout.lines.startRank).toBe(42);
    expect(layout.kv!.decode).toEqual({ dp: 16, tp: 2, dpLine: 71, tpLine: 72 });
  });

  it('as published the addresses are the placeholders; without a server command there is no layout', async () => {
    const layout = (await layoutOf(guideScript('run_d0.sh')))!;
    expect(layout.dpAddress).toMatchObject({ value: 'xxxx', known: true });
    expect(layout.nodeAddress).toMatchObject({ value: 'xxx', name: 'HCCL_IF_IP', line: 8 });
    expect(await layoutOf(guideScript('proxy.sh'))).toBeNull();
  });

  it('the single-node script: vLLM defaults where flags are absent, no KV connector', async () => {
    const layout = (await layoutOf(guideScript('qwen3.5-397b-w8a8-a3-single-node.sh')))!;
    expect(layout).toMatchObject({ role: null, tp: 16, dp: 1, dpLocal: 1, startRank: 0, port: 8000, rpcPort: null, dpAddress: null, nodeAddress: null, kv: null, maxNumSeqs: 128 });
  });

  it('JSON that arrives through a variable points at the flag, and a value that is not a number is null', async () => {
    const script = edited(filledIn('run_p.sh'), [['"tp_size": 2\n       },\n       "decode"', '"tp_size": "two"\n       },\n       "decode"']]);
    expect((await layoutOf(script))!.kv!.prefill).toEqual({ dp: 8, tp: null, dpLine: 63, tpLine: 64 });
    const viaVariable = 'KV=\'{"kv_role": "kv_consumer", "kv_connector_extra_config": {"decode": {"dp_size": 4, "tp_size": 1}}}\'\nvllm serve /m \\\n  --kv-transfer-config "$KV"\n';
    expect((await layoutOf(viaVariable))!.kv).toMatchObject({ role: 'kv_consumer', line: 3, decode: { dp: 4, tp: 1, dpLine: 3, tpLine: 3 } });
  });
});
