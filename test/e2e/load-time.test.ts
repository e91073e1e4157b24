import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { qprep, validateAgainstSchema } from '../helpers/cli.js';

/**
 * model.load-time through the built CLI on a --root host tree whose mountinfo puts the weights
 * on an NFS export: the filesystem and mount source come from the tree, the bytes are read from
 * the tree's real shards. A snapshot records the figure and its replay gives it back byte for
 * byte; --no-io-probe reads nothing.
 */

const MiB = 1024 * 1024;
const MODEL = '/models/Qwen3-8B';
const SHARDS = ['model-00001-of-00002.safetensors', 'model-00002-of-00002.safetensors'];

interface CheckJson {
  id: string;
  status: string;
  message: string;
  evidence: Record<string, unknown> & { storage: Record<string, unknown> };
}

function write(root: string, path: string, content: string | Buffer): void {
  mkdirSync(dirname(join(root, path)), { recursive: true });
  writeFileSync(join(root, path), content);
}

let work = '';
let root = '';
let script = '';

beforeAll(() => {
  work = mkdtempSync(join(tmpdir(), 'qprep-e2e-loadtime-'));
  root = join(work, 'host');
  write(
    root,
    'proc/self/mountinfo',
    ['22 1 253:0 / / rw,relatime shared:1 - ext4 /dev/vda rw', '31 22 0:48 / /models rw,relatime shared:12 - nfs4 10.0.0.5:/export/models rw,vers=4.2,rsize=1048576', ''].join('\n'),
  );
  write(root, `${MODEL.slice(1)}/config.json`, '{"model_type": "qwen3"}');
  write(root, `${MODEL.slice(1)}/model.safetensors.index.json`, JSON.stringify({ weight_map: { a: SHARDS[0], b: SHARDS[1] } }));
  for (const shard of SHARDS) write(root, `${MODEL.slice(1)}/${shard}`, randomBytes(4 * MiB));
  script = join(work, 'run.sh');
  writeFileSync(script, `#!/bin/bash\nvllm serve ${MODEL} --tensor-parallel-size 2\n`);
});

async function loadTime(args: string[], exitCode = 0): Promise<CheckJson> {
  const run = await qprep(['check', ...args, '--only', 'model.load-time', '--format', 'json']);
  expect(run.exitCode, run.stderr).toBe(exitCode);
  return (JSON.parse(run.stdout) as { checks: CheckJson[] }).checks[0]!;
}

describe('model.load-time on a --root tree', () => {
  it("takes the filesystem and mount source from the tree's mountinfo: an NFS export", async () => {
    const check = await loadTime(['--root', root, '--launch', script]);
    expect(check.status).toBe('pass');
    expect(check.message).toMatch(/^reading 8\.0 MiB of weights from nfs4 10\.0\.0\.5:\/export\/models on \/models at [\d.]+ [kMG]B\/s takes ~\d+ s, within VLLM_ENGINE_READY_TIMEOUT_S 600 s/);
    expect(check.evidence).toMatchObject({ bytesToRead: 8 * MiB, filesystem: 'nfs4', storage: { kind: 'network', source: '10.0.0.5:/export/models', mountPoint: '/models', bytesRead: 8 * MiB } });
    const valid = await validateAgainstSchema('load-time-evidence', check.evidence);
    expect(valid.valid, valid.errors).toBe(true);
  });

  it('is recorded by qprep snapshot and replayed byte for byte, reading nothing', async () => {
    const file = join(work, 'snap.json');
    const recorded = await qprep(['snapshot', '-o', file, '--root', root, '--launch', script, '--only', 'model.load-time']);
    expect(recorded.exitCode, recorded.stderr).toBe(0);
    const snapshot = JSON.parse(readFileSync(file, 'utf8')) as { readProbes: Record<string, { ok: boolean; value: unknown }>; report: { checks: CheckJson[] } };
    expect(Object.keys(snapshot.readProbes)).toEqual([MODEL]);
    const replayed = await loadTime(['--snapshot', file]);
    expect(replayed.evidence).toEqual(snapshot.report.checks[0]!.evidence);
    expect(replayed.message).toBe(snapshot.report.checks[0]!.message);
  });

  it('reads nothing with --no-io-probe, and says the load was not timed', async () => {
    // the only check selected skipped: nothing assessed, exit 2 (no verdict)
    const check = await loadTime(['--root', root, '--launch', script, '--no-io-probe'], 2);
    expect(check.status).toBe('skip');
    expect(check.message).toBe('the I/O probe is off (--no-io-probe): the load of 8.0 MiB of weights is not timed');
    expect(check.evidence).toMatchObject({ filesystem: 'nfs4', throughputBytesPerSec: null, estimatedSeconds: null });
  });
});
