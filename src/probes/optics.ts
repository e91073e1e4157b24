import { linkHealthValue } from '../knowledge/hccn-link-health.js';
import type { HccnOptical, OpticalLane } from '../parsers/hccn-link-health.js';

/**
 * The judgement of one port's optical module from `-optical -g`: against the module's own
 * printed thresholds (outside them: a failure), against the warning levels of Huawei's
 * fault-diagnosis toolkit (knowledge/hccn-link-health.json: a receive power under 0.6 mW, lanes
 * more than 3 dB apart, a media SNR under 18 dB), and its flags. Fields that cannot all be true
 * (a module "not present" that reports its temperature and powers; a lane flagged as having lost
 * its signal that receives a healthy power) are reported as a contradiction, never resolved by
 * guessing which one lies.
 */

export type OpticsFindingKind =
  | 'absent'
  | 'unreachable'
  | 'initializing'
  | 'temperature'
  | 'tx-power'
  | 'rx-power'
  | 'rx-weak'
  | 'lane-spread'
  | 'snr-low'
  | 'flag-set'
  | 'present-contradiction'
  | 'flag-contradiction';

export interface OpticsFinding {
  kind: OpticsFindingKind;
  severity: 'fail' | 'warn';
  lane?: number;
  /** what was read: a power in mW, a temperature in C, a spread or SNR in dB, a flag byte */
  value?: number;
  /** the limit it was held to, in the same unit */
  limit?: number;
  /** high or low side of a threshold; tx or rx for a spread or flag */
  side?: 'high' | 'low' | 'tx' | 'rx';
  /** the flag's name for flags: "Rx Los Flag" */
  flag?: string;
  /** lanes a flag or a contradiction concerns */
  lanes?: number[];
}

export interface OpticsVerdict {
  device: number;
  /** what the tool answered: the module's dump or one line instead of it */
  answer: HccnOptical['kind'];
  present: boolean | null;
  temperatureC: number | null;
  vendor: string | null;
  partNumber: string | null;
  lanes: Array<Pick<OpticalLane, 'lane' | 'txPowerMw' | 'rxPowerMw' | 'mediaSnrDb'>>;
  thresholds: HccnOptical['thresholds'];
  flags: HccnOptical['flags'];
  findings: OpticsFinding[];
  /** the dump holds no reading to judge (every power NA): nothing but presence could be judged */
  noReadings: boolean;
}

export function dbOf(mw: number): number {
  return 10 * Math.log10(mw);
}

function round(value: number, digits = 4): number {
  const f = 10 ** digits;
  return Math.round(value * f) / f;
}

/** A reading against the module's printed high and low thresholds. */
function outside(kind: 'temperature' | 'tx-power' | 'rx-power', value: number | null, low: number | null, high: number | null, lane?: number): OpticsFinding | undefined {
  if (value === null) return undefined;
  const at = lane === undefined ? {} : { lane };
  if (high !== null && value > high) return { kind, severity: 'fail', value, limit: high, side: 'high', ...at };
  if (low !== null && value < low) return { kind, severity: 'fail', value, limit: low, side: 'low', ...at };
  return undefined;
}

function thresholdFindings(optical: HccnOptical): OpticsFinding[] {
  const t = optical.thresholds;
  const found: Array<OpticsFinding | undefined> = [outside('temperature', optical.temperatureC, t.tempLowC, t.tempHighC)];
  for (const lane of optical.lanes) {
    found.push(outside('tx-power', lane.txPowerMw, t.txPowerLowMw, t.txPowerHighMw, lane.lane));
    found.push(outside('rx-power', lane.rxPowerMw, t.rxPowerLowMw, t.rxPowerHighMw, lane.lane));
  }
  return found.filter((f): f is OpticsFinding => f !== undefined);
}

/** Lanes inside the module's range but under the toolkit's warning level, lanes too far apart, a low SNR. */
function warningFindings(optical: HccnOptical, failed: readonly OpticsFinding[]): OpticsFinding[] {
  const weakBelow = linkHealthValue('optics-rx-power-warn-low');
  const spreadDb = linkHealthValue('optics-lane-spread');
  const snrLow = linkHealthValue('optics-media-snr-low');
  const found: OpticsFinding[] = [];
  const failedRx = new Set(failed.filter((f) => f.kind === 'rx-power').map((f) => f.lane));
  for (const lane of optical.lanes) {
    if (lane.rxPowerMw !== null && lane.rxPowerMw < weakBelow && !failedRx.has(lane.lane)) found.push({ kind: 'rx-weak', severity: 'warn', lane: lane.lane, value: lane.rxPowerMw, limit: weakBelow });
    if (lane.mediaSnrDb !== null && lane.mediaSnrDb < snrLow) found.push({ kind: 'snr-low', severity: 'warn', lane: lane.lane, value: lane.mediaSnrDb, limit: snrLow });
  }
  for (const side of ['tx', 'rx'] as const) {
    const powers = optical.lanes.flatMap((l) => {
      const mw = side === 'tx' ? l.txPowerMw : l.rxPowerMw;
      return mw !== null && mw > 0 ? [{ lane: l.lane, db: dbOf(mw) }] : [];
    });
    if (powers.length < 2) continue;
    const strongest = powers.reduce((a, b) => (b.db > a.db ? b : a));
    const weakest = powers.reduce((a, b) => (b.db < a.db ? b : a));
    const spread = strongest.db - weakest.db;
    if (spread > spreadDb) found.push({ kind: 'lane-spread', severity: 'warn', side, value: round(spread, 2), limit: spreadDb, lanes: [strongest.lane, weakest.lane] });
  }
  return found;
}

