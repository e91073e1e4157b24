import type { RollingPart } from './plan.js';

/**
 * plan: rolling proves a node's same-index matrix over several runs: each pair keeps its last
 * proof (when, and what the ping said) in memory for as long as `qprep serve` runs. A pair is
 * verified while its last proof is ok and not older than the bound; a pair never proven, or
 * proven too long ago, is not verified; a pair whose last ping failed is failed.
 */

export type ProofState = 'ok' | 'failed' | 'not-verified';

export interface PairProof {
  atMs: number;
  state: ProofState;
  /** "ok", "100% loss", "error: hccn_tool timed out" */
  detail: string;
}

export interface ProvenPair {
  localDevice: number;
  peerNode: string;
  peerDevice: number;
  /** the last proof, or null when no run has pinged the pair yet */
  provenAt: string | null;
  ageS: number | null;
  /** ok, failed, or not-verified: never proven, stale, or its last ping could not be judged */
  state: ProofState;
  detail: string;
}

export interface RollingCoverage {
  total: number;
  ok: number;
  failed: number;
  notVerified: number;
  never: number;
  stale: number;
  oldestAgeS: number | null;
  maxAgeS: number;
}

const key = (peerNode: string, localDevice: number, peerDevice: number) => `${peerNode}\t${localDevice}\t${peerDevice}`;

/** The proofs of one node's pairs across runs. serve keeps one for its lifetime; a one-shot check starts empty. */
export class RollingLedger {
  private readonly proofs = new Map<string, PairProof>();
  private runs = 0;

  /** The rotation of the next run: serve's run counter, the same for a node's consecutive runs whatever their timing. */
  nextRotation(): number {
    return this.runs;
  }

  record(results: ReadonlyArray<{ localDevice: number; peerNode: string; peerDevice: number; proof: PairProof }>): void {
    this.runs++;
    for (const r of results) this.proofs.set(key(r.peerNode, r.localDevice, r.peerDevice), r.proof);
  }

  /** Every pair of the matrix with its last proof as of `nowMs`, and the counts. */
  judge(matrix: RollingPart['matrix'], nowMs: number, maxAgeS: number): { pairs: ProvenPair[]; coverage: RollingCoverage } {
    const coverage: RollingCoverage = { total: matrix.length, ok: 0, failed: 0, notVerified: 0, never: 0, stale: 0, oldestAgeS: null, maxAgeS };
    const pairs = matrix.map((m): ProvenPair => {
      const proof = this.proofs.get(key(m.peerNode, m.localDevice, m.peerDevice));
      if (!proof) {
        coverage.never++;
        coverage.notVerified++;
        return { ...m, provenAt: null, ageS: null, state: 'not-verified', detail: 'never proven' };
      }
      const ageS = Math.max(0, Math.round((nowMs - proof.atMs) / 1000));
      coverage.oldestAgeS = Math.max(coverage.oldestAgeS ?? 0, ageS);
      const base = { ...m, provenAt: new Date(proof.atMs).toISOString(), ageS };
      if (proof.state === 'failed') {
        coverage.failed++;
        return { ...base, state: 'failed', detail: proof.detail };
      }
      if (ageS > maxAgeS) {
        coverage.stale++;
        coverage.notVerified++;
        return { ...base, state: 'not-verified', detail: `last proven ${ageS} s ago, older than ${maxAgeS} s` };
      }
      if (proof.state === 'not-verified') {
        coverage.notVerified++;
        return { ...base, state: 'not-verified', detail: proof.detail };
      }
      coverage.ok++;
      return { ...base, state: 'ok', detail: 'ok' };
    });
    if (coverage.never > 0) coverage.oldestAgeS = null;
    return { pairs, coverage };
  }
}
