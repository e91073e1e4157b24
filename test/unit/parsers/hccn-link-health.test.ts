import { describe, expect, it } from 'vitest';
import { parseHccnLinkStat } from '../../../src/parsers/hccn-diag.js';
import { asctimeWallClockMs, parseHccnFec, parseHccnOptical, parseHccnSpeed, parseHccnStat, powerMilliwatts } from '../../../src/parsers/hccn-link-health.js';
import type { Parsed } from '../../../src/parsers/parsed.js';
import { ascendFixture as ascend, bundleAnswer, syntheticFixture as synthetic } from '../../helpers/fixtures.js';

function ok<T>(result: Parsed<T>): T {
  if (!result.ok) throw new Error(`expected a parse, got: ${result.reason}`);
  return result.value;
}

describe('hccn_tool -optical -g', () => {
  it("reads mind-cluster's capture: presence, temperature, four lanes, the module's thresholds and its flags", () => {
    const optical = ok(parseHccnOptical(ascend('hccn-optical-g-mindcluster-fixture.txt')));
    expect(optical).toMatchObject({ kind: 'info', present: false, temperatureC: 47, vendor: 'Hisense', partNumber: 'LMQ8611-PC+', identifier: 'QSFP+ or later', elided: false });
    expect(optical.lanes).toEqual([
      { lane: 0, txPowerMw: 4.4035, rxPowerMw: 1.0189, txBiasMa: 7.936, mediaSnrDb: 23.1211 },
      { lane: 1, txPowerMw: 1.3968, rxPowerMw: 0.0054, txBiasMa: 7.928, mediaSnrDb: 22.6289 },
      { lane: 2, txPowerMw: 1.414, rxPowerMw: 0.9907, txBiasMa: 7.936, mediaSnrDb: 22.1875 },
      { lane: 3, txPowerMw: 1.4988, rxPowerMw: 1.0213, txBiasMa: 7.924, mediaSnrDb: 23.2969 },
    ]);
    expect(optical.thresholds).toEqual({ tempHighC: 70, tempLowC: 0, txPowerHighMw: 3.5481, txPowerLowMw: 0.2818, rxPowerHighMw: 3.5481, rxPowerLowMw: 0.1445 });
    expect(optical.flags).toEqual({ txLos: 0, rxLos: 0xff, txLol: 0, rxLol: 0xff });
  });

  it("reads the docs' form: readings without a lane number are lane 0, the author's elisions are noted, the 4-space indent is no key", () => {
    const optical = ok(parseHccnOptical(ascend('hccn-optical-g-lane-less-elided-mindcluster-doc.txt')));
    expect(optical.elided).toBe(true);
    expect(optical.lanes).toEqual([{ lane: 0, txPowerMw: 4.4035, rxPowerMw: 1.0189, txBiasMa: 7.936, mediaSnrDb: null }]);
    expect(optical.thresholds.rxPowerLowMw).toBe(0.1445);
  });

  it('reads an empty cage as the source prints it (derived): NA everywhere, no lane reading', () => {
    const optical = ok(parseHccnOptical(synthetic('hccn-optical-g-absent-derived.txt')));
    expect(optical).toMatchObject({ kind: 'info', present: false, temperatureC: null, temperatureText: 'NA', vendor: null });
    expect(optical.lanes).toEqual([{ lane: 0, txPowerMw: null, rxPowerMw: null, txBiasMa: null, mediaSnrDb: null }]);
  });

  it("takes the tool's one-line answers for what they are, on either stream", () => {
    expect(ok(parseHccnOptical('Optical module is not present.\n'))).toMatchObject({ kind: 'not-present', message: 'Optical module is not present.', lanes: [] });
    expect(ok(parseHccnOptical('\nControl link unreachable.\n'))).toMatchObject({ kind: 'unreachable' });
    expect(ok(parseHccnOptical('The system is in optical module initializing, please try again later.\n'))).toMatchObject({ kind: 'initializing' });
    expect(parseHccnOptical('link status: UP\n').ok).toBe(false);
  });

  it('reads CR/LF line ends and dBm powers', () => {
    const crlf = ascend('hccn-optical-g-mindcluster-fixture.txt').replace(/\n/g, '\r\n');
    expect(ok(parseHccnOptical(crlf)).lanes[1]!.rxPowerMw).toBe(0.0054);
    expect(powerMilliwatts('-3.0103 dBm')).toBeCloseTo(0.5, 4);
    expect(powerMilliwatts('NA')).toBeNull();
    expect(powerMilliwatts('not supported')).toBeNull();
  });
});

