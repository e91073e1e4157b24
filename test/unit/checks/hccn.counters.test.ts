import { describe, expect, it } from 'vitest';
import check from '../../../checks/hccn.counters.js';
import { HealthLedger } from '../../../src/core/health-ledger.js';
import { ascendFixture, bundleAnswer, syntheticFixture } from '../../helpers/fixtures.js';
import { hccnHost, runHccn, twoNodeCluster } from '../../helpers/hccn-host.js';
import { expectRemediation } from '../../helpers/run-check.js';
import { expectChineseTwin } from '../../helpers/zh.js';

const cluster = { cluster: twoNodeCluster(), node: 'node1' };
const BEFORE = ascendFixture('hccn-stat-g-short-8dev-before-mindcluster-modelarts.txt');
const AFTER = ascendFixture('hccn-stat-g-short-8dev-after-mindcluster-modelarts.txt');
/** the first read from mind-cluster's bundle before its job, the second from the bundle after it */
const grew = { diag: { stat: (d: number) => [bundleAnswer(BEFORE, d, 'stat'), bundleAnswer(AFTER, d, 'stat')] } };
const everywhere = (answer: string | string[]) => ({ diag: { stat: () => answer } });

describe('hccn.counters', () => {
  it('reads every port twice, 3 s apart on the host, and warns about the counters that grew (mind-cluster: devices 5 and 6)', async () => {
    const { outcome, result, host } = await runHccn(check, hccnHost(grew), cluster);
    expect(outcome.status).toBe('warn');
    expect(outcome.message).toMatch(/^the error counters of 2 of 8 NPU ports grew: dev5 roce_rx_err_pkt_num \+11, roce_tx_err_pkt_num \+12 in 3.0 s, dev6 roce_rx_err_pkt_num \+13, roce_tx_err_pkt_num \+77 in 3.0 s$/);
    expect(result.action).toBe('monitor');
    expect(host.calls.filter((c) => c[3] === '-stat')).toHaveLength(16);
    expect(host.pauses.length).toBe(8);
    expect(Math.max(...host.pauses)).toBeLessThanOrEqual(3000);
    expect(Math.min(...host.pauses)).toBeGreaterThan(2500);
    expectRemediation(outcome);
  });

  it('passes unchanged counters, saying that this older hccn_tool prints no traffic counter', async () => {
    const { outcome } = await runHccn(check, hccnHost(), cluster);
    expect(outcome).toMatchObject({ status: 'pass', message: 'no error counter of the 8 NPU ports grew in 3 s; dev0-7: this hccn_tool prints no traffic counter' });
  });

  it('says "not exercised", never "0 errors", for ports that carried no packet (derived idle -stat)', async () => {
    const { outcome, result } = await runHccn(check, hccnHost(everywhere(syntheticFixture('hccn-stat-g-full-idle-derived.txt'))), cluster);
    expect(outcome.status).toBe('skip');
    expect(outcome.message).toBe('not exercised: none of the 8 NPU ports has carried a packet since its counters were cleared, so their errors say nothing');
    expect(outcome.message).not.toMatch(/\b0 errors\b/);
    expect(result.action).toBe('none');
    const mixed = await runHccn(
      check,
      hccnHost({ diag: { stat: (d) => syntheticFixture(d < 4 ? 'hccn-stat-g-full-idle-derived.txt' : 'hccn-stat-g-full-traffic-derived.txt') } }),
      cluster,
    );
    expect(mixed.outcome.status).toBe('pass');
    expect(mixed.outcome.message).toContain('not exercised: dev0-3 (no packet since the counters were cleared); dev4-7 carried no traffic during the check');
  });

  it('serve: warns about growth since the last run, and fails a port whose errors grew in 3 runs within 24 h', async () => {
    const history = new HealthLedger();
    const at = (hours: number) => new Date(Date.UTC(2026, 11, 1, hours));
    const stat = (n: number) => everywhere(`packet statistics:\nroce_rx_err_pkt_num:${n}\nroce_tx_err_pkt_num:0\n`);
    expect((await runHccn(check, hccnHost(stat(0)), { ...cluster, history, now: at(0) })).outcome.status).toBe('pass');
    const second = await runHccn(check, hccnHost(stat(4)), { ...cluster, history, now: at(1) });
    expect(second.outcome.status).toBe('warn');
    expect(second.outcome.message).toContain('dev0 roce_rx_err_pkt_num +4 since the run at 2026-12-01T00:00:00.000Z');
    expect((await runHccn(check, hccnHost(stat(9)), { ...cluster, history, now: at(2) })).outcome.status).toBe('warn');
    const fourth = await runHccn(check, hccnHost(stat(12)), { ...cluster, history, now: at(3) });
    expect(fourth.outcome.status).toBe('fail');
    expect(fourth.result.action).toBe('replace-part');
    // 24 h later with no growth: the window is empty again
    expect((await runHccn(check, hccnHost(stat(12)), { ...cluster, history, now: at(28) })).outcome.status).toBe('pass');
  });
});

describe('hccn.counters in Chinese', () => {
  it('says the same in Chinese', async () => {
    const english = await runHccn(check, hccnHost(grew), cluster);
    const chinese = await runHccn(check, hccnHost(grew), { ...cluster, lang: 'zh' });
    expectChineseTwin(english.outcome, chinese.outcome, ['hccn_tool -i 5 -stat -g']);
    const idle = hccnHost(everywhere(syntheticFixture('hccn-stat-g-full-idle-derived.txt')));
    expectChineseTwin((await runHccn(check, idle, cluster)).outcome, (await runHccn(check, idle, { ...cluster, lang: 'zh' })).outcome);
  });
});
