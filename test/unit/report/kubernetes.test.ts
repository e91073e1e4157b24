import { describe, expect, it } from 'vitest';
import { errorDocument } from '../../../src/report/error-document.js';
import { featureFileText, LABEL_PREFIX, nodeAnnotations, nodeLabels } from '../../../src/report/kubernetes.js';
import { labelKeyProblem, labelValueProblem } from '../../../src/util/k8s-labels.js';
import { demoReport } from '../../helpers/node-reports.js';

const DEMOS = ['a2-healthy', 'a2-broken', 'a3-healthy', '300i-duo-healthy', 'a3-pd-prefill'] as const;

describe('node labels of a run', () => {
  it('every label of every demo host passes Kubernetes label syntax, under qprep.io/', () => {
    for (const demo of DEMOS) {
      const labels = nodeLabels(demoReport(demo));
      for (const [key, value] of Object.entries(labels)) {
        expect(key.startsWith(`${LABEL_PREFIX}/`), key).toBe(true);
        expect(labelKeyProblem(key), key).toBeUndefined();
        expect(labelValueProblem(value), `${key}=${value}`).toBeUndefined();
      }
    }
  });

  it('an A3 node: its family, 16 dies of 64 GiB HBM, versions, super pod and server index, TLS off', () => {
    expect(nodeLabels(demoReport('a3-healthy'))).toEqual({
      'qprep.io/ready': 'true',
      'qprep.io/verdict': 'ready',
      'qprep.io/worst-action': 'reconfigure',
      'qprep.io/npu.family': 'a3',
      'qprep.io/npu.count': '16',
      'qprep.io/npu.hbm-mb': '65536',
      'qprep.io/driver.version': '25.5.1',
      'qprep.io/firmware.version': '7.1.0.7.220',
      'qprep.io/superpod.id': '0',
      'qprep.io/superpod.server-index': '40',
      'qprep.io/hccn.tls': 'off',
    });
  });

  it('a broken A2 node is ready=false; no super pod labels off A3; DDR on the 300I Duo', () => {
    const broken = nodeLabels(demoReport('a2-broken'));
    expect(broken).toMatchObject({ 'qprep.io/ready': 'false', 'qprep.io/verdict': 'not-ready', 'qprep.io/npu.family': 'a2', 'qprep.io/npu.count': '8' });
    expect(Object.keys(broken).some((k) => k.includes('superpod'))).toBe(false);
    const duo = nodeLabels(demoReport('300i-duo-healthy'));
    expect(duo['qprep.io/npu.family']).toBe('310p');
    expect(duo['qprep.io/npu.ddr-mb']).toMatch(/^\d+$/);
    expect(duo['qprep.io/npu.hbm-mb']).toBeUndefined();
  });

  it('mixed TLS switches, and a version with characters labels cannot hold', () => {
    const report = structuredClone(demoReport('a2-healthy'));
    report.facts!.devices[0]!.tls = true;
    report.facts!.versions.cann = '8.5.RC1 (beta)';
    const labels = nodeLabels(report);
    expect(labels['qprep.io/hccn.tls']).toBe('mixed');
    expect(labels['qprep.io/cann.version']).toBe('8.5.RC1__beta');
  });

  it('a run without a verdict is ready=false, verdict no-verdict, and says nothing of hardware it did not read', () => {
    expect(nodeLabels(errorDocument('invalid-cluster', 'invalid cluster file c.yaml: nodes[1]: ...', 'check'))).toEqual({ 'qprep.io/ready': 'false', 'qprep.io/verdict': 'no-verdict' });
  });

  it('the feature file: NFD local source lines, comments and an RFC 3339 expiry', () => {
    const text = featureFileText({ 'qprep.io/ready': 'true' }, { runId: 'r1', finishedAt: new Date('2026-12-03T11:29:49.106Z'), expiresAt: new Date('2026-12-03T11:39:49.106Z') });
    expect(text.split('\n')).toEqual([
      '# qprep serve: the verdict of this node for node-feature-discovery (local source); rewritten after every run',
      '# run r1 finished 2026-12-03T11:29:49.106Z',
      '# +expiry-time=2026-12-03T11:39:49Z',
      'qprep.io/ready=true',
      '',
    ]);
  });
});

describe('node annotations of a run', () => {
  it('the failing checks, the NPU error codes npu-smi reported and the one-line reason', () => {
    const annotations = nodeAnnotations(demoReport('a2-broken'));
    expect(annotations).toMatchObject({
      'qprep.io/verdict': 'not-ready',
      'qprep.io/failing-checks': 'npu.driver-files,npu.health,npu.ecc,npu.idle',
      'qprep.io/error-codes': 'npu5:80E01801',
      // npu.ecc's: NPU 5's HBM has uncorrectable errors
      'qprep.io/action': 'isolate-npu',
    });
    expect(annotations['qprep.io/reason']).toMatch(/^NOT READY: npu\.driver-files: /);
  });

  it('a ready node removes the lists (null in the merge patch); no verdict carries qprep\'s error code', () => {
    expect(nodeAnnotations(demoReport('a2-healthy'))).toMatchObject({ 'qprep.io/verdict': 'ready', 'qprep.io/failing-checks': null, 'qprep.io/error-codes': null });
    expect(nodeAnnotations(errorDocument('interrupted', 'the run exceeded its budget of 4m', 'check'))).toMatchObject({
      'qprep.io/verdict': 'no-verdict',
      'qprep.io/error-codes': 'qprep:interrupted',
      'qprep.io/action': null,
      'qprep.io/reason': 'NO VERDICT (interrupted): the run exceeded its budget of 4m',
    });
  });
});
