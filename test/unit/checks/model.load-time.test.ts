import { describe, expect, it } from 'vitest';
import check from '../../../checks/model.load-time.js';
import type { ReadProbeResult } from '../../../src/host/types.js';
import { createContext } from '../../../src/core/runner.js';
import { loadTimeEvidenceSchema } from '../../../src/probes/load-time-evidence.js';
import { FakeHost, type FakeHostSpec, type FakeNode } from '../../helpers/fake-host.js';
import { expectSameCommands, runInBoth } from '../../helpers/both-languages.js';
import { expectRemediation, profileWith, runOn } from '../../helpers/run-check.js';

const GiB = 1024 ** 3;
const MODEL = '/models/Qwen3-235B-A22B';
const SHARDS = ['model-00001-of-00004.safetensors', 'model-00002-of-00004.safetensors', 'model-00003-of-00004.safetensors', 'model-00004-of-00004.safetensors'];

/** /proc/self/mountinfo (proc(5)): the root, the weights' mount, a local data disk */
function mountinfo(weights: { fsType: string; source: string; point?: string }): string {
  return [
    '22 1 253:0 / / rw,relatime shared:1 - ext4 /dev/vda rw',
    `31 22 0:48 / ${weights.point ?? '/models'} rw,relatime shared:12 - ${weights.fsType} ${weights.source} rw`,
    '35 22 259:1 / /data rw,relatime shared:14 - xfs /dev/nvme0n1p1 rw,attr2',
    '',
  ].join('\n');
}

/** A model directory of four shards of `bytes` each, with its config and index. */
function modelDir(bytes: number): Record<string, FakeNode> {
  const files: Record<string, FakeNode> = {
    [`${MODEL}/config.json`]: '{"model_type": "qwen3_moe"}',
    [`${MODEL}/model.safetensors.index.json`]: JSON.stringify({ weight_map: Object.fromEntries(SHARDS.map((s, i) => [`w${i}`, s])) }),
  };
  for (const shard of SHARDS) files[`${MODEL}/${shard}`] = { kind: 'file', content: 'x', size: bytes };
  return files;
}

/** What Host.readThroughput answers: `rate` bytes per second over 3 s, read with `method`. */
function sample(rate: number, overrides: Partial<ReadProbeResult> = {}): ReadProbeResult {
  const bytesRead = Math.round(rate * 3);
  return {
    method: 'direct',
    bytesRead,
    durationMs: 3000,
    stoppedBy: 'time',
    cachedBytesAtMost: 0,
    holeBytesAtLeast: 0,
    files: SHARDS.map((s) => ({ path: `${MODEL}/${s}`, size: 10 * GiB, residentBytes: 0, allocatedBytes: 10 * GiB })),
    reads: [{ path: `${MODEL}/${SHARDS[0]}`, offset: 0, bytes: bytesRead }],
    opens: [{ path: `${MODEL}/${SHARDS[3]}`, ms: 1 }],
    fsMagic: null,
    ...overrides,
  };
}

function host(options: { rate?: number; fsType?: string; source?: string; probe?: ReadProbeResult; files?: Record<string, FakeNode>; env?: Record<string, string> } = {}): FakeHostSpec {
  return {
    env: { PATH: '/usr/local/bin:/usr/bin:/bin', HOME: '/root', ...options.env },
    files: { '/proc/self/mountinfo': mountinfo({ fsType: options.fsType ?? 'ext4', source: options.source ?? '/dev/loop7' }), ...modelDir(10 * GiB), ...options.files },
    readProbes: { [MODEL]: options.probe ?? sample(options.rate ?? 50e6) },
    statfs: { '/data': { type: 0x58465342, totalBytes: 4e12, freeBytes: 3.2e12, availableBytes: 3.2e12 } },
  };
}

const script = (lines: string[] = []) => ['#!/bin/bash', ...lines, `vllm serve ${MODEL} --tensor-parallel-size 8`, ''].join('\n');