describe('hccn_tool -fec -g and -speed -g', () => {
  it('reads rs, no and the A3 answer', () => {
    expect(ok(parseHccnFec(ascend('hccn-fec-g-mindcluster-fixture.txt')))).toEqual({ supported: true, mode: 'no', line: 'fec mode: no FEC mode' });
    expect(ok(parseHccnFec(ascend('hccn-fec-g-rs-mindcluster-doc.txt')))).toMatchObject({ supported: true, mode: 'rs' });
    expect(ok(parseHccnFec('fec mode: auto FEC mode\r\n'))).toMatchObject({ mode: 'auto' });
    expect(ok(parseHccnFec(synthetic('hccn-fec-g-a3-unsupported-derived.txt')))).toMatchObject({ supported: false });
    expect(parseHccnFec('link status: UP\n').ok).toBe(false);
  });

  it('reads a speed, and Unknown! as none', () => {
    expect(ok(parseHccnSpeed(synthetic('hccn-speed-g-200g-derived.txt')))).toEqual({ mbps: 200000 });
    expect(ok(parseHccnSpeed(synthetic('hccn-speed-g-unknown-derived.txt')))).toEqual({ mbps: null });
    expect(parseHccnSpeed('Speed: fast\n').ok).toBe(false);
  });
});

describe('hccn_tool -stat -g', () => {
  it("reads the short form of mind-cluster's bundles, device by device", () => {
    const after = ascend('hccn-stat-g-short-8dev-after-mindcluster-modelarts.txt');
    expect(ok(parseHccnStat(bundleAnswer(after, 5, 'stat')))).toEqual({ counters: { roce_rx_err_pkt_num: 11, roce_tx_err_pkt_num: 12 }, elided: false });
    expect(ok(parseHccnStat(bundleAnswer(after, 0, 'stat'))).counters).toEqual({ roce_rx_err_pkt_num: 0, roce_tx_err_pkt_num: 0 });
  });

  it("reads the docs' elided full form and the derived full forms", () => {
    const doc = ok(parseHccnStat(ascend('hccn-stat-g-elided-mindcluster-doc.txt')));
    expect(doc.elided).toBe(true);
    expect(doc.counters).toMatchObject({ roce_qp_status_err_num: 0, nic_rx_all_pkg_num: 6414803 });
    expect(Object.keys(ok(parseHccnStat(synthetic('hccn-stat-g-full-idle-derived.txt'))).counters)).toHaveLength(46);
  });

  it('refuses what has no counter', () => {
    expect(parseHccnStat('packet statistics:\n').ok).toBe(false);
    expect(parseHccnStat('').ok).toBe(false);
  });
});

describe('hccn_tool -link_stat -g', () => {
  it('reads the link down count of newer drivers and skips the prompt line of the HCCL guide', () => {
    const parsed = ok(parseHccnLinkStat(ascend('hccn-link-stat-g-down-count-prompt-hccl-doc.txt')));
    expect(parsed.entries[0]).toMatchObject({ device: 0, linkUpCount: 2, linkDownCount: 1, noRecords: false });
    expect(parsed.skippedCount).toBe(1);
  });

  it("reads mind-cluster's 8-device bundle: each device's own records, the command lines skipped", () => {
    const parsed = ok(parseHccnLinkStat(ascend('hccn-link-stat-g-8dev-after-mindcluster-modelarts.txt')));
    expect(parsed.entries.map((e) => e.device)).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
    expect(parsed.entries.map((e) => e.changes[0]!.event)).toEqual(['DOWN', 'UP', 'UP', 'DOWN', 'UP', 'UP', 'UP', 'UP']);
  });

  it('reads "link change records : NA"', () => {
    expect(ok(parseHccnLinkStat(synthetic('hccn-link-stat-g-no-records-derived.txt'))).entries[0]).toMatchObject({ noRecords: true, changes: [] });
  });

  it('reads asctime as a wall-clock time, whatever the zone', () => {
    expect(asctimeWallClockMs('Tue Aug  1 14:43:40 2022')).toBe(Date.UTC(2022, 7, 1, 14, 43, 40));
    expect(asctimeWallClockMs('Wed Aug  2 03:09:26 2022')! - asctimeWallClockMs('Tue Aug  1 14:43:40 2022')!).toBe((12 * 3600 + 25 * 60 + 46) * 1000);
    expect(asctimeWallClockMs('yesterday')).toBeNull();
    expect(asctimeWallClockMs('Tue Foo  1 14:43:40 2022')).toBeNull();
  });
});
