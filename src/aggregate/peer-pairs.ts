import { z } from 'zod';
import { describeOutcome, type PingOutcome } from '../cluster/ping-summary.js';
import { pairsModeSchema, planKindSchema } from '../cluster/schema.js';
import type { Report } from '../report/schema.js';
import { plural, summarizeList } from '../util/text.js';
import type { Finding, PeerPairs } from '../report/aggregate-schema.js';

/**
 * pairs: once splits the ping matrix between the nodes: a node's report holds the results of
 * the pairs it owns and lists the pairs its peers own. This joins every report's half into the
 * whole matrix: a pair is verified only by its owner's result, so a pair whose owner has no
 * report, did not run hccn.peers, or did not ping it (another cluster file) is not verified,
 * and the cluster is not ready, exactly as a missing ping would leave it with pairs: both.
 */

const device = z.number().int().min(0).max(63);

/** The evidence of hccn.peers that aggregate reads (`qprep schema peers-evidence`). Other fields are kept by the report and ignored here. */
export const peersEvidenceSchema = z
  .object({
    plan: planKindSchema,
    ringK: z.number().int().positive(),
    pairs: pairsModeSchema.optional().describe('both: this node pinged its whole plan; once: only the pairs it owns. Absent in reports older than pairs: once, and read as both'),
    peers: z.array(z.string()).describe('the peers this node shares pairs with, in cluster order'),
    results: z
      .array(
        z
          .object({
            localDevice: device,
            peerNode: z.string(),
            peerDevice: device,
            outcome: z.object({ status: z.enum(['ok', 'loss', 'unreachable', 'error', 'skipped']) }).loose(),
          })
          .loose(),
      )
      .default([])
      .describe('the pairs this node pinged, from localDevice to peerDevice of peerNode: with pairs: once, the pairs it owns'),
    unplanned: z
      .array(z.object({ localDevice: device, peerNode: z.string(), peerDevice: device.nullable(), reason: z.string() }).loose())
      .default([])
      .describe('pairs of its plan this node could not ping (no address in the cluster file)'),
    peerOwned: z
      .array(
        z.object({
          peerNode: z.string().describe('the owner: it pings these pairs from its device to this node\'s'),
          pairs: z.array(z.tuple([device, device])).describe('[this node\'s device, the owner\'s device]'),
        }),
      )
      .optional()
      .describe('pairs: once: the pairs of this node its peers own, by owner'),
    rolling: z
      .object({
        rotation: z.number().int().nonnegative().describe('the run number this run\'s window comes from'),
        rotations: z.number().int().positive().describe('M: how many runs in a row cover the whole matrix'),
        maxAgeS: z.number().int().positive().describe('rollingMaxAgeS: a proof older than this verifies nothing'),
        proofs: z
          .array(
            z
              .object({
                localDevice: device,
                peerNode: z.string(),
                peerDevice: device,
                provenAt: z.string().nullable().describe('the last ping of the pair; null when no run has pinged it'),
                state: z.enum(['ok', 'failed', 'not-verified']),
                detail: z.string(),
              })
              .loose(),
          )
          .describe('every pair of this node\'s same-index matrix with its last proof (kept across the runs of qprep serve)'),
      })
      .loose()
      .optional()
      .describe('plan: rolling: the coverage of the matrix and the last proof of each pair; aggregate judges the proofs by their age'),
  })
  .loose();

type PairState = 'ok' | 'failed' | 'not-verified';

interface Judged {
  state: PairState;
  /** "100% loss", "skipped: local dev3 link is DOWN (hccn.link)" */
  detail: string;
  /** plan: rolling: seconds since the last proof at aggregate time, null when never proven */
  ageS?: number | null;
}

/** What aggregate keeps of one report's hccn.peers: results by `peer\tlocal\tpeer device`, and the pairs others own. */
export interface PeerPairsRecord {
  /** the node the report says it is in its cluster file */
  node: string;
  /** the status of hccn.peers, or null when the report has no such check */
  checkStatus: string | null;
  pairs: 'both' | 'once';
  plan: string | null;
  results: Map<string, Judged>;
  /** pairs this node owns but could not ping, by the same key */
  unplanned: Map<string, string>;
  peerOwned: Array<{ peerNode: string; localDevice: number; peerDevice: number }>;
  /** plan: rolling: the bound a proof must be within */
  rollingMaxAgeS?: number;
  /** plan: rolling: the last proof of every pair of the node's matrix; atMs null when never proven */
  rollingProofs?: Map<string, { atMs: number | null; state: string; detail: string }>;
}

