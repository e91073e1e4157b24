import { describe, expect, it } from 'vitest';
import { aggregate } from '../../../src/aggregate/analyze.js';
import { readNodeDocuments } from '../../../src/aggregate/documents.js';
import { parseClusterText } from '../../../src/cluster/load.js';
import { formatAggregateHuman } from '../../../src/report/aggregate.js';
import { textFor } from '../../../src/i18n/index.js';
import { visibleWidth } from '../../../src/report/wrap.js';
import { clusterNode, demoReport } from '../../helpers/node-reports.js';

const NOW = new Date('2026-12-01T08:10:00.000Z');

/** 16 A2 nodes as an SRE runs them: one broken, one on another driver, one that never reported. */
function sixteenNodes() {
  const reports = Array.from({ length: 15 }, (_, i) => {
    const report = clusterNode(demoReport(i === 6 ? 'a2-broken' : 'a2-healthy'), i);
    if (i !== 6) report.facts.versions.driver = i === 11 ? '25.2.1' : '25.3.rc1';
    return report;
  });
  const facts = [...reports.map((r) => structuredClone(r.facts)), { hostname: 'node16', hostAddresses: ['10.30.0.26'] }];
  const documents = reports.flatMap((r, i) => readNodeDocuments({ source: `reports/node${i + 1}.json`, text: JSON.stringify(r) }));
  return aggregate(documents, { now: NOW, maxAgeMs: 3_600_000, cluster: { file: 'cluster.json', cluster: parseClusterText(JSON.stringify(facts), 'cluster.json') } });
}