/** The lanes a flag byte marks, among the lanes the dump prints (bit n is lane n). */
function flaggedLanes(flag: number | null, lanes: readonly OpticalLane[]): number[] {
  if (flag === null || flag === 0) return [];
  return lanes.filter((l) => l.lane < 32 && (flag & (1 << l.lane)) !== 0).map((l) => l.lane);
}

/**
 * Loss-of-signal and loss-of-lock flags: set on a lane whose power is out of range they agree
 * with the power (a failure already found); set on a lane whose power is healthy they contradict
 * it. A flag whose bits name no printed lane is reported as set.
 */
function flagFindings(optical: HccnOptical): OpticsFinding[] {
  const found: OpticsFinding[] = [];
  const t = optical.thresholds;
  const healthy = (lane: OpticalLane, side: 'tx' | 'rx') => {
    const mw = side === 'tx' ? lane.txPowerMw : lane.rxPowerMw;
    const low = side === 'tx' ? t.txPowerLowMw : t.rxPowerLowMw;
    return mw !== null && mw >= (low ?? linkHealthValue('optics-rx-power-warn-low'));
  };
  const flags: Array<{ flag: string; value: number | null; side: 'tx' | 'rx' }> = [
    { flag: 'Tx Los Flag', value: optical.flags.txLos, side: 'tx' },
    { flag: 'Rx Los Flag', value: optical.flags.rxLos, side: 'rx' },
    { flag: 'Tx LoL Flag', value: optical.flags.txLol, side: 'tx' },
    { flag: 'Rx LoL Flag', value: optical.flags.rxLol, side: 'rx' },
  ];
  for (const { flag, value, side } of flags) {
    if (value === null || value === 0) continue;
    const lanes = flaggedLanes(value, optical.lanes);
    const contradicted = optical.lanes.filter((l) => lanes.includes(l.lane) && healthy(l, side)).map((l) => l.lane);
    if (contradicted.length > 0) found.push({ kind: 'flag-contradiction', severity: 'warn', flag, side, value, lanes: contradicted });
    else if (lanes.length === 0 || optical.lanes.every((l) => !lanes.includes(l.lane) || (side === 'tx' ? l.txPowerMw : l.rxPowerMw) === null)) found.push({ kind: 'flag-set', severity: 'warn', flag, side, value, lanes });
  }
  return found;
}

function hasReadings(optical: HccnOptical): boolean {
  return optical.temperatureC !== null || optical.lanes.some((l) => l.txPowerMw !== null || l.rxPowerMw !== null);
}

function verdictOf(device: number, optical: HccnOptical, findings: OpticsFinding[]): OpticsVerdict {
  return {
    device,
    answer: optical.kind,
    present: optical.present,
    temperatureC: optical.temperatureC,
    vendor: optical.vendor,
    partNumber: optical.partNumber,
    lanes: optical.lanes.map(({ lane, txPowerMw, rxPowerMw, mediaSnrDb }) => ({ lane, txPowerMw, rxPowerMw, mediaSnrDb })),
    thresholds: optical.thresholds,
    flags: optical.flags,
    findings,
    noReadings: optical.kind === 'info' && !hasReadings(optical),
  };
}

export function judgeOptics(device: number, optical: HccnOptical): OpticsVerdict {
  if (optical.kind === 'not-present') return verdictOf(device, optical, [{ kind: 'absent', severity: 'fail' }]);
  if (optical.kind === 'unreachable') return verdictOf(device, optical, [{ kind: 'unreachable', severity: 'warn' }]);
  if (optical.kind === 'initializing') return verdictOf(device, optical, [{ kind: 'initializing', severity: 'warn' }]);
  if (optical.kind === 'unsupported') return verdictOf(device, optical, []);
  const readings = hasReadings(optical);
  // the source prints NA for every reading of an absent module: readings beside "not present" contradict it
  if (optical.present === false && !readings) return verdictOf(device, optical, [{ kind: 'absent', severity: 'fail' }]);
  const failed = thresholdFindings(optical);
  const findings = [...failed, ...warningFindings(optical, failed), ...flagFindings(optical)];
  if (optical.present === false) findings.unshift({ kind: 'present-contradiction', severity: 'warn' });
  return verdictOf(device, optical, findings);
}
