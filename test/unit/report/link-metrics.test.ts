import { execaSync } from 'execa';
import { describe, expect, it } from 'vitest';
import counters from '../../../checks/hccn.counters.js';
import linkStability from '../../../checks/hccn.link-stability.js';
import optics from '../../../checks/hccn.optics.js';
import type { CheckResult } from '../../../src/core/types.js';
import { formatPrometheus } from '../../../src/report/prometheus.js';
import { ascendFixture, bundleAnswer, syntheticFixture } from '../../helpers/fixtures.js';
import { hccnHost, runHccn, twoNodeCluster } from '../../helpers/hccn-host.js';
import { reportOf } from '../../helpers/reports.js';
import { hasTool, PROMTOOL } from '../../helpers/tools.js';

const cluster = { cluster: twoNodeCluster(), node: 'node1' };
const BEFORE = ascendFixture('hccn-stat-g-short-8dev-before-mindcluster-modelarts.txt');
const AFTER = ascendFixture('hccn-stat-g-short-8dev-after-mindcluster-modelarts.txt');

/** The three link checks on an A2 whose device 3 flapped (derived), device 5 has a weak lane (derived), devices 5 and 6 counted errors (mind-cluster). */
async function linkReport(): Promise<string> {
  const host = hccnHost({
    diag: {
      link_stat: (d) => (d === 3 ? syntheticFixture('hccn-link-stat-g-flap-24h-derived.txt').replace(/\[devid 0\]/g, '[devid 3]') : undefined),
      optical: (d) => (d === 5 ? syntheticFixture('hccn-optical-g-weak-lane-derived.txt') : undefined),
      stat: (d) => [bundleAnswer(BEFORE, d, 'stat'), bundleAnswer(AFTER, d, 'stat')],
    },
  });
  const results: CheckResult[] = [];
  for (const check of [linkStability, optics, counters]) results.push({ ...(await runHccn(check, host, cluster)).result, durationMs: 1 });
  return formatPrometheus(reportOf(results));
}

describe('per-device series of the link checks', () => {
  it('gives the flaps in 24 h, the lanes\' powers in milliwatts and the error counters with their growth, per device', async () => {
    const text = await linkReport();
    expect(text).toContain('qprep_link_flaps_24h{device="3"} 1\n');
    expect(text).toContain('qprep_link_flaps_24h{device="0"} 0\n');
    expect(text).toContain('qprep_link_history_down{device="3"} 0\n');
    expect(text).toContain('qprep_optical_rx_power_milliwatts{device="5",lane="1"} 0.3054\n');
    expect(text).toContain('qprep_optical_tx_power_milliwatts{device="0",lane="0"} 1.4035\n');
    expect(text).toContain('qprep_optical_temperature_celsius{device="2"} 47\n');
    expect(text).toContain('# TYPE qprep_hccn_error_packets_total counter\n');
    expect(text).toContain('qprep_hccn_error_packets_total{device="6",counter="roce_tx_err_pkt_num"} 77\n');
    expect(text).toContain('qprep_hccn_error_packets_growth{device="6",counter="roce_tx_err_pkt_num",between="reads"} 77\n');
    expect(text).toContain('qprep_hccn_error_packets_growth{device="0",counter="roce_rx_err_pkt_num",between="reads"} 0\n');
    expect(text).toMatch(/# HELP qprep_optical_rx_power_milliwatts \S/);
  });

  it('gives no series for a check that did not read its ports (absent, never a zero that reads as a measurement)', () => {
    const text = formatPrometheus(reportOf([{ id: 'hccn.optics', title: 'x', category: 'hccn', level: 'required', status: 'error', message: 'cannot read', evidence: { problems: [] }, durationMs: 1 }]));
    expect(text).not.toContain('qprep_optical_rx_power_milliwatts');
  });

  it.skipIf(!hasTool(PROMTOOL, 'prometheus'))('is valid for promtool check metrics', async () => {
    const run = execaSync('promtool', ['check', 'metrics'], { input: await linkReport(), reject: false });
    expect(`${String(run.stdout)}${String(run.stderr)}`).toBe('');
    expect(run.exitCode).toBe(0);
  });
});
