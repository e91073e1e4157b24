import { Chalk, type ChalkInstance } from 'chalk';
import { en, type Catalogue } from '../i18n/en/index.js';
import { escapeControls, formatRanges } from '../util/text.js';
import { invokedAs } from '../util/invocation.js';
import { visibleStrings } from './visible.js';
import { visibleWidth } from './wrap.js';
import type { RollbackDocument, TuneDocument } from './tune-schema.js';

export interface TuneHumanOptions {
  color: boolean;
  /** the catalogue of the text; English when not given */
  text?: Catalogue;
  /** how qprep is started in this install ("npx qprep"): the commands to paste say it that way; undefined: "qprep" */
  invocation?: string;
}

type TuneText = Catalogue['commands']['tune'];

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

function shortValue(t: TuneText, kind: string, value: string | null): string {
  if (value === null) return kind === 'file' ? t.noFile : t.unread;
  if (kind !== 'file') return value.trim() === '' ? '""' : escapeControls(value.trim());
  const lines = value.split('\n').filter((l) => l.trim() !== '' && !l.trimStart().startsWith('#')).length;
  return t.settings({ count: lines });
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

function rowLines(chalk: ChalkInstance, t: TuneText, rows: readonly Row[], arrow: (row: Row) => string): string[] {
  const originWidth = Math.max(0, ...rows.map((r) => r.origin.length));
  const lines: string[] = [];
  for (const row of rows) {
    const word = t.statuses[row.status] ?? row.status;
    const status = word + ' '.repeat(Math.max(0, t.statusWidth - visibleWidth(word)));
    const mark = paintStatus(chalk, row.status, `${MARKS[row.status] ?? '·'} ${status}`);
    const many = row.count > 1 ? chalk.dim(t.files({ count: row.count })) : '';
    lines.push(`  ${mark} ${chalk.bold(row.origin.padEnd(originWidth))}  ${row.target}  ${arrow(row)}${many}`);
    if (row.error) lines.push(`      ${chalk.red(row.error)}`);
  }
  return lines;
}

/** "6 changes (197 writes)": a change per setting, a write per file (one per CPU for the governor). */
function countChanges(t: TuneText, rows: number, writes: number): string {
  return rows === writes ? t.changes({ count: writes }) : t.changesWrites({ changes: rows, writes });
}

function tuneArrow(t: TuneText): (row: Row) => string {
  return (row) => {
    if (row.kind === 'file') return row.before === null ? t.newFile({ content: shortValue(t, 'file', row.after) }) : t.rewritten({ content: shortValue(t, 'file', row.after) });
    return `${shortValue(t, row.kind, row.before)} -> ${escapeControls(row.after)}`;
  };
}

function header(chalk: ChalkInstance, t: TuneText, command: string, doc: TuneDocument | RollbackDocument): string[] {
  const host = doc.host;
  const where = doc.source.kind === 'snapshot' ? t.snapshot({ file: doc.source.snapshot?.file ?? '' }) : doc.source.root === '/' ? t.liveHost : t.hostTree({ root: doc.source.root });
  const container = host.inContainer ? t.inContainer({ runtime: host.containerRuntime ?? null }) : '';
  const profile = 'profile' in doc ? t.profile({ name: doc.profile.name, source: doc.profile.source }) : '';
  return [`${chalk.bold(`qprep ${command}`)}  ${chalk.bold(host.hostname)} · ${host.os} · ${t.kernel({ kernel: host.kernel })} · ${where}${container}${profile}`];
}

/** `qprep tune` as a person reads it: the plan, what happened to it, conflicts, what tune left alone. */
export function formatTuneHuman(input: TuneDocument, options: TuneHumanOptions): string {
  // old values are the host's: a file's lines are counted, a value's controls shown, never raw
  const doc = visibleStrings(input, ['before', 'after', 'remediation']);
  const chalk = new Chalk({ level: options.color ? 1 : 0 });
  const t = (options.text ?? en).commands.tune;
  const arrow = tuneArrow(t);
  const out = header(chalk, t, doc.dryRun ? 'tune --dry-run' : 'tune', doc);
  const wanted = doc.changes.filter((c) => c.status !== 'unchanged');
  const right = doc.changes.filter((c) => c.status === 'unchanged');

  if (doc.unfinished.length > 0) {
    out.push('', chalk.red.bold(t.earlierUnfinished));
    for (const run of doc.unfinished) out.push(t.unfinishedRun({ command: run.command, startedAt: run.startedAt, changes: run.changes }));
  }

  out.push('');
  const planned = groupRows(wanted.map((c: TuneChange) => ({ ...c, status: 'planned' })));
  const size = countChanges(t, planned.length, wanted.length);
  if (wanted.length === 0) out.push(t.nothingToChange);
  else {
    out.push(chalk.bold(t.plan({ size, dryRun: doc.dryRun })));
    out.push(...rowLines(chalk, t, planned, arrow));
  }
  if (right.length > 0) out.push(chalk.dim(t.alreadyRight({ targets: groupRows(right).map((r) => r.target).join(', ') })));

  if (!doc.dryRun && wanted.length > 0) {
    out.push('', chalk.bold(t.result));
    out.push(...rowLines(chalk, t, groupRows(wanted), arrow));
  }

  if (doc.conflicts.length > 0) {
    out.push('', chalk.bold(t.conflicts));
    for (const conflict of doc.conflicts) out.push(`  ${chalk.yellow('!')} ${conflict.message}`);
  }
  if (doc.remaining.length > 0) {
    out.push('', chalk.bold(t.notFixed));
    const idWidth = Math.max(...doc.remaining.map((c) => c.id.length));
    for (const check of doc.remaining) {
      out.push(`  ${chalk.yellow(check.status.padEnd(5))}  ${chalk.bold(check.id.padEnd(idWidth))}  ${check.message}`);
      if (check.remediation) out.push(`      ${chalk.cyan(t.fixLabel)} ${invokedAs(check.remediation, options.invocation)}`);
    }
  }
  if (doc.notes.length > 0) {
    out.push('');
    for (const note of doc.notes) out.push(`${chalk.dim(t.noteLabel)} ${note}`);
  }

  out.push('');
  const rollback = invokedAs(`qprep rollback${doc.source.root === '/' ? '' : ` --root ${doc.source.root}`}`, options.invocation);
  switch (doc.outcome) {
    case 'planned':
      out.push(`${chalk.cyan.bold(t.dryRun)}${t.labelSeparator}${wanted.length > 0 ? t.wouldBeMade({ size }) : t.nothingWouldChange}`);
      break;
    case 'unchanged':
      out.push(`${chalk.green.bold(t.ok)}${t.labelSeparator}${t.unchangedVerdict}`);
      break;
    case 'applied':
      out.push(`${chalk.green.bold(t.changed)}${t.labelSeparator}${t.appliedVerdict({ size, journal: doc.journal, rollback })}`);
      break;
    case 'refused': {
      const why = doc.changes.find((c) => c.status === 'refused')?.error ?? t.aChangeWasRefused;
      out.push(`${chalk.red.bold(t.refusedLabel)}${t.labelSeparator}${t.refusedVerdict({ why })}`);
      break;
    }
    case 'rolled-back': {
      const why = doc.changes.find((c) => c.error)?.error ?? doc.notes.find((n) => n.startsWith(t.verificationPrefix)) ?? t.aChangeFailed;
      out.push(`${chalk.red.bold(t.failedLabel)}${t.labelSeparator}${t.rolledBackVerdict({ why })}`);
      break;
    }
    case 'revert-failed':
      out.push(`${chalk.red.bold(t.failedLabel)}${t.labelSeparator}${t.revertFailedVerdict({ journal: doc.journal, rollback })}`);
      break;
  }
  return `${out.join('\n')}\n`;
}

function restoreArrow(t: TuneText, r: RollbackText): (row: Row) => string {
  return (row) => {
    if (row.kind === 'file') return row.before === null ? r.removeFile : r.restoreFile({ content: shortValue(t, 'file', row.before) });
    return `${escapeControls(row.after)} -> ${shortValue(t, row.kind, row.before)}`;
  };
}

type RollbackText = Catalogue['commands']['rollback'];

/** `qprep rollback` as a person reads it. */
export function formatRollbackHuman(input: RollbackDocument, options: TuneHumanOptions): string {
  const doc = visibleStrings(input, ['before', 'after', 'remediation']);
  const chalk = new Chalk({ level: options.color ? 1 : 0 });
  const t = (options.text ?? en).commands.tune;
  const r = (options.text ?? en).commands.rollback;
  const out = header(chalk, t, doc.dryRun ? 'rollback --dry-run' : 'rollback', doc);
  out.push('');
  if (doc.outcome === 'nothing') {
    out.push(`${chalk.green.bold(t.ok)}${t.labelSeparator}${r.nothing}`);
    return `${out.join('\n')}\n`;
  }
  const rows = groupRows(doc.restores.map((restore: Restore) => ({ ...restore, before: restore.before, after: restore.after })));
  out.push(chalk.bold(r.heading({ dryRun: doc.dryRun })));
  out.push(...rowLines(chalk, t, rows, restoreArrow(t, r)));
  if (doc.notes.length > 0) {
    out.push('');
    for (const note of doc.notes) out.push(`${chalk.dim(t.noteLabel)} ${note}`);
  }
  out.push('');
  const restored = doc.restores.filter((restore) => restore.status === 'restored').length;
  switch (doc.outcome) {
    case 'planned':
      out.push(`${chalk.cyan.bold(t.dryRun)}${t.labelSeparator}${r.wouldRestore({ count: doc.restores.filter((restore) => restore.status === 'planned').length, journal: doc.journal })}`);
      break;
    case 'rolled-back':
      out.push(`${chalk.green.bold(restored > 0 ? r.restored : t.ok)}${t.labelSeparator}${r.putBack({ count: restored, journal: doc.journal })}`);
      break;
    case 'incomplete':
      out.push(`${chalk.red.bold(r.incomplete)}${t.labelSeparator}${r.incompleteVerdict({ count: restored })}`);
      break;
  }
  return `${out.join('\n')}\n`;
}
