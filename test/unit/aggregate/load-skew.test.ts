import { describe, expect, it } from 'vitest';
import check from '../../../checks/model.load-time.js';
import { aggregate } from '../../../src/aggregate/analyze.js';
import { readNodeDocuments } from '../../../src/aggregate/documents.js';
import type { ReadProbeResult } from '../../../src/host/types.js';
import { aggregateDocumentSchema, type AggregateDocument } from '../../../src/report/aggregate-schema.js';
import { formatAggregateHuman } from '../../../src/report/aggregate.js';
import type { Report } from '../../../src/report/schema.js';
import { textFor } from '../../../src/i18n/index.js';
import { clusterNode, demoReport } from '../../helpers/node-reports.js';
import { runOn } from '../../helpers/run-check.js';

/**
 * The skew rule of qprep aggregate on three nodes whose model.load-time ran for real on a fake
 * host each (the storage of each node scripted): their reports carry the estimates, aggregate
 * compares them with each waiting node's HCCL_CONNECT_TIMEOUT.
 */

const GiB = 1024 ** 3;
const MODEL = '/models/Qwen3.5-397B-A17B-w8a8';
const SHARDS = Array.from({ length: 4 }, (_, i) => `model-0000${i + 1}-of-00004.safetensors`);
const NOW = new Date('2026-12-01T08:10:00.000Z');

interface Storage {
  fsType: string;
  source: string;
  /** bytes per second the probe measured */
  rate: number;
}

async function nodeReport(index: number, storage: Storage, scriptLines: string[] = []): Promise<Report> {
  const files: Record<string, string | { kind: 'file'; content: string; size: number }> = {
    '/proc/self/mountinfo': `22 1 253:0 / / rw - ext4 /dev/vda rw\n31 22 0:48 / /models rw - ${storage.fsType} ${storage.source} rw\n`,
    [`${MODEL}/config.json`]: '{"model_type": "qwen3_5_moe"}',
  };
  for (const shard of SHARDS) files[`${MODEL}/${shard}`] = { kind: 'file', content: 'x', size: 10 * GiB };
  const probe: ReadProbeResult = {
    method: 'direct',
    bytesRead: storage.rate * 3,
    durationMs: 3000,
    stoppedBy: 'time',
    cachedBytesAtMost: 0,
    holeBytesAtLeast: 0,
    files: SHARDS.map((s) => ({ path: `${MODEL}/${s}`, size: 10 * GiB, residentBytes: 0, allocatedBytes: 10 * GiB })),
    reads: [{ path: `${MODEL}/${SHARDS[0]}`, offset: 0, bytes: storage.rate * 3 }],
    opens: [],
    fsMagic: null,
  };
  const script = ['#!/bin/bash', ...scriptLines, `vllm serve ${MODEL} --tensor-parallel-size 8`, ''].join('\n');
  const { result } = await runOn(check, { files, readProbes: { [MODEL]: probe }, env: { HOME: '/root' } }, {}, { launch: script });
  const report = clusterNode(demoReport('a2-healthy'), index);
  report.checks = [...report.checks.filter((c) => c.id !== 'model.load-time'), { ...result, durationMs: 3000 }];
  return report;
}

function aggregateOf(reports: Report[]): AggregateDocument {
  const documents = reports.flatMap((r, i) => readNodeDocuments({ source: `reports/node${i + 1}.json`, text: JSON.stringify(r) }));
  const verdict = aggregate(documents, { now: NOW });
  expect(aggregateDocumentSchema.safeParse(verdict).success).toBe(true);
  return verdict;
}

const NVME: Storage = { fsType: 'xfs', source: '/dev/nvme0n1p1', rate: 2e9 };
const NVME_SLOWER: Storage = { fsType: 'xfs', source: '/dev/nvme0n1p1', rate: 1.5e9 };
const NFS: Storage = { fsType: 'nfs4', source: '10.0.0.5:/export/models', rate: 200e6 };

describe('qprep aggregate: the load-time skew', () => {
  it('fails three nodes whose loads differ by more than HCCL_CONNECT_TIMEOUT, naming the slowest node and its storage', async () => {
    const verdict = aggregateOf([await nodeReport(0, NVME), await nodeReport(1, NVME_SLOWER), await nodeReport(2, NFS)]);
    expect(verdict.loadTime).toMatchObject({ slowest: 'node03', fastest: 'node01', spreadSeconds: 215 - 22 });
    const skew = verdict.findings.filter((f) => f.kind === 'load-skew');
    expect(skew).toEqual([
      {
        severity: 'fail',
        kind: 'load-skew',
        message:
          'node03 loads its weights in ~215 s from nfs4 10.0.0.5:/export/models at 200.0 MB/s, 193 s after node01 (~22 s from xfs /dev/nvme0n1p1 at 2.0 GB/s) ' +
          '(and 1 more node): more than HCCL_CONNECT_TIMEOUT 120 s, so node01 gives up waiting for it ("wait socket establish timeout")',
        nodes: ['node03', 'node02', 'node01'],
        remediation:
          "copy the weights of node03 (40.0 GiB) to a local disk (they are on /models), as fast as the other nodes' storage\n" +
          'or: export HCCL_CONNECT_TIMEOUT=300   # in the launch script of every node, the same value: 1.5 x the 193 s gap',
      },
    ]);
    expect(verdict.ready).toBe(false);
    const human = formatAggregateHuman(verdict, { color: false, text: textFor('en') });
    expect(human).toContain('Weights load time (model.load-time)\n  node03  ~215 s  nfs4 10.0.0.5:/export/models 200.0 MB/s\n');
    expect(human).toContain('  193 s between the slowest (node03) and the fastest (node01)');
    expect(human).toMatch(/CLUSTER NOT READY: .*load times 193 s apart/);
    expect(formatAggregateHuman(verdict, { color: false, text: textFor('zh') })).toContain('加载时间相差 193 秒');
  });

  it('passes the same spread where every node waits longer for the slowest (HCCL_CONNECT_TIMEOUT 1200)', async () => {
    const wait = ['export HCCL_CONNECT_TIMEOUT=1200'];
    const verdict = aggregateOf([await nodeReport(0, NVME, wait), await nodeReport(1, NVME_SLOWER, wait), await nodeReport(2, NFS, wait)]);
    expect(verdict.findings.filter((f) => f.kind === 'load-skew')).toEqual([]);
    expect(verdict.loadTime?.spreadSeconds).toBe(193);
  });

  it('judges each waiting node by its own timeout: only the one whose wait is too short is named', async () => {
    const verdict = aggregateOf([await nodeReport(0, NVME, ['export HCCL_CONNECT_TIMEOUT=1200']), await nodeReport(1, NVME_SLOWER), await nodeReport(2, NFS, ['export HCCL_CONNECT_TIMEOUT=1200'])]);
    const [skew] = verdict.findings.filter((f) => f.kind === 'load-skew');
    expect(skew?.nodes).toEqual(['node03', 'node02']);
    expect(skew?.message).toContain('186 s after node02');
  });

  it('compares nothing with one estimate, and leaves out a node whose check made none', async () => {
    const single = aggregateOf([await nodeReport(0, NVME), clusterNode(demoReport('a2-healthy'), 1)]);
    expect(single.loadTime).toBeUndefined();
  });
});
