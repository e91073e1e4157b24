import { Chalk, type ChalkInstance } from 'chalk';
import { escapeControls, formatRanges, plural } from '../util/text.js';
import { visibleStrings } from './visible.js';
import type { RollbackDocument, TuneDocument } from './tune-schema.js';

export interface TuneHumanOptions {
  color: boolean;
}

type TuneChange = TuneDocument['changes'][number];
type Restore = RollbackDocument['restores'][number];

const MARKS: Record<string, string> = {
  planned: '→',
  applied: '✓',
  restored: '✓',
  unchanged: '=',
  reverted: '↺',
  failed: '✗',
  'revert-failed': '✗',
  refused: '✗',
  skipped: '-',
  drifted: '!',
  missing: '?',
};

function paintStatus(chalk: ChalkInstance, status: string, text: string): string {
  if (status === 'applied' || status === 'restored') return chalk.green(text);
  if (status === 'failed' || status === 'revert-failed' || status === 'refused') return chalk.red(text);
  if (status === 'reverted' || status === 'drifted' || status === 'missing') return chalk.yellow(text);
  if (status === 'unchanged' || status === 'skipped') return chalk.gray(text);
  return chalk.cyan(text);
}

function shortValue(kind: string, value: string | null): string {
  if (value === null) return kind === 'file' ? '(no file)' : '(unread)';
  if (kind !== 'file') return value.trim() === '' ? '""' : escapeControls(value.trim());
  const lines = value.split('\n').filter((l) => l.trim() !== '' && !l.trimStart().startsWith('#')).length;
  return `${plural(lines, 'setting')}`;
}

/** One displayed row: changes that differ only in the CPU number are one row (192 CPUs, one line). */
interface Row {
  origin: string;
  kind: string;
  target: string;
  before: string | null;
  after: string;
  status: string;
  error?: string;
  count: number;
}

function groupRows<T extends { origin: string; kind: string; target: string; before: string | null; after: string; status: string; error?: string }>(items: readonly T[]): Row[] {
  const rows: Row[] = [];
  const cpus = new Map<Row, number[]>();
  for (const item of items) {
    const cpu = /^(.*\/cpu)(\d+)(\/.*)$/.exec(item.target);
    const pattern = cpu ? `${cpu[1]}*${cpu[3]}` : item.target;
    const previous = rows[rows.length - 1];
    if (
      cpu &&
      previous &&
      cpus.has(previous) &&
      previous.target === pattern &&
      previous.origin === item.origin &&
      previous.before?.trim() === item.before?.trim() &&
      previous.after === item.after &&
      previous.status === item.status &&
      previous.error === item.error
    ) {
      cpus.get(previous)!.push(Number(cpu[2]));
      previous.count++;
      continue;
    }
    const row: Row = { origin: item.origin, kind: item.kind, target: pattern, before: item.before, after: item.after, status: item.status, count: 1 };
    if (item.error !== undefined) row.error = item.error;
    rows.push(row);
    if (cpu) cpus.set(row, [Number(cpu[2])]);
  }
  for (const [row, list] of cpus) {
    row.target = list.length === 1 ? row.target.replace('/cpu*/', `/cpu${list[0]}/`) : row.target.replace('/cpu*/', `/cpu{${formatRanges(list)}}/`);
  }
  return rows;
}

function rowLines(chalk: ChalkInstance, rows: readonly Row[], arrow: (row: Row) => string): string[] {
  const originWidth = Math.max(0, ...rows.map((r) => r.origin.length));
  const lines: string[] = [];
  for (const row of rows) {
    const mark = paintStatus(chalk, row.status, `${MARKS[row.status] ?? '·'} ${row.status.padEnd(13)}`);
    const many = row.count > 1 ? chalk.dim(` (${row.count} files)`) : '';
    lines.push(`  ${mark} ${chalk.bold(row.origin.padEnd(originWidth))}  ${row.target}  ${arrow(row)}${many}`);
    if (row.error) lines.push(`      ${chalk.red(row.error)}`);
  }
  return lines;
}

/** "6 changes (197 writes)": a change per setting, a write per file (one per CPU for the governor). */
function countChanges(rows: number, writes: number): string {
  return rows === writes ? plural(writes, 'change') : `${plural(rows, 'change')} (${writes} writes)`;
}

function tuneArrow(row: Row): string {
  if (row.kind === 'file') return row.before === null ? `new file, ${shortValue('file', row.after)}` : `rewritten, ${shortValue('file', row.after)}`;
  return `${shortValue(row.kind, row.before)} -> ${escapeControls(row.after)}`;
}

function header(chalk: ChalkInstance, command: string, doc: TuneDocument | RollbackDocument): string[] {
  const host = doc.host;
  const where = doc.source.kind === 'snapshot' ? `snapshot ${doc.source.snapshot?.file ?? ''}` : doc.source.root === '/' ? 'live host' : `host tree ${doc.source.root}`;
  const container = host.inContainer ? ` · in a container (${host.containerRuntime ?? 'unknown runtime'})` : '';
  const profile = 'profile' in doc ? ` · profile ${doc.profile.name} (${doc.profile.source})` : '';
  return [`${chalk.bold(`qprep ${command}`)}  ${chalk.bold(host.hostname)} · ${host.os} · kernel ${host.kernel} · ${where}${container}${profile}`];
}