const resultKey = (peerNode: string, localDevice: number, peerDevice: number) => `${peerNode}\t${localDevice}\t${peerDevice}`;

const OK: Judged = { state: 'ok', detail: 'ok' };

function judge(outcome: { status: string }): Judged {
  if (outcome.status === 'ok') return OK;
  const detail = describeOutcome(outcome as PingOutcome);
  if (outcome.status === 'loss' || outcome.status === 'unreachable') return { state: 'failed', detail };
  return { state: 'not-verified', detail };
}

const isDevice = (value: unknown): value is number => typeof value === 'number' && Number.isInteger(value) && value >= 0 && value <= 63;
const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
const OUTCOMES = new Set(['ok', 'loss', 'unreachable', 'error', 'skipped']);
const listOf = (value: unknown): unknown[] => (Array.isArray(value) ? value : []);

/**
 * Reads hccn.peers of a report run with --cluster; null without a cluster. By hand, not with
 * peersEvidenceSchema: 1,000 reports of 48 results took zod half a second, the reader 30 ms.
 * An entry of another shape is left out, so its pair is not verified.
 */
export function readPeerPairs(report: Report): PeerPairsRecord | null {
  const node = report.cluster?.self;
  if (!node) return null;
  const check = report.checks.find((c) => c.id === 'hccn.peers');
  const record: PeerPairsRecord = { node, checkStatus: check?.status ?? null, pairs: 'both', plan: null, results: new Map(), unplanned: new Map(), peerOwned: [] };
  const evidence = check?.evidence;
  if (!evidence || typeof evidence.plan !== 'string') return record;
  record.pairs = evidence.pairs === 'once' ? 'once' : 'both';
  record.plan = evidence.plan;
  // rolling: the kept proofs stand for the results of this run (which are among them)
  const rolling = evidence.plan === 'rolling' && isObject(evidence.rolling) ? evidence.rolling : null;
  if (rolling) readRollingProofs(record, rolling);
  for (const r of rolling ? [] : listOf(evidence.results)) {
    if (!isObject(r) || !isDevice(r.localDevice) || !isDevice(r.peerDevice) || typeof r.peerNode !== 'string') continue;
    if (!isObject(r.outcome) || typeof r.outcome.status !== 'string' || !OUTCOMES.has(r.outcome.status)) continue;
    record.results.set(resultKey(r.peerNode, r.localDevice, r.peerDevice), judge(r.outcome as { status: string }));
  }
  for (const u of listOf(evidence.unplanned)) {
    if (rolling) break;
    if (isObject(u) && isDevice(u.localDevice) && isDevice(u.peerDevice) && typeof u.peerNode === 'string') record.unplanned.set(resultKey(u.peerNode, u.localDevice, u.peerDevice), String(u.reason));
  }
  for (const owner of listOf(evidence.peerOwned)) {
    if (!isObject(owner) || typeof owner.peerNode !== 'string') continue;
    for (const pair of listOf(owner.pairs)) {
      if (Array.isArray(pair) && pair.length === 2 && isDevice(pair[0]) && isDevice(pair[1])) record.peerOwned.push({ peerNode: owner.peerNode, localDevice: pair[0], peerDevice: pair[1] });
    }
  }
  return record;
}

/**
 * plan: rolling: the pairs of the node's matrix with their last proofs (kept by qprep serve
 * across runs). They are judged at aggregate time (judgeRollingProofs): a report read an hour
 * after it was written has proofs an hour older.
 */
function readRollingProofs(record: PeerPairsRecord, rolling: Record<string, unknown>): void {
  record.rollingMaxAgeS = typeof rolling.maxAgeS === 'number' && rolling.maxAgeS > 0 ? rolling.maxAgeS : 3600;
  record.rollingProofs = new Map();
  for (const p of listOf(rolling.proofs)) {
    if (!isObject(p) || !isDevice(p.localDevice) || !isDevice(p.peerDevice) || typeof p.peerNode !== 'string') continue;
    const at = typeof p.provenAt === 'string' ? Date.parse(p.provenAt) : Number.NaN;
    record.rollingProofs.set(resultKey(p.peerNode, p.localDevice, p.peerDevice), {
      atMs: Number.isNaN(at) ? null : at,
      state: String(p.state),
      detail: typeof p.detail === 'string' ? p.detail : String(p.state),
    });
  }
}

