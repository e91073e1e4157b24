import { describe, expect, it } from 'vitest';
import check from '../../../checks/hccn.optics.js';
import { ascendFixture, syntheticFixture } from '../../helpers/fixtures.js';
import { hccnHost, runHccn, twoNodeCluster } from '../../helpers/hccn-host.js';
import { expectRemediation } from '../../helpers/run-check.js';
import { expectChineseTwin } from '../../helpers/zh.js';

const cluster = { cluster: twoNodeCluster(), node: 'node1' };
const on = (devices: number[], answer: string | { stdout: string; stderr?: string; exitCode?: number }) => ({ diag: { optical: (d: number) => (devices.includes(d) ? answer : undefined) } });

describe('hccn.optics', () => {
  it('passes modules inside their own thresholds and the warning levels (derived healthy module on every port)', async () => {
    const { outcome } = await runHccn(check, hccnHost(), cluster);
    expect(outcome).toMatchObject({ status: 'pass', message: 'the optical modules of all 8 NPU ports are inside their own thresholds, no lane under the warning level or far from its peers' });
  });

  it("fails mind-cluster's capture: Tx lane 0 over and Rx lane 1 under the module's own thresholds; the contradictions said as such", async () => {
    const { outcome, result } = await runHccn(check, hccnHost(on([2], ascendFixture('hccn-optical-g-mindcluster-fixture.txt'))), cluster);
    expect(outcome.status).toBe('fail');
    expect(outcome.message).toBe(
      "1 of 8 NPU ports have an optical module outside its own thresholds, or none: dev2 (Hisense LMQ8611-PC+): Tx lane 0 4.4035 mW above the module's high threshold 3.5481 mW; Rx lane 1 0.0054 mW below the module's low threshold 0.1445 mW",
    );
    expect(result.action).toBe('replace-part');
    expect(outcome.details![0]).toContain('the module says "not present" yet reports its temperature and powers: the fields contradict each other');
    expect(outcome.details![0]).toContain('Rx Los Flag 0xff says lane 0, 2, 3 lost the signal, yet its power is healthy: the fields contradict each other');
    expect(outcome.details![0]).toContain('Rx lanes 22.77 dB apart (lane 3 to lane 1; at most 3 dB)');
    expect(outcome.remediation).toContain('hccn_tool -i 2 -optical -g');
    expectRemediation(outcome);
  });

  it('warns about a weak lane inside the module range but under 0.6 mW, and the lane spread it makes (derived), with action monitor', async () => {
    const { outcome, result } = await runHccn(check, hccnHost(on([5], syntheticFixture('hccn-optical-g-weak-lane-derived.txt'))), cluster);
    expect(outcome.status).toBe('warn');
    expect(outcome.message).toBe("1 of 8 NPU ports' optical modules need watching: dev5 (Hisense LMQ8611-PC+): Rx lane 1 0.3054 mW, under the 0.6 mW warning level; Rx lanes 5.24 dB apart (lane 3 to lane 1; at most 3 dB)");
    expect(result.action).toBe('monitor');
    const port = (outcome.evidence!.ports as Array<{ device: number; lanes: Array<{ rxPowerMw: number }> }>).find((p) => p.device === 5)!;
    expect(port.lanes[1]!.rxPowerMw).toBe(0.3054);
    expect(outcome.evidence!.warnLevels).toMatchObject({ rxWeakBelowMw: 0.6, laneSpreadDb: 3 });
  });

  it('fails a port without a module, whether the tool says so in one line or prints NA for everything (derived)', async () => {
    for (const answer of [{ stdout: '', stderr: 'Optical module is not present.\n', exitCode: 1 }, syntheticFixture('hccn-optical-g-absent-derived.txt')]) {
      const { outcome } = await runHccn(check, hccnHost(on([7], answer)), cluster);
      expect(outcome.status).toBe('fail');
      expect(outcome.message).toContain('dev7: no optical module in the cage');
    }
  });

  it('warns, never passes, when the only finding is a contradiction', async () => {
    const contradicting = syntheticFixture('hccn-optical-g-healthy-derived.txt').replace('Rx Los Flag          : 0x0', 'Rx Los Flag          : 0x1');
    const { outcome } = await runHccn(check, hccnHost(on([0], contradicting)), cluster);
    expect(outcome.status).toBe('warn');
    expect(outcome.message).toContain('Rx Los Flag 0x1 says lane 0 lost the signal, yet its power is healthy');
    expect(outcome.remediation).toContain('latched flags clear once read');
  });

  it('only warns on a single node', async () => {
    const { outcome } = await runHccn(check, hccnHost(on([2], ascendFixture('hccn-optical-g-mindcluster-fixture.txt'))));
    expect(outcome.status).toBe('warn');
  });
});

describe('hccn.optics in Chinese', () => {
  it('says the same in Chinese', async () => {
    for (const spec of [on([2], ascendFixture('hccn-optical-g-mindcluster-fixture.txt')), on([5], syntheticFixture('hccn-optical-g-weak-lane-derived.txt'))]) {
      const english = await runHccn(check, hccnHost(spec), cluster);
      const chinese = await runHccn(check, hccnHost(spec), { ...cluster, lang: 'zh' });
      expectChineseTwin(english.outcome, chinese.outcome);
    }
  });
});