describe('the human table of qprep aggregate', () => {
  it('a VLLM-ASCEND column when some report read the installed vllm-ascend: the odd one marked; none without', () => {
    const template = { ...demoReport('a2-healthy'), stack: demoReport('a2-w8a8-node0').stack! };
    const reports = [0, 1, 2].map((i) => {
      const report = clusterNode(template, i);
      if (i === 1) report.stack!.packages.vllmAscend!.version = '0.22.0';
      return report;
    });
    const document = aggregate(
      reports.flatMap((r, i) => readNodeDocuments({ source: `r${i}.json`, text: JSON.stringify(r) })),
      { now: NOW },
    );
    const lines = formatAggregateHuman(document, { color: false }).split('\n');
    expect(lines[2]).toMatch(/^NODE +VERDICT +AGE +NPUS +DRIVER +FIRMWARE +CANN +VLLM-ASCEND +FAILING$/);
    expect(lines[3]).toMatch(/ 8\.3\.RC2 +0\.23\.0$/);
    expect(lines[4]).toMatch(/ 8\.3\.RC2 +0\.22\.0\*$/);
    const zh = formatAggregateHuman(document, { color: false, text: textFor('zh') }).split('\n');
    expect(zh[2]).toContain(' VLLM-ASCEND ');
  });

  it('16 nodes: one row each that fits a terminal, the odd values marked, the failing checks listed, the verdict last', () => {
    const text = formatAggregateHuman(sixteenNodes(), { color: false });
    const lines = text.trimEnd().split('\n');
    expect(lines[0]).toBe('qprep 0.1.0 aggregate  16 nodes from 15 documents · cluster cluster.json (16 nodes) · max age 1h');
    expect(lines[2]).toMatch(/^NODE +VERDICT +AGE +NPUS +DRIVER +FIRMWARE +CANN +FAILING$/);
    const rows = lines.slice(3, 19);
    expect(rows.map((row) => row.split(/\s+/)[0])).toEqual(Array.from({ length: 16 }, (_, i) => `node${String(i + 1).padStart(2, '0')}`));
    // the check messages below are as long as the reports have them; the table is narrow
    expect(Math.max(...lines.slice(2, 19).map((line) => line.length))).toBeLessThanOrEqual(120);
    expect(rows[0]).toMatch(/^node01 +ready +10m +8×910B3 +25\.3\.rc1 +7\.8\.0\.7\.220 +8\.3\.RC2$/);
    expect(rows[6]).toMatch(/^node07 +NOT READY +10m +8×910B3 +26\.1\.0\* .* npu\.driver-files, npu\.health, npu\.ecc, npu\.idle$/);
    expect(rows[11]).toContain(' 25.2.1* ');
    expect(rows[15]).toMatch(/^node16 +MISSING +- +- +- +- +- +no report$/);
    // the columns line up: every row has DRIVER where the header has it
    const driverColumn = lines[2]!.indexOf('DRIVER');
    for (const row of rows) expect(row[driverColumn - 1]).toBe(' ');
    expect(text).toContain('\nNot ready\n  node07  ✗ fail   npu.driver-files  1 of 6 driver paths');
    expect(text).toContain('  ✗ fail  node16 has no report (a node of cluster.json)');
    expect(text).toContain('  ✗ fail  driver version differs on 2 nodes: 25.2.1 on node12; 26.1.0 on node07; the other 13 nodes have 25.3.rc1');
    expect(lines.at(-1)).toBe('CLUSTER NOT READY: 1 of 16 nodes not ready; 1 missing; differs: driver version, npu-smi version');
    expect(text).not.toMatch(/\u001b\[/);
  });

  it('colors only when asked', () => {
    expect(formatAggregateHuman(sixteenNodes(), { color: true })).toMatch(/\u001b\[31m/);
  });

  it('a ready cluster says so, and counts the warnings --strict would refuse', () => {
    const reports = [0, 1, 2].map((i) => clusterNode(demoReport('a2-healthy'), i));
    reports[2]!.host.kernel = '6.6.0-28.0.0.34.oe2403.aarch64';
    const documents = reports.flatMap((r, i) => readNodeDocuments({ source: `r${i}.json`, text: JSON.stringify(r) }));
    const text = formatAggregateHuman(aggregate(documents, { now: NOW }), { color: false });
    expect(text).toContain('  ! warn  kernel differs on node03: 6.6.0-28.0.0.34.oe2403.aarch64; the other 2 nodes have 5.10.0-216.0.0.115.oe2203sp4.aarch64');
    expect(text.trimEnd().split('\n').at(-1)).toBe('CLUSTER READY: 3 of 3 nodes ready (1 warning; --strict would refuse them)');
  });
});

describe('the human table of qprep aggregate in Chinese', () => {
  it('the headings, columns, verdicts and the cluster verdict in Chinese; the columns line up in terminal columns', () => {
    const document = sixteenNodes();
    const english = formatAggregateHuman(document, { color: false });
    const text = formatAggregateHuman(document, { color: false, text: textFor('zh') });
    const lines = text.trimEnd().split('\n');
    expect(lines[0]).toBe('qprep 0.1.0 aggregate  16 个节点，来自 15 个文档 · 集群文件 cluster.json（16 个节点） · 最大时效 1h');
    expect(lines[2]).toMatch(/^节点 +结论 +时效 +NPU +驱动 +固件 +CANN +未通过$/);
    const rows = lines.slice(3, 19);
    expect(rows[0]).toMatch(/^node01 +就绪 +10m +8×910B3 +25\.3\.rc1 +7\.8\.0\.7\.220 +8\.3\.RC2$/);
    expect(rows[15]).toMatch(/^node16 +缺失 +- +- +- +- +- +无报告$/);
    // a Chinese character takes two columns: the driver column starts at the same column in every row
    const columnOf = (line: string, text: string) => visibleWidth(line.slice(0, line.indexOf(text)));
    const driverColumn = columnOf(lines[2]!, '驱动');
    expect(columnOf(rows[0]!, '25.3.rc1')).toBe(driverColumn);
    expect(columnOf(rows[15]!.replace(/^(node16 +缺失 +- +- +)-/, '$1D'), 'D')).toBe(driverColumn);
    expect(text).toContain('\n未就绪\n  node07  ✗ 失败  npu.driver-files  ');
    expect(text).toContain('\n集群范围\n');
    expect(lines.at(-1)).toMatch(/^集群未就绪（CLUSTER NOT READY）：16 个节点中 1 个未就绪；1 个缺失；不一致：/);
    // the node names, versions and check ids are the same in both languages
    const ids = (t: string) => t.match(/\bnode\d\d\b|\b\d+\.\d+\.\w+\b|\bnpu\.[a-z-]+\b/g);
    expect(ids(text)).toEqual(ids(english));
  });
});