/** A pair without a proof, or with one older than the bound, is not verified; one whose last ping failed is failed. */
function judgeRollingProofs(record: PeerPairsRecord, nowMs: number): Map<string, Judged> {
  const maxAgeS = record.rollingMaxAgeS ?? 3600;
  const results = new Map<string, Judged>();
  for (const [key, p] of record.rollingProofs ?? []) {
    if (p.atMs === null) {
      results.set(key, { state: 'not-verified', detail: 'not verified: never proven', ageS: null });
      continue;
    }
    const ageS = Math.max(0, Math.round((nowMs - p.atMs) / 1000));
    if (p.state === 'failed') results.set(key, { state: 'failed', detail: `${p.detail} (${ageS} s ago)`, ageS });
    else if (ageS > maxAgeS) results.set(key, { state: 'not-verified', detail: `not verified: last proven ${ageS} s ago, older than ${maxAgeS} s`, ageS });
    else if (p.state === 'ok') results.set(key, { state: 'ok', detail: 'ok', ageS });
    else results.set(key, { state: 'not-verified', detail: `not verified: ${p.detail}`, ageS });
  }
  return results;
}

const RANK: Record<PairState, number> = { failed: 2, 'not-verified': 0, ok: 1 };

interface MatrixPair {
  owner: string;
  ownerDevice: number;
  other: string;
  otherDevice: number;
  judged: Judged;
}

const pairKey = (a: string, ad: number, b: string, bd: number) => (a < b ? `${a}:${ad}|${b}:${bd}` : `${b}:${bd}|${a}:${ad}`);

/** `node1 dev3 -> node2 dev3`: the owner first, as it pinged. */
const describePair = (p: MatrixPair) => `${p.owner} dev${p.ownerDevice} -> ${p.other} dev${p.otherDevice}`;

/** What the owner's report says of a pair a peer listed as the owner's to ping. */
function ownersView(byNode: ReadonlyMap<string, PeerPairsRecord>, owner: string, ownerDevice: number, other: string, otherDevice: number): Judged {
  const record = byNode.get(owner.toLowerCase());
  if (!record) return { state: 'not-verified', detail: `not verified: ${owner} has no report` };
  const result = record.results.get(resultKey(other, ownerDevice, otherDevice));
  if (result) return result;
  const unplanned = record.unplanned.get(resultKey(other, ownerDevice, otherDevice));
  if (unplanned) return { state: 'not-verified', detail: `not verified: not planned: ${unplanned}` };
  if (record.checkStatus === null) return { state: 'not-verified', detail: `not verified: ${owner}'s report has no hccn.peers (run it without --only or --skip hiding it)` };
  if (record.checkStatus === 'skip' || record.checkStatus === 'error' || record.plan === null) {
    return { state: 'not-verified', detail: `not verified: hccn.peers on ${owner} is ${record.checkStatus} and pinged nothing` };
  }
  return { state: 'not-verified', detail: `not verified: ${owner} did not ping it (its cluster file or device list differs)` };
}

/** Every pair of the matrix once, in a stable order, judged by the report that owns it. */
function joinMatrix(once: readonly PeerPairsRecord[], byNode: ReadonlyMap<string, PeerPairsRecord>): MatrixPair[] {
  const matrix = new Map<string, MatrixPair>();
  for (const record of once) {
    // the pairs this node owns: its own results are the proof
    for (const [key, judged] of record.results) {
      const [peerNode, localDevice, peerDevice] = key.split('\t') as [string, string, string];
      const id = pairKey(record.node, Number(localDevice), peerNode, Number(peerDevice));
      // rolling with pairs: both: both nodes prove the pair; a failure from either side fails it, an ok from either verifies it
      const earlier = matrix.get(id);
      if (earlier && RANK[earlier.judged.state] >= RANK[judged.state]) continue;
      matrix.set(pairKey(record.node, Number(localDevice), peerNode, Number(peerDevice)), { owner: record.node, ownerDevice: Number(localDevice), other: peerNode, otherDevice: Number(peerDevice), judged });
    }
    for (const [key, reason] of record.unplanned) {
      const [peerNode, localDevice, peerDevice] = key.split('\t') as [string, string, string];
      const id = pairKey(record.node, Number(localDevice), peerNode, Number(peerDevice));
      if (!matrix.has(id)) matrix.set(id, { owner: record.node, ownerDevice: Number(localDevice), other: peerNode, otherDevice: Number(peerDevice), judged: { state: 'not-verified', detail: `not verified: not planned: ${reason}` } });
    }
    // the pairs its peers own: only the owner's report can prove them
    for (const pair of record.peerOwned) {
      const id = pairKey(record.node, pair.localDevice, pair.peerNode, pair.peerDevice);
      if (matrix.has(id)) continue;
      matrix.set(id, { owner: pair.peerNode, ownerDevice: pair.peerDevice, other: record.node, otherDevice: pair.localDevice, judged: ownersView(byNode, pair.peerNode, pair.peerDevice, record.node, pair.localDevice) });
    }
  }
  return [...matrix.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, p]) => p);
}

