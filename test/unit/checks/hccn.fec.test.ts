import { describe, expect, it } from 'vitest';
import check from '../../../checks/hccn.fec.js';
import { ascendFixture, syntheticFixture } from '../../helpers/fixtures.js';
import { hccnHost, runHccn, twoNodeCluster } from '../../helpers/hccn-host.js';
import { expectRemediation } from '../../helpers/run-check.js';
import { expectChineseTwin } from '../../helpers/zh.js';

const cluster = { cluster: twoNodeCluster(), node: 'node1' };
const NO_FEC = ascendFixture('hccn-fec-g-mindcluster-fixture.txt');
const noFecOn = (devices: number[], speed = syntheticFixture('hccn-speed-g-200g-derived.txt')) => ({
  diag: { fec: (d: number) => (devices.includes(d) ? NO_FEC : undefined), speed: (d: number) => (devices.includes(d) ? speed : undefined) },
});

describe('hccn.fec', () => {
  it("passes ports in rs FEC mode (the doc's capture on every port), asking no speed", async () => {
    const { outcome, host } = await runHccn(check, hccnHost(), cluster);
    expect(outcome).toMatchObject({ status: 'pass', message: 'all 8 NPU ports use RS-FEC' });
    expect(host.calls.some((c) => c.includes('-speed'))).toBe(false);
  });

  it('fails a 200G port in "no FEC mode" (mind-cluster\'s capture) with the exact hccn_tool fix', async () => {
    const { outcome, result, host } = await runHccn(check, hccnHost(noFecOn([3])), cluster);
    expect(outcome.status).toBe('fail');
    expect(outcome.message).toBe('1 of 8 NPU ports run without FEC at a speed that needs RS-FEC: dev3 (200 Gb/s)');
    expect(outcome.remediation).toBe('hccn_tool -i 3 -fec -s encoding rs   # RS-FEC, persisted in /etc/hccn.conf; set the switch port to RS-FEC too');
    expect(result.action).toBe('reconfigure');
    expect(host.calls.filter((c) => c.includes('-speed')).map((c) => c[2])).toEqual(['3']);
    expectRemediation(outcome);
  });

  it('gives one loop for several ports', async () => {
    const { outcome } = await runHccn(check, hccnHost(noFecOn([1, 6])), cluster);
    expect(outcome.remediation).toContain('for i in 1 6; do hccn_tool -i $i -fec -s encoding rs; done');
  });

  it('warns when the speed of a port without FEC is unknown (derived: Speed: Unknown!)', async () => {
    const { outcome } = await runHccn(check, hccnHost(noFecOn([0], syntheticFixture('hccn-speed-g-unknown-derived.txt'))), cluster);
    expect(outcome.status).toBe('warn');
    expect(outcome.message).toContain('dev0 (speed unknown)');
  });

  it('skips on A3 without calling hccn_tool: its -fec answers "does not support switching fec mode"', async () => {
    const { outcome, host } = await runHccn(check, hccnHost({ family: 'a3' }));
    expect(outcome.status).toBe('skip');
    expect(outcome.message).toContain('A3');
    expect(host.calls.some((c) => c.includes('-fec'))).toBe(false);
  });
});

describe('hccn.fec in Chinese', () => {
  it('says the same in Chinese; the fix keeps its bytes', async () => {
    const english = await runHccn(check, hccnHost(noFecOn([3])), cluster);
    const chinese = await runHccn(check, hccnHost(noFecOn([3])), { ...cluster, lang: 'zh' });
    expectChineseTwin(english.outcome, chinese.outcome, ['hccn_tool -i 3 -fec -s encoding rs']);
  });
});
