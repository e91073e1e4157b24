import { comparePep440, parsePep440, publicVersion } from '../util/pep440.js';
import { hardwareTable, type HardwareFamily, type HardwareRow } from './hardware.js';
import { modelsTable, type ModelFamilyRow } from './models.js';
import { releasesTable, type ReleaseRow } from './releases.js';
import { quantizationTable, rulesTable, type RuleRow } from './rules.js';
import { describeSource } from './source.js';

/**
 * Judging by the installed vllm-ascend: a rule holds only inside its release range, a model is
 * supported from its first release, a family of NPUs as the release's FAQ says. The installed
 * version is looked up among the releases of knowledge/releases.json; a version that is no tag
 * (a source build, 0.16.0rc2.dev902+gf355e4673) is judged as the newest release at or below it,
 * and an unknown one as the table says (each rule's `whenUnknown`), the assumption said.
 */

export type ReleaseBasis =
  /** the installed version is a release tag */
  | { kind: 'installed'; installed: string; release: string }
  /** the installed version is between two tags: judged as `release`, the newest at or below it (main above the newest tag) */
  | { kind: 'between'; installed: string; release: string; before: string | null }
  /** no version could be read: `release` is the newest release, for rules judged as there */
  | { kind: 'unknown'; release: string };

function versions(): string[] {
  return releasesTable.rows().map((r) => r.version);
}

/** A release's row: the vLLM, CANN, torch_npu and Python it was released for. */
export function releaseRow(version: string): ReleaseRow | undefined {
  return releasesTable.rows().find((r) => r.version === version);
}

/** The newest release tag (main is not a release). */
export function newestRelease(): string {
  return versions().filter((v) => v !== 'main').at(-1)!;
}

/** "0.23.0+empty" -> "v0.23.0" */
function tagOf(installed: string): string {
  return `v${publicVersion(installed).replace(/^v/, '')}`;
}

export function releaseBasis(installed: string | null | undefined): ReleaseBasis {
  if (!installed || !parsePep440(installed)) return { kind: 'unknown', release: newestRelease() };
  const tag = tagOf(installed);
  const all = versions();
  if (all.includes(tag)) return { kind: 'installed', installed, release: tag };
  const tags = all.filter((v) => v !== 'main');
  const below = tags.filter((v) => (comparePep440(v, tag) ?? 1) <= 0).at(-1);
  const above = tags.find((v) => (comparePep440(v, tag) ?? -1) > 0) ?? null;
  // above every tag: a build of main
  return { kind: 'between', installed, release: above === null ? 'main' : (below ?? tags[0]!), before: above };
}

/** v inside [from, to] in release order */
export function inRange(version: string, range: { from: string; to: string }): boolean {
  return (comparePep440(range.from, version) ?? 1) <= 0 && (comparePep440(version, range.to) ?? 1) <= 0;
}

export function allRules(): RuleRow[] {
  return [...rulesTable.rows(), ...quantizationTable.rows()];
}

/** A rule of the tables by id; a check naming a rule that is not there is a programming error. */
export function ruleById(id: string): RuleRow {
  const rule = allRules().find((r) => r.id === id);
  if (!rule) throw new Error(`knowledge: no rule "${id}" in knowledge/rules.json or knowledge/quantization.json`);
  return rule;
}

export interface RuleJudgement {
  rule: RuleRow;
  /** the rule holds for the release judged */
  inForce: boolean;
  /** what a finding of it is: the severity inside the range, `outside` beyond it, a warning when the version is unknown and the rule says so */
  verdict: 'fail' | 'warn' | 'info' | null;
  basis: ReleaseBasis;
  /** how an unknown version was taken: as at the newest release, as if in force, or as a warning */
  assumption: RuleRow['whenUnknown'] | null;
}

