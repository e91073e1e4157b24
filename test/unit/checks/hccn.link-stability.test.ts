import { describe, expect, it } from 'vitest';
import check from '../../../checks/hccn.link-stability.js';
import { HealthLedger } from '../../../src/core/health-ledger.js';
import { ascendFixture, bundleAnswer, syntheticFixture } from '../../helpers/fixtures.js';
import { hccnHost, runHccn, twoNodeCluster } from '../../helpers/hccn-host.js';
import { expectRemediation } from '../../helpers/run-check.js';
import { expectChineseTwin } from '../../helpers/zh.js';

const AFTER = ascendFixture('hccn-link-stat-g-8dev-after-mindcluster-modelarts.txt');
const cluster = { cluster: twoNodeCluster(), node: 'node1' };
/** mind-cluster's bundle after the job: devices 0 and 3 have a newest record LINK DOWN */
const after = { diag: { link_stat: (d: number) => bundleAnswer(AFTER, d, 'link_stat') } };
/** the HCCL guide's capture with a flap added 12 h before its current time (derived), on some devices */
const flapOn = (devices: number[]) => ({
  diag: { link_stat: (d: number) => (devices.includes(d) ? syntheticFixture('hccn-link-stat-g-flap-24h-derived.txt').replace(/\[devid 0\]/g, `[devid ${d}]`) : undefined) },
});

/** A -link_stat -g answer in the driver's print format with `downs` DOWN/UP pairs an hour apart before `now`, after a bring-up long before. */
function flapping(device: number, downs: number, downCount = downs + 1): string {
  const p = `[devid ${device}]`;
  const lines = [`${p}current time        : Tue Oct 28 21:46:46 2025`, `${p}link up count       : ${downs + 2}`, `${p}link down count     : ${downCount}`, `${p}link change records :`];
  for (let k = 0; k < downs; k++) {
    const hour = String(20 - k).padStart(2, '0');
    lines.push(`${p}    Tue Oct 28 ${hour}:10:05 2025    LINK UP`, `${p}    Tue Oct 28 ${hour}:10:00 2025    LINK DOWN`);
  }
  lines.push(`${p}    Sun Oct  5 10:13:51 2025    LINK UP`, `${p}    Sun Oct  5 10:13:50 2025    LINK DOWN`, `${p}    Sun Oct  5 10:13:35 2025    LINK UP`);
  return `${lines.join('\n')}\n`;
}