/** `qprep tune` as a person reads it: the plan, what happened to it, conflicts, what tune left alone. */
export function formatTuneHuman(input: TuneDocument, options: TuneHumanOptions): string {
  // old values are the host's: a file's lines are counted, a value's controls shown, never raw
  const doc = visibleStrings(input, ['before', 'after', 'remediation']);
  const chalk = new Chalk({ level: options.color ? 1 : 0 });
  const out = header(chalk, doc.dryRun ? 'tune --dry-run' : 'tune', doc);
  const wanted = doc.changes.filter((c) => c.status !== 'unchanged');
  const right = doc.changes.filter((c) => c.status === 'unchanged');

  if (doc.unfinished.length > 0) {
    out.push('', chalk.red.bold('An earlier tune did not finish:'));
    for (const run of doc.unfinished) out.push(`  "${run.command}" started ${run.startedAt}: ${plural(run.changes, 'change')} may be half applied`);
  }

  out.push('');
  const planned = groupRows(wanted.map((c: TuneChange) => ({ ...c, status: 'planned' })));
  const size = countChanges(planned.length, wanted.length);
  if (wanted.length === 0) out.push('Plan: nothing to change');
  else {
    out.push(chalk.bold(`Plan: ${size}${doc.dryRun ? '' : ', old values journaled before the first write'}`));
    out.push(...rowLines(chalk, planned, tuneArrow));
  }
  if (right.length > 0) out.push(chalk.dim(`  already right: ${groupRows(right).map((r) => r.target).join(', ')}`));

  if (!doc.dryRun && wanted.length > 0) {
    out.push('', chalk.bold('Result:'));
    out.push(...rowLines(chalk, groupRows(wanted), tuneArrow));
  }

  if (doc.conflicts.length > 0) {
    out.push('', chalk.bold('Conflicts (reported, not changed):'));
    for (const conflict of doc.conflicts) out.push(`  ${chalk.yellow('!')} ${conflict.message}`);
  }
  if (doc.remaining.length > 0) {
    out.push('', chalk.bold('Not fixed by tune:'));
    const idWidth = Math.max(...doc.remaining.map((c) => c.id.length));
    for (const check of doc.remaining) {
      out.push(`  ${chalk.yellow(check.status.padEnd(5))}  ${chalk.bold(check.id.padEnd(idWidth))}  ${check.message}`);
      if (check.remediation) out.push(`      ${chalk.cyan('fix:')} ${check.remediation}`);
    }
  }
  if (doc.notes.length > 0) {
    out.push('');
    for (const note of doc.notes) out.push(`${chalk.dim('note:')} ${note}`);
  }

  out.push('');
  const rollback = `qprep rollback${doc.source.root === '/' ? '' : ` --root ${doc.source.root}`}`;
  switch (doc.outcome) {
    case 'planned':
      out.push(`${chalk.cyan.bold('DRY RUN')}: ${wanted.length > 0 ? `${size} would be made` : 'nothing would change'}; nothing was written`);
      break;
    case 'unchanged':
      out.push(`${chalk.green.bold('OK')}: nothing to change (changed: false)`);
      break;
    case 'applied':
      out.push(`${chalk.green.bold('CHANGED')}: ${size} applied and verified; journal ${doc.journal}; undo with: ${rollback}`);
      break;
    case 'refused': {
      const why = doc.changes.find((c) => c.status === 'refused')?.error ?? 'a change was refused';
      out.push(`${chalk.red.bold('REFUSED')}: nothing was changed: ${why}`);
      break;
    }
    case 'rolled-back': {
      const why = doc.changes.find((c) => c.error)?.error ?? doc.notes.find((n) => n.startsWith('verification')) ?? 'a change failed';
      out.push(`${chalk.red.bold('FAILED')}: ${why}; every change was rolled back`);
      break;
    }
    case 'revert-failed':
      out.push(`${chalk.red.bold('FAILED')}: a change failed and some old values could not be put back; see ${doc.journal} and run: ${rollback}`);
      break;
  }
  return `${out.join('\n')}\n`;
}

function restoreArrow(row: Row): string {
  if (row.kind === 'file') return row.before === null ? 'remove the file' : `restore the old file, ${shortValue('file', row.before)}`;
  return `${escapeControls(row.after)} -> ${shortValue(row.kind, row.before)}`;
}

/** `qprep rollback` as a person reads it. */
export function formatRollbackHuman(input: RollbackDocument, options: TuneHumanOptions): string {
  const doc = visibleStrings(input, ['before', 'after', 'remediation']);
  const chalk = new Chalk({ level: options.color ? 1 : 0 });
  const out = header(chalk, doc.dryRun ? 'rollback --dry-run' : 'rollback', doc);
  out.push('');
  if (doc.outcome === 'nothing') {
    out.push(`${chalk.green.bold('OK')}: no tune journal here; qprep has no changes in effect (changed: false)`);
    return `${out.join('\n')}\n`;
  }
  const rows = groupRows(doc.restores.map((r: Restore) => ({ ...r, before: r.before, after: r.after })));
  out.push(chalk.bold(`${doc.dryRun ? 'Would restore' : 'Restore'}, newest change first:`));
  out.push(...rowLines(chalk, rows, restoreArrow));
  if (doc.notes.length > 0) {
    out.push('');
    for (const note of doc.notes) out.push(`${chalk.dim('note:')} ${note}`);
  }
  out.push('');
  const restored = doc.restores.filter((r) => r.status === 'restored').length;
  switch (doc.outcome) {
    case 'planned':
      out.push(`${chalk.cyan.bold('DRY RUN')}: ${plural(doc.restores.filter((r) => r.status === 'planned').length, 'value')} would be restored from ${doc.journal}; nothing was written`);
      break;
    case 'rolled-back':
      out.push(`${chalk.green.bold(restored > 0 ? 'RESTORED' : 'OK')}: ${plural(restored, 'value')} put back; journal kept as ${doc.journal}`);
      break;
    case 'incomplete':
      out.push(`${chalk.red.bold('INCOMPLETE')}: ${plural(restored, 'value')} put back, the others are listed above; the journal is kept, run rollback again once fixed`);
      break;
  }
  return `${out.join('\n')}\n`;
}
