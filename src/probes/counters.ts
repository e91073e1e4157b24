import type { HealthLedger } from '../core/health-ledger.js';

/**
 * The judgement of a port's `-stat -g` counters read twice: which error counters grew between
 * the reads (and, in serve, since the last run), and whether the port carried traffic at all. A
 * port with no traffic says nothing about its errors: it is "not exercised", never "0 errors".
 * The counter names are the driver source's (tool_display_stat_info); older drivers print only
 * `roce_rx_err_pkt_num` and `roce_tx_err_pkt_num`, without which traffic cannot be told.
 */

/** The error counters, by what they count. */
export const ERROR_COUNTERS: Readonly<Record<string, 'bad' | 'fcs' | 'roce' | 'qp' | 'retransmit'>> = {
  mac_tx_bad_pkt_num: 'bad',
  mac_rx_bad_pkt_num: 'bad',
  mac_rx_fcs_err_pkt_num: 'fcs',
  roce_rx_err_pkt_num: 'roce',
  roce_tx_err_pkt_num: 'roce',
  roce_verification_err_num: 'roce',
  roce_qp_status_err_num: 'qp',
  // the HCCL guide: a growing roce_new_pkt_rty_num during a job is packet loss and retransmission
  roce_new_pkt_rty_num: 'retransmit',
  roce_out_of_order_num: 'retransmit',
  roce_unexpected_ack_num: 'retransmit',
};

/** The packets a port sent and received, RoCE and the NIC path alike. */
export const TRAFFIC_COUNTERS = ['mac_tx_total_pkt_num', 'mac_rx_total_pkt_num', 'roce_rx_all_pkt_num', 'roce_tx_all_pkt_num', 'nic_tx_all_pkg_num', 'nic_rx_all_pkg_num'] as const;

/**
 * Growth of the error counters in this many runs of serve within 24 h is persistent: a failure.
 * qprep's own rule, in the form of the device plugin's fault-frequency rules (2 to 5 occurrences
 * of a fault code in 24 h take an NPU out of service): there is no published rule for counters.
 */
export const PERSISTENT_GROWTH_RUNS = 3;
export const GROWTH_WINDOW_MS = 24 * 3600_000;

export type Exercised = 'yes' | 'idle-now' | 'never' | 'unknown';

export interface CounterVerdict {
  device: number;
  /** full: the driver prints the traffic counters; short: the two RoCE error counters of older drivers */
  form: 'full' | 'short';
  /** milliseconds between the two reads; null when the second read was not made */
  intervalMs: number | null;
  /** the error counters as last read */
  errors: Record<string, number>;
  /** error counters that grew between the two reads: counter -> by how much */
  growth: Record<string, number>;
  /** serve: error counters that grew since the last run's read, and when that was (ISO) */
  sinceLastRun: { growth: Record<string, number>; previousAt: string } | null;
  /** serve: the runs within 24 h in which the error counters grew */
  growthRuns24h: number;
  /** the traffic counters' sum as last read; null when the driver prints none */
  trafficPackets: number | null;
  exercised: Exercised;
  /** a counter went down between reads: the counters were cleared (or the driver reloaded) */
  reset: boolean;
}

function pick(values: Readonly<Record<string, number>>, names: readonly string[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const name of names) if (values[name] !== undefined) out[name] = values[name]!;
  return out;
}

/** The counters that grew from `before` to `after`; a counter that went down marks a reset. */
export function grownBetween(before: Readonly<Record<string, number>>, after: Readonly<Record<string, number>>): { growth: Record<string, number>; reset: boolean } {
  const growth: Record<string, number> = {};
  let reset = false;
  for (const [name, value] of Object.entries(after)) {
    const was = before[name];
    if (was === undefined) continue;
    if (value < was) reset = true;
    else if (value > was) growth[name] = value - was;
  }
  return { growth, reset };
}

function trafficOf(values: Readonly<Record<string, number>>): number | null {
  const present = TRAFFIC_COUNTERS.filter((n) => values[n] !== undefined);
  return present.length === 0 ? null : present.reduce((sum, n) => sum + values[n]!, 0);
}

/** From the traffic of the two reads (the second null when it was not made). */
function exercisedOf(first: number, second: number | null, errorsGrew: boolean): Exercised {
  if (errorsGrew) return 'yes';
  if (second === null) return first === 0 ? 'never' : 'unknown';
  if (second === 0) return 'never';
  return second > first ? 'yes' : 'idle-now';
}

export interface CounterJudgeInput {
  device: number;
  first: Readonly<Record<string, number>>;
  second: Readonly<Record<string, number>> | null;
  intervalMs: number | null;
  /** the run's clock when the last read was made */
  nowMs: number;
  history?: HealthLedger;
}

/** serve: growth since the last run's read, and the runs with growth in 24 h. */
function acrossRuns(input: CounterJudgeInput, last: Record<string, number>, grewNow: boolean): Pick<CounterVerdict, 'sinceLastRun' | 'growthRuns24h'> {
  const { history, device, nowMs } = input;
  if (!history) return { sinceLastRun: null, growthRuns24h: grewNow ? 1 : 0 };
  const previous = history.exchangeReading(`stat:dev${device}`, { atMs: nowMs, values: last });
  const since = previous ? grownBetween(previous.values, last) : undefined;
  const grewSince = since !== undefined && !since.reset && Object.keys(since.growth).length > 0;
  if (grewNow || grewSince) history.record(`counter-growth:dev${device}`, [{ id: String(nowMs), atMs: nowMs }], nowMs, GROWTH_WINDOW_MS);
  return {
    sinceLastRun: previous && since && !since.reset ? { growth: since.growth, previousAt: new Date(previous.atMs).toISOString() } : null,
    growthRuns24h: history.countWithin(`counter-growth:dev${device}`, GROWTH_WINDOW_MS, nowMs),
  };
}

export function judgeCounters(input: CounterJudgeInput): CounterVerdict {
  const names = Object.keys(ERROR_COUNTERS);
  const last = input.second ?? input.first;
  const errors = pick(last, names);
  const between = input.second ? grownBetween(pick(input.first, names), errors) : { growth: {}, reset: false };
  const grewNow = Object.keys(between.growth).length > 0;
  const traffic = trafficOf(last);
  return {
    device: input.device,
    form: traffic === null ? 'short' : 'full',
    intervalMs: input.intervalMs,
    errors,
    growth: between.growth,
    ...acrossRuns(input, errors, grewNow),
    trafficPackets: traffic,
    exercised: traffic === null ? (grewNow ? 'yes' : 'unknown') : exercisedOf(trafficOf(input.first) ?? 0, input.second ? traffic : null, grewNow),
    reset: between.reset,
  };
}