describe('model.load-time', () => {
  it('skips without --launch, and names model.weights when the weights are not local', async () => {
    expect((await runOn(check, host())).outcome.status).toBe('skip');
    const hub = await runOn(check, host(), {}, { launch: script().replace(MODEL, 'Qwen/Qwen3-235B-A22B') });
    expect(hub.outcome).toMatchObject({ status: 'skip', causedBy: 'model.weights' });
    expect(hub.host.readProbeRequests).toEqual([]);
  });

  it('fails 40 GiB on a storage of 50 MB/s against the 600 s default, with the export line that fixes it', async () => {
    const { outcome, host: fake } = await runOn(check, host(), {}, { launch: script() });
    expect(outcome.status).toBe('fail');
    expect(outcome.message).toBe(
      'reading 40.0 GiB of weights from ext4 /dev/loop7 on /models at 50.0 MB/s takes ~859 s, more than VLLM_ENGINE_READY_TIMEOUT_S 600 s ' +
        '(vLLM\'s default; no installed vLLM was found): vllm gives up ("Timed out waiting for engine core processes to start") before the weights are in',
    );
    expect(outcome.remediation!.split('\n')).toEqual([
      'run.sh: export VLLM_ENGINE_READY_TIMEOUT_S=2160   # before vllm serve (line 2); 2.5 x the estimated load',
      `or: copy the weights to a local disk: cp -rL ${MODEL} /data/Qwen3-235B-A22B   # xfs /dev/nvme0n1p1, 2.9 TiB free; then run.sh line 2: vllm serve /data/Qwen3-235B-A22B`,
    ]);
    expect(outcome.evidence).toMatchObject({ bytesToRead: 40 * GiB, throughputBytesPerSec: 50e6, estimatedSeconds: 859, timeoutSeconds: 600, filesystem: 'ext4', cached: false });
    expect(loadTimeEvidenceSchema.safeParse(outcome.evidence).success).toBe(true);
    // the probe read the weights' storage, bounded as documented
    expect(fake.readProbeRequests).toEqual([{ directory: MODEL, files: SHARDS.map((s) => `${MODEL}/${s}`), maxBytes: 2 * GiB, maxMs: 3000, timedOpens: 4 }]);
    expectRemediation(outcome);
  });

  it('lists the timeouts in force and what each must exceed', async () => {
    const { outcome } = await runOn(check, host(), {}, { launch: script(['export HCCL_OP_EXPANSION_MODE=AIV', 'export HCCL_CONNECT_TIMEOUT=1200']) });
    expect(outcome.details).toEqual([
      'storage: ext4 /dev/loop7 on /models (local): read 143.1 MiB in 3 s with O_DIRECT, past the page cache; 1 shard opened, 1 ms each (median); 0 % of the weights in the page cache now',
      "VLLM_ENGINE_READY_TIMEOUT_S = 600 s (vLLM's default; no installed vLLM was found): must exceed this node's load, ~859 s, plus KV-cache profiling and graph capture",
      "VLLM_RPC_TIMEOUT = 10000 ms (vLLM's default; no installed vLLM was found): must exceed the longest call from the API server to the engine; not part of the load",
      'HCCL_CONNECT_TIMEOUT = 1200 s (run.sh:3): must exceed the gap between the first and the last node to finish loading (qprep aggregate compares the nodes)',
      'HCCL_EXEC_TIMEOUT = 1091 s (the CANN default): must exceed that gap too where the communicators are set up before the load, and the longest collective',
    ]);
    expect(outcome.evidence).toMatchObject({ hcclConnectTimeoutSeconds: 1200 });
  });

  it('warns above half of the timeout: profiling and graph capture come after the load', async () => {
    const { outcome } = await runOn(check, host({ rate: 100e6 }), {}, { launch: script() });
    expect(outcome.status).toBe('warn');
    expect(outcome.message).toContain('takes ~430 s, more than half of VLLM_ENGINE_READY_TIMEOUT_S 600 s');
    expect(outcome.remediation!.split('\n')[0]).toBe('run.sh: export VLLM_ENGINE_READY_TIMEOUT_S=1080   # before vllm serve (line 2); 2.5 x the estimated load');
  });

  it("passes against the script's own VLLM_ENGINE_READY_TIMEOUT_S, and on tmpfs, whose cache is the storage", async () => {
    const raised = await runOn(check, host(), {}, { launch: script(['export VLLM_ENGINE_READY_TIMEOUT_S=30000']) });
    expect(raised.outcome.status).toBe('pass');
    expect(raised.outcome.message).toContain('within VLLM_ENGINE_READY_TIMEOUT_S 30000 s (run.sh:2)');
    const tmpfs = await runOn(check, host({ fsType: 'tmpfs', source: 'tmpfs', probe: sample(4e9, { cachedBytesAtMost: null, method: 'buffered', directRefused: 'x' }) }), {}, { launch: script() });
    expect(tmpfs.outcome.status).toBe('pass');
    expect(tmpfs.outcome.evidence).toMatchObject({ filesystem: 'tmpfs', cached: true, estimatedSeconds: 11 });
  });

  it('on an NFS mount names --safetensors-load-strategy eager, with its source', async () => {
    const { outcome } = await runOn(check, host({ fsType: 'nfs4', source: '10.0.0.5:/export/models' }), {}, { launch: script() });
    expect(outcome.status).toBe('fail');
    expect(outcome.message).toContain('from nfs4 10.0.0.5:/export/models on /models at 50.0 MB/s');
    expect(outcome.remediation!.split('\n')[2]).toBe(
      'or: run.sh line 2: vllm serve ... --safetensors-load-strategy eager   # reads whole files in sequence instead of memory-mapped page faults, which nfs4 serves badly (vllm-project/vllm PR #24469)',
    );
    expect(outcome.evidence).toMatchObject({ filesystem: 'nfs4', storage: { kind: 'network', source: '10.0.0.5:/export/models' } });
  });

  it('warns when the page cache served the probe: the storage itself was not measured', async () => {
    const cached = sample(2e9, { method: 'buffered', directRefused: 'the filesystem refuses O_DIRECT (EINVAL)', cachedBytesAtMost: 6e9 });
    const { outcome } = await runOn(check, host({ probe: cached }), {}, { launch: script() });
    expect(outcome.status).toBe('warn');
    expect(outcome.message).toMatch(/within VLLM_ENGINE_READY_TIMEOUT_S 600 s .*; but the page cache served the probe's read: the storage's own speed was not measured/);
    expect(outcome.evidence).toMatchObject({ cached: true });
  });

  it('reads the default of the installed vLLM, and knows a vLLM that waits a fixed 600 s', async () => {
    const site = '/usr/local/lib/python3.11/site-packages';
    const python = {
      '/usr/local/bin/vllm': { kind: 'file', content: '#!/usr/local/bin/python3.11\n', mode: 0o755 },
      '/usr/local/bin/python3.11': { kind: 'file', content: 'ELF', mode: 0o755 },
      [`${site}/vllm-0.13.0.dist-info/METADATA`]: 'Name: vllm\n',
    } satisfies Record<string, FakeNode>;
    const newer = { ...python, [`${site}/vllm/envs.py`]: '"VLLM_ENGINE_READY_TIMEOUT_S": lambda: int(\n  os.environ.get("VLLM_ENGINE_READY_TIMEOUT_S", "1200")\n),' };
    const own = await runOn(check, host({ files: newer }), {}, { launch: script() });
    expect(own.outcome.status).toBe('warn');
    expect(own.outcome.message).toContain('more than half of VLLM_ENGINE_READY_TIMEOUT_S 1200 s (the default of vLLM 0.13.0)');
    const older = {
      ...python,
      [`${site}/vllm/envs.py`]: '"VLLM_RPC_TIMEOUT": lambda: int(os.getenv("VLLM_RPC_TIMEOUT", "10000")),',
      [`${site}/vllm/v1/engine/core_client.py`]: '                if not sync_input_socket.poll(timeout=600_000):\n',
    };
    const fixed = await runOn(check, host({ files: older }), {}, { launch: script(['export VLLM_ENGINE_READY_TIMEOUT_S=30000']) });
    expect(fixed.outcome.status).toBe('fail');
    expect(fixed.outcome.message).toContain('more than VLLM_ENGINE_READY_TIMEOUT_S 600 s (fixed in vLLM 0.13.0, which does not read VLLM_ENGINE_READY_TIMEOUT_S)');
    expect(fixed.outcome.remediation!.split('\n')[0]).toBe(
      'vLLM 0.13.0 waits a fixed 600 s: upgrade to a vLLM that reads VLLM_ENGINE_READY_TIMEOUT_S (vllm-project/vllm PR #27444), or shorten the load:',
    );
    expect(fixed.outcome.evidence).toMatchObject({ timeoutHonoured: false, vllm: { version: '0.13.0', envsPy: `${site}/vllm/envs.py` } });
  });

  it("reads the default from the source tree of an editable vLLM, as the official images install it (/vllm-workspace/vllm)", async () => {
    const site = '/usr/local/lib/python3.11/site-packages';
    const files = {
      '/usr/local/bin/vllm': { kind: 'file', content: '#!/usr/local/bin/python3.11\n', mode: 0o755 },
      '/usr/local/bin/python3.11': { kind: 'file', content: 'ELF', mode: 0o755 },
      [`${site}/vllm-0.11.0+empty.dist-info/METADATA`]: 'Metadata-Version: 2.4\nName: vllm\nVersion: 0.11.0+empty\n',
      [`${site}/vllm-0.11.0+empty.dist-info/direct_url.json`]: '{"dir_info": {"editable": true}, "url": "file:///vllm-workspace/vllm"}',
      '/vllm-workspace/vllm/vllm/envs.py': '"VLLM_ENGINE_READY_TIMEOUT_S": lambda: int(\n  os.environ.get("VLLM_ENGINE_READY_TIMEOUT_S", "1200")\n),',
    } satisfies Record<string, FakeNode>;
    const { outcome } = await runOn(check, host({ files }), {}, { launch: script() });
    expect(outcome.message).toContain('VLLM_ENGINE_READY_TIMEOUT_S 1200 s (the default of vLLM 0.11.0+empty)');
    expect(outcome.evidence).toMatchObject({ vllm: { version: '0.11.0+empty', envsPy: '/vllm-workspace/vllm/vllm/envs.py' } });
  });

  it('skips with --no-io-probe and reads nothing; a replay without the figure is an error', async () => {
    const off = await runOn(check, host(), {}, { launch: script(), ioProbe: false });
    expect(off.outcome).toMatchObject({ status: 'skip', message: 'the I/O probe is off (--no-io-probe): the load of 40.0 GiB of weights is not timed' });
    expect(off.host.readProbeRequests).toEqual([]);
    const spec = host();
    const replay = await runOn(check, { ...spec, readProbes: { [MODEL]: { error: 'ENOTCAPTURED' } } }, {}, { launch: script() });
    expect(replay.outcome.status).toBe('error');
    expect(replay.outcome.message).toBe(`the snapshot holds no read figure of ${MODEL}: the load cannot be timed from it`);
    expect(replay.outcome.remediation).toBe('record the snapshot with this script: qprep snapshot -o host.json --launch run.sh');
  });

  it('fails a storage that delivered nothing in the probe', async () => {
    const { outcome } = await runOn(check, host({ probe: sample(0, { bytesRead: 0, durationMs: 5000, stoppedBy: 'stalled', reads: [] }) }), {}, { launch: script() });
    expect(outcome.status).toBe('fail');
    expect(outcome.message).toBe('the storage (ext4 /dev/loop7 on /models) delivered no byte of the weights in 5 s: vllm will not load them');
  });

  it('starts the probe from prefetch, and the run reads it once', async () => {
    const fake = new FakeHost(host());
    const ctx = createContext({ host: fake, profile: profileWith(), timeoutMs: 1000, launch: { file: 'run.sh', text: script(), from: 'file' } });
    await check.prefetch!(ctx);
    const outcome = await check.run(ctx);
    expect(outcome.status).toBe('fail');
    expect(fake.readProbeRequests).toHaveLength(1);
  });

  it('says the same in Chinese, commands byte for byte', async () => {
    const { en, zh } = await runInBoth(check, host({ fsType: 'nfs4', source: '10.0.0.5:/export/models' }), {}, { launch: script() });
    expect(zh.outcome.message).toContain('约需 859 秒，超过 VLLM_ENGINE_READY_TIMEOUT_S 600 秒');
    expectSameCommands(en.outcome, zh.outcome);
    expect(zh.outcome.remediation!.split('\n')[0]).toBe('run.sh：export VLLM_ENGINE_READY_TIMEOUT_S=2160   # 放在 vllm serve（第 2 行）之前；估算加载时间的 2.5 倍');
  });
});