/** One finding for the failing pairs, and one per owner and reason for the pairs nobody verified. */
function pairFindings(total: number, failing: readonly MatrixPair[], unverified: readonly MatrixPair[]): Finding[] {
  const findings: Finding[] = [];
  if (failing.length > 0) {
    const lines = failing.map((p) => `${describePair(p)}: ${p.judged.detail}`);
    findings.push({
      severity: 'fail',
      kind: 'pair-failed',
      message: `${failing.length} of ${plural(total, 'NPU pair')} failed: ${summarizeList(lines, 3)}`,
      nodes: [...new Set(failing.flatMap((p) => [p.owner, p.other]))],
    });
  }
  const byOwnerAndWhy = new Map<string, MatrixPair[]>();
  for (const p of unverified) {
    const id = `${p.owner}\u0000${p.judged.detail}`;
    byOwnerAndWhy.set(id, [...(byOwnerAndWhy.get(id) ?? []), p]);
  }
  for (const group of byOwnerAndWhy.values()) {
    const [first] = group;
    findings.push({
      severity: 'fail',
      kind: 'pair-not-verified',
      message: `${plural(group.length, 'NPU pair')} owned by ${first!.owner} ${group.length === 1 ? 'is' : 'are'} ${first!.judged.detail}: ${summarizeList(group.map(describePair), 3)}`,
      nodes: [...new Set(group.flatMap((p) => [p.owner, p.other]))],
    });
  }
  return findings;
}

/**
 * The whole matrix of the reports run with pairs: once, and the findings it makes: every failing
 * pair, and by owner the pairs nobody verified. Undefined when no report used pairs: once.
 */
export function joinPeerPairs(given: readonly PeerPairsRecord[], nowMs: number = Date.now()): { peerPairs: PeerPairs; findings: Finding[] } | undefined {
  const records = given.map((r) => (r.rollingProofs ? { ...r, results: judgeRollingProofs(r, nowMs) } : r));
  const once = records.filter((r) => r.pairs === 'once' || r.plan === 'rolling');
  if (once.length === 0) return undefined;
  const byNode = new Map(records.map((r) => [r.node.toLowerCase(), r]));
  const pairs = joinMatrix(once, byNode);
  const failing = pairs.filter((p) => p.judged.state === 'failed');
  const unverified = pairs.filter((p) => p.judged.state === 'not-verified');
  const findings = pairFindings(pairs.length, failing, unverified);
  const entry = (p: MatrixPair) => ({
    owner: p.owner,
    ownerDevice: p.ownerDevice,
    peer: p.other,
    peerDevice: p.otherDevice,
    detail: p.judged.detail,
    ...(p.judged.ageS !== undefined ? { ageS: p.judged.ageS } : {}),
  });
  const rollingRecords = once.filter((r) => r.plan === 'rolling');
  const proven = pairs.filter((p) => p.judged.state === 'ok' && typeof p.judged.ageS === 'number');
  return {
    peerPairs: {
      nodes: once.map((r) => r.node),
      total: pairs.length,
      ok: pairs.filter((p) => p.judged.state === 'ok').length,
      failed: failing.length,
      notVerified: unverified.length,
      failing: failing.map(entry),
      unverified: unverified.map(entry),
      ...(rollingRecords.length > 0
        ? {
            rolling: {
              nodes: rollingRecords.map((r) => r.node),
              maxAgeS: Math.max(...rollingRecords.map((r) => r.rollingMaxAgeS ?? 3600)),
              oldestAgeS: proven.length > 0 ? Math.max(...proven.map((p) => p.judged.ageS as number)) : null,
              never: unverified.filter((p) => p.judged.ageS === null).length,
              stale: unverified.filter((p) => p.judged.detail.startsWith('not verified: last proven')).length,
            },
          }
        : {}),
    },
    findings,
  };
}