export function judgeRule(rule: RuleRow, basis: ReleaseBasis): RuleJudgement {
  if (basis.kind === 'unknown' && rule.whenUnknown !== 'newest') {
    const verdict = rule.whenUnknown === 'warn' ? 'warn' : rule.severity;
    return { rule, inForce: true, verdict, basis, assumption: rule.whenUnknown };
  }
  const inForce = rule.applies === null || inRange(basis.release, rule.applies);
  return { rule, inForce, verdict: inForce ? rule.severity : (rule.outside ?? null), basis, assumption: basis.kind === 'unknown' ? 'newest' : null };
}

/** What the evidence of a finding carries of its rule: programs read the rule's id and source. */
export function ruleEvidence(judged: RuleJudgement): Record<string, unknown> {
  return {
    rule: judged.rule.id,
    source: describeSource(judged.rule.source),
    applies: judged.rule.applies,
    judgedAs: judged.basis.release,
    installed: judged.basis.kind === 'unknown' ? null : judged.basis.installed,
    assumption: judged.assumption,
  };
}

// ---------------------------------------------------------------------------------------------
// hardware

/** The FAQ's rows for a release; a release without a FAQ list takes the nearest later one's. */
export function hardwareOf(release: string): { release: string; rows: HardwareRow[] } {
  const rows = hardwareTable.rows();
  const all = versions();
  const start = Math.max(0, all.indexOf(release));
  for (const version of all.slice(start)) {
    const found = rows.filter((r) => r.version === version && r.family !== '950');
    if (found.length > 0) return { release: version, rows: [...found, ...rows.filter((r) => r.version === version && r.family === '950')] };
  }
  return { release, rows: [] };
}

export function hardwareStatus(family: HardwareFamily, release: string): HardwareRow | undefined {
  return hardwareOf(release).rows.find((r) => r.family === family);
}

// ---------------------------------------------------------------------------------------------
// models

export interface ModelIdentity {
  modelType: string | null;
  architectures: string[];
  /** the served model as written: a path or a hub id */
  name: string | null;
}

/** The families a model is, by config.json's model_type and architectures, the name telling two apart (Qwen3.5 / Qwen3.6); by name alone without a config. */
export function familiesOf(identity: ModelIdentity): { families: ModelFamilyRow[]; by: 'model_type' | 'architectures' | 'name' | null } {
  const rows = modelsTable.rows();
  const name = identity.name?.replace(/\/+$/, '').toLowerCase() ?? '';
  const byName = (list: readonly ModelFamilyRow[]) => list.filter((f) => new RegExp(f.names, 'i').test(name));
  if (identity.modelType) {
    const type = identity.modelType.toLowerCase();
    const found = rows.filter((f) => f.modelTypes.includes(type));
    if (found.length > 0) {
      const named = byName(found);
      return { families: named.length > 0 ? named : found, by: 'model_type' };
    }
  }
  if (identity.architectures.length > 0) {
    const found = rows.filter((f) => f.architectures.some((a) => identity.architectures.includes(a)));
    if (found.length > 0) {
      const named = byName(found);
      return { families: named.length > 0 ? named : found, by: 'architectures' };
    }
  }
  if (!identity.modelType && identity.architectures.length === 0 && name) {
    const found = byName(rows);
    if (found.length > 0) return { families: found, by: 'name' };
  }
  return { families: [], by: null };
}

/** The first release that supports a family: its `since`, or its first listing in the matrix. */
export function firstRelease(family: ModelFamilyRow): { version: string; source: RuleRow['source'] } | null {
  if (family.since) return family.since;
  return family.firstListed ? { version: family.firstListed, source: family.source } : null;
}

/** Is the family supported by this release: at or after its first release, or listed by this release's matrix (a backport). */
export function familySupported(family: ModelFamilyRow, release: string): boolean {
  const first = firstRelease(family);
  if (first && (comparePep440(first.version, release) ?? 1) <= 0) return true;
  return Object.values(family.listedIn).some((list) => list.includes(release));
}
