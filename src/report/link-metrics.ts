import type { Family } from './metric-family.js';
import type { Report } from './schema.js';

/**
 * The per-device series of the link-health checks, from their evidence: what /metrics of `qprep
 * serve` (and `--format prometheus`) gives Prometheus to watch a port's trend between the runs
 * that judge it. A check that did not run, or could not read its ports, gives no series (absent,
 * not zero: zero would be a reading). Evidence is read leniently, field by field (no schema
 * library here: this module is on the start-up path of every command): a report of another
 * version without these fields gives none.
 */

type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);
const num = (value: unknown): number | null => (typeof value === 'number' && Number.isFinite(value) ? value : null);

/** A record of numbers, its other entries left out. */
function numbers(value: unknown): Record<string, number> {
  if (!isObject(value)) return {};
  return Object.fromEntries(Object.entries(value).filter((e): e is [string, number] => num(e[1]) !== null));
}

/** The evidence's ports of a check of the report, each with a numeric device. */
function portsOf(report: Report, id: string): Json[] {
  const ports = report.checks.find((c) => c.id === id)?.evidence.ports;
  if (!Array.isArray(ports)) return [];
  return ports.filter((p): p is Json => isObject(p) && num(p.device) !== null);
}

const device = (port: Json) => String(port.device);

function linkFamilies(report: Report): Family[] {
  const ports = portsOf(report, 'hccn.link-stability').filter((p) => num(p.flaps24h) !== null && typeof p.state === 'string');
  return [
    {
      name: 'qprep_link_flaps_24h',
      help: 'Down transitions of the NPU port in the 24 h before the last read, its bring-up aside (hccn_tool -link_stat -g; in serve also those counted across runs).',
      samples: ports.map((p) => ({ labels: { device: device(p) }, value: num(p.flaps24h)! })),
    },
    {
      name: 'qprep_link_history_down',
      help: "1 when the newest record of the NPU port's link history (hccn_tool -link_stat -g) is LINK DOWN, 0 otherwise.",
      samples: ports.map((p) => ({ labels: { device: device(p) }, value: p.state === 'down-now' ? 1 : 0 })),
    },
  ];
}

function opticsFamilies(report: Report): Family[] {
  const ports = portsOf(report, 'hccn.optics');
  const lanes = (side: 'txPowerMw' | 'rxPowerMw') =>
    ports.flatMap((p) =>
      (Array.isArray(p.lanes) ? p.lanes : []).flatMap((lane: unknown) => {
        const value = isObject(lane) ? num(lane[side]) : null;
        return value === null || !isObject(lane) || num(lane.lane) === null ? [] : [{ labels: { device: device(p), lane: String(lane.lane) }, value }];
      }),
    );
  return [
    { name: 'qprep_optical_rx_power_milliwatts', help: 'Optical power the module of the NPU port receives on the lane, in milliwatts (hccn_tool -optical -g).', samples: lanes('rxPowerMw') },
    { name: 'qprep_optical_tx_power_milliwatts', help: 'Optical power the module of the NPU port sends on the lane, in milliwatts (hccn_tool -optical -g).', samples: lanes('txPowerMw') },
    {
      name: 'qprep_optical_temperature_celsius',
      help: 'Temperature of the optical module of the NPU port, in degrees Celsius (hccn_tool -optical -g).',
      samples: ports.flatMap((p) => (num(p.temperatureC) === null ? [] : [{ labels: { device: device(p) }, value: num(p.temperatureC)! }])),
    },
  ];
}

/** Every error counter with its growth (zero when it did not grow): a zero is a reading too. */
function grownOrZero(errors: Record<string, number>, growth: Record<string, number>): Record<string, number> {
  return Object.fromEntries(Object.keys(errors).map((name) => [name, growth[name] ?? 0]));
}

function counterFamilies(report: Report): Family[] {
  const ports = portsOf(report, 'hccn.counters');
  const samples = (pick: (p: Json) => Record<string, number>, extra: Record<string, string> = {}) =>
    ports.flatMap((p) => Object.entries(pick(p)).map(([counter, value]) => ({ labels: { device: device(p), counter, ...extra }, value })));
  const since = (p: Json) => (isObject(p.sinceLastRun) ? numbers(p.sinceLastRun.growth) : undefined);
  return [
    {
      name: 'qprep_hccn_error_packets_total',
      help: "The NPU port's error counter as hccn_tool -stat -g printed it at the last read: packets counted since the counters were last cleared.",
      type: 'counter',
      samples: samples((p) => numbers(p.errors)),
    },
    {
      name: 'qprep_hccn_error_packets_growth',
      help: "Packets the NPU port's error counter grew by: between the two reads of the last check (between=\"reads\"), and since the previous run of qprep serve (between=\"runs\").",
      samples: [
        ...samples((p) => (num(p.intervalMs) === null ? {} : grownOrZero(numbers(p.errors), numbers(p.growth))), { between: 'reads' }),
        ...samples((p) => (since(p) === undefined ? {} : grownOrZero(numbers(p.errors), since(p)!)), { between: 'runs' }),
      ],
    },
  ];
}

/** The per-device families of a report; a family without samples is left out. */
export function linkHealthFamilies(report: Report): Family[] {
  return [...linkFamilies(report), ...opticsFamilies(report), ...counterFamilies(report)].filter((f) => f.samples.length > 0);
}