describe('hccn.link-stability', () => {
  it("passes mind-cluster's bundle before its job with a note: every port went down once while brought up only", async () => {
    const { outcome, result } = await runHccn(check, hccnHost(), cluster);
    expect(outcome.status).toBe('pass');
    expect(outcome.message).toBe('all 8 NPU ports up with no down transition in the 24 h before the read; dev0-7 went down once while brought up only (a note)');
    expect(outcome.details).toBeUndefined();
    expect(result.action).toBeUndefined();
  });

  it('fails the ports whose newest record is LINK DOWN, however healthy the rest (the bundle after the job)', async () => {
    const { outcome, result } = await runHccn(check, hccnHost(after), cluster);
    expect(outcome.status).toBe('fail');
    expect(outcome.message).toBe(
      '2 of 8 NPU ports are down now by their link history, whatever their counters say: dev0 LINK DOWN since Tue Aug  1 14:44:40 2022, dev3 LINK DOWN since Tue Aug  1 14:44:40 2022',
    );
    expect(outcome.remediation).toContain('hccn_tool -i 0 -cfg recovery');
    expect(result.action).toBe('reconfigure');
    expectRemediation(outcome);
    const ports = (outcome.evidence!.ports as Array<{ device: number; state: string }>).map((p) => p.state);
    expect(ports).toEqual(['down-now', 'bring-up-burst', 'bring-up-burst', 'down-now', 'bring-up-burst', 'bring-up-burst', 'bring-up-burst', 'bring-up-burst']);
  });

  it('only warns about a port down now on a single node, where HCCL keeps to HCCS', async () => {
    const { outcome } = await runHccn(check, hccnHost(after));
    expect(outcome.status).toBe('warn');
    expect(outcome.message).toContain('only traffic between nodes uses the NPU network');
  });

  it('warns about a down transition in the 24 h before the read, after bring-up (derived), with action monitor', async () => {
    const { outcome, result } = await runHccn(check, hccnHost(flapOn([3])), cluster);
    expect(outcome.status).toBe('warn');
    expect(outcome.message).toBe('1 of 8 NPU ports went down in the 24 h before the read, after bring-up: dev3 went down once within 24 h, last at Tue Oct 28 09:12:05 2025');
    expect(outcome.remediation).toContain('hccn_tool -i 3 -optical -g');
    expect(result.action).toBe('monitor');
    // the message names the one port; the details keep only what it does not say (the bring-up note)
    expect(outcome.details).toEqual(['dev0-2,4-7 went down only while brought up: a note, not a flap']);
  });

  it("fails with isolate-npu at 5 down transitions of a port within 24 h: the device plugin's rule for fault code 81078603", async () => {
    const { outcome, result } = await runHccn(check, hccnHost({ diag: { link_stat: (d) => (d === 6 ? flapping(6, 5) : undefined) } }), cluster);
    expect(outcome.status).toBe('fail');
    expect(outcome.message).toContain('1 of 8 NPU ports went down 5 times or more within 24 h: dev6 went down 5 times within 24 h (out of service until Thu Oct 30 20:10:00 2025 by the frequency rule)');
    expect(outcome.remediation).toContain('leave NPU device 6 out of ASCEND_RT_VISIBLE_DEVICES');
    expect(result.action).toBe('isolate-npu');
    const four = await runHccn(check, hccnHost({ diag: { link_stat: (d) => (d === 6 ? flapping(6, 4) : undefined) } }), cluster);
    expect(four.outcome.status).toBe('warn');
  });

  it('serve: counts the downs the 10-record history lost, from the down count between runs, and holds the escalation', async () => {
    const history = new HealthLedger();
    const run = (downs: number, count: number) => runHccn(check, hccnHost({ diag: { link_stat: (d) => (d === 2 ? flapping(2, downs, count) : undefined) } }), { ...cluster, history });
    expect((await run(2, 3)).outcome.status).toBe('warn');
    // the same two records, but the count says 3 more went down since the last run
    const second = await run(2, 6);
    expect(second.outcome.status).toBe('fail');
    expect(second.result.action).toBe('isolate-npu');
    const port = (second.outcome.evidence!.ports as Array<{ device: number; flaps24h: number }>).find((p) => p.device === 2)!;
    expect(port.flaps24h).toBe(5);
  });

  it('passes a port with no recorded change (link change records : NA, derived)', async () => {
    const { outcome } = await runHccn(check, hccnHost({ diag: { link_stat: (d) => syntheticFixture('hccn-link-stat-g-no-records-derived.txt').replace(/\[devid 0\]/g, `[devid ${d}]`) } }), cluster);
    expect(outcome).toMatchObject({ status: 'pass', message: 'all 8 NPU ports up with no down transition in the 24 h before the read' });
  });

  it('is an error naming the command when hccn_tool fails for a device', async () => {
    const { outcome } = await runHccn(check, hccnHost({ diag: { link_stat: (d) => (d === 4 ? { stdout: '', stderr: 'dsmi_get_device_info failed', exitCode: 1 } : undefined) } }), cluster);
    expect(outcome.status).toBe('error');
    expect(outcome.message).toContain('(dev4)');
    expectRemediation(outcome);
  });

  it('is an error, never a pass, when a device answers without a line of link history', async () => {
    const { outcome } = await runHccn(check, hccnHost({ diag: { link_stat: (d) => (d === 5 ? '\n' : undefined) } }), cluster);
    expect(outcome).toMatchObject({ status: 'error', message: 'cannot read the link history of 1 of 8 devices (dev5): the answer holds no [devid N] line of link history' });
  });
});

describe('hccn.link-stability in Chinese', () => {
  it('says the same in Chinese; the commands keep their bytes', async () => {
    for (const spec of [after, flapOn([3])]) {
      const english = await runHccn(check, hccnHost(spec), cluster);
      const chinese = await runHccn(check, hccnHost(spec), { ...cluster, lang: 'zh' });
      expectChineseTwin(english.outcome, chinese.outcome, spec === after ? ['hccn_tool -i 0 -cfg recovery'] : ['hccn_tool -i 3 -optical -g']);
    }
  });
});
