import type { Catalogue } from '../i18n/index.js';
import { allRules } from '../knowledge/judge.js';
import { rulesTable, type RuleRow } from '../knowledge/rules.js';
import { describeSource } from '../knowledge/source.js';

/**
 * `qprep explain RULE`: a rule of knowledge/rules.json or knowledge/quantization.json as a person
 * reads it (what it says, its verdicts, its releases, each statement and report, its source), or
 * as JSON, the row as the table holds it.
 */

export interface ExplainedRule {
  rule: RuleRow;
  /** knowledge/rules.json or knowledge/quantization.json */
  file: string;
}

export function findRule(id: string): ExplainedRule | undefined {
  const rule = allRules().find((r) => r.id === id);
  if (!rule) return undefined;
  return { rule, file: rulesTable.rows().includes(rule) ? 'knowledge/rules.json' : 'knowledge/quantization.json' };
}

export function ruleIds(): string[] {
  return allRules().map((r) => r.id);
}

/** `families GLM-5; modelTypes glm_moe_dsa`: appliesTo as written in the table */
function appliesToText(appliesTo: RuleRow['appliesTo']): string {
  return Object.entries(appliesTo)
    .map(([key, value]) => `${key} ${Array.isArray(value) ? value.join(', ') : String(value)}`)
    .join('; ');
}

export function formatRule({ rule, file }: ExplainedRule, text: Catalogue): string {
  const w = text.commands.explain.rule;
  const lines = [w.heading({ id: rule.id, file }), '', w.says, `  ${rule.summary}`, ''];
  lines.push(`  ${w.verdict({ severity: rule.severity, outside: rule.outside ?? null })}`);
  lines.push(`  ${w.whenUnknown({ how: rule.whenUnknown })}`);
  lines.push(`  ${w.releases({ from: rule.applies?.from ?? null, to: rule.applies?.to ?? null })}`);
  lines.push(`  ${w.appliesTo({ what: appliesToText(rule.appliesTo) })}`);
  if (rule.params) lines.push(`  ${w.params({ values: Object.entries(rule.params).map(([k, v]) => `${k} ${v}`).join('; ') })}`);
  lines.push('', w.statements);
  if (rule.statedIn.length === 0) lines.push(`  ${w.noStatement}`);
  for (const statement of rule.statedIn) lines.push(`  ${w.statedAt({ refs: statement.refs.join(', '), path: statement.path })}`, `    "${statement.quote}"`);
  if (rule.reports && rule.reports.length > 0) {
    lines.push('', w.reports);
    for (const report of rule.reports) lines.push(`  ${w.reportAt({ version: report.version ?? null, url: report.url })}`, `    "${report.quote}"`);
  }
  lines.push('', w.source, `  ${describeSource(rule.source)}`);
  if (rule.source.quote) lines.push(`    "${rule.source.quote}"`);
  return `${lines.join('\n')}\n`;
}
