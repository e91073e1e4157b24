import { z } from 'zod';
import type { Change } from '../change.js';
import { describeProbeError, type Host } from '../../host/types.js';
import { visibleLine } from '../../util/text.js';
import { STATE_DIR } from './knobs.js';
import { symlinkRefusal } from './links.js';

/**
 * The tune journal: every old value, on disk and fsynced before the first write, so that
 * `qprep rollback` can restore the host after a failure, a crash or a change of mind. It lives
 * in /var/lib/qprep (under --root): persistent state, because --persist changes survive a reboot
 * and must stay undoable after one, and because an interrupted tune must still be visible after
 * the reboot that often follows a crash. /run (tmpfs) would forget both.
 */
export const JOURNAL_PATH = `${STATE_DIR}/journal.json`;

export const entryStatusSchema = z.enum(['pending', 'applied', 'failed', 'reverted', 'revert-failed']);

export const journalEntrySchema = z.object({
  /** the check whose plan asked for it, or "persist" */
  origin: z.string(),
  kind: z.enum(['sysctl', 'sysfs', 'file']),
  /** the sysctl key, or the path */
  target: z.string(),
  path: z.string(),
  /** what was there, byte for byte; null: the file did not exist */
  before: z.string().nullable(),
  /** permission bits of the file that was there */
  beforeMode: z.number().int().optional(),
  /** what tune writes */
  after: z.string(),
  /** permission bits of a file tune writes */
  mode: z.number().int().optional(),
  status: entryStatusSchema,
  error: z.string().optional(),
});
export type JournalEntry = z.infer<typeof journalEntrySchema>;

export const runStateSchema = z.enum(['applying', 'applied', 'reverted', 'revert-failed']);

export const journalRunSchema = z.object({
  runId: z.string(),
  toolVersion: z.string(),
  profile: z.string(),
  command: z.string(),
  startedAt: z.string(),
  finishedAt: z.string().optional(),
  /** applying: the entries were journaled and writing began; it never says applied after a crash */
  state: runStateSchema,
  entries: z.array(journalEntrySchema),
});
export type JournalRun = z.infer<typeof journalRunSchema>;

export const journalSchema = z.object({
  schemaVersion: z.literal(1),
  kind: z.literal('qprep-tune-journal'),
  hostname: z.string(),
  createdAt: z.string(),
  updatedAt: z.string(),
  runs: z.array(journalRunSchema),
  /** set when the journal was retired by `qprep rollback` */
  rolledBackAt: z.string().optional(),
});
export type Journal = z.infer<typeof journalSchema>;

export type JournalRead =
  | { state: 'absent' }
  | { state: 'unreadable'; reason: string; code: string }
  | { state: 'corrupt'; reason: string }
  | { state: 'present'; journal: Journal };

/** Reads and validates the active journal. Never throws. */
export async function readJournal(host: Host): Promise<JournalRead> {
  const link = await symlinkRefusal(host, JOURNAL_PATH);
  if (link) return { state: 'unreadable', reason: link, code: 'ELINK' };
  const read = await host.readFile(JOURNAL_PATH);
  if (!read.ok) {
    if (read.code === 'ENOENT') return { state: 'absent' };
    return { state: 'unreadable', reason: describeProbeError(JOURNAL_PATH, read), code: read.code };
  }
  let document: unknown;
  try {
    document = JSON.parse(read.value);
  } catch (error) {
    return { state: 'corrupt', reason: `${JOURNAL_PATH} is not JSON: ${visibleLine((error as Error).message)}` };
  }
  const parsed = journalSchema.safeParse(document);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return { state: 'corrupt', reason: `${JOURNAL_PATH}: ${issue ? `${issue.path.join('.') || '(top)'}: ${issue.message}` : 'invalid'}` };
  }
  return { state: 'present', journal: parsed.data };
}

/** Runs whose changes may be partly on the host: a tune that was killed, or whose revert failed. */
export function unfinishedRuns(journal: Journal): JournalRun[] {
  return journal.runs.filter((run) => run.state === 'applying' || run.state === 'revert-failed');
}

/** Runs whose changes are (or may be) on the host: what rollback undoes. */
export function activeRuns(journal: Journal): JournalRun[] {
  return journal.runs.filter((run) => run.state !== 'reverted');
}

export function newJournal(hostname: string, now: Date): Journal {
  const at = now.toISOString();
  return { schemaVersion: 1, kind: 'qprep-tune-journal', hostname, createdAt: at, updatedAt: at, runs: [] };
}

/** Atomically replaces the journal (temporary file, fsync, rename, fsync of the directory). */
export async function writeJournal(host: Host, journal: Journal, now: Date): Promise<string | undefined> {
  const dir = await host.makeDirectory(STATE_DIR, 0o755);
  if (!dir.ok) return describeProbeError(STATE_DIR, dir);
  const link = await symlinkRefusal(host, JOURNAL_PATH);
  if (link) return link;
  journal.updatedAt = now.toISOString();
  // Only root reads it: it holds whole configuration files as they were, whatever they contained.
  const written = await host.writeFile(JOURNAL_PATH, `${JSON.stringify(journal, null, 2)}\n`, { how: 'atomic', mode: 0o600 });
  return written.ok ? undefined : describeProbeError(JOURNAL_PATH, written);
}

/** journal-2026-12-02T13-43-06Z.json: sorts by time, no ":" for tools that dislike it. */
export function retiredJournalPath(now: Date, attempt = 0): string {
  const stamp = now.toISOString().replace(/\.\d{3}Z$/, 'Z').replace(/:/g, '-');
  return `${STATE_DIR}/journal-${stamp}${attempt > 0 ? `-${attempt}` : ''}.json`;
}

/**
 * Writes the final journal and moves it aside as a timestamped record, so that the next tune
 * starts a new journal and nothing is lost. Returns the record's path or the problem.
 */
export async function retireJournal(host: Host, journal: Journal, now: Date): Promise<{ path: string } | { problem: string }> {
  const problem = await writeJournal(host, journal, now);
  if (problem) return { problem };
  for (let attempt = 0; attempt < 100; attempt++) {
    const target = retiredJournalPath(now, attempt);
    if ((await host.lstat(target)).ok) continue;
    const moved = await host.rename(JOURNAL_PATH, target);
    return moved.ok ? { path: target } : { problem: describeProbeError(JOURNAL_PATH, moved) };
  }
  return { problem: `too many journal records for ${now.toISOString()} in ${STATE_DIR}` };
}

export function entryFor(origin: string, change: Change, before: string | null, beforeMode: number | undefined): JournalEntry {
  const entry: JournalEntry = {
    origin,
    kind: change.kind,
    target: change.kind === 'sysctl' ? change.key : change.path,
    path: change.path,
    before,
    after: change.kind === 'file' ? change.content : change.value,
    status: 'pending',
  };
  if (beforeMode !== undefined) entry.beforeMode = beforeMode;
  if (change.kind === 'file') entry.mode = change.mode;
  return entry;
}

/** The change that puts an entry's old value back (for a file that did not exist: none, remove it). */
export function restoringChange(entry: JournalEntry): Change | { kind: 'remove'; path: string } {
  if (entry.kind === 'file') {
    if (entry.before === null) return { kind: 'remove', path: entry.path };
    return { kind: 'file', path: entry.path, content: entry.before, mode: entry.beforeMode ?? 0o644 };
  }
  if (entry.kind === 'sysctl') return { kind: 'sysctl', key: entry.target, path: entry.path, value: entry.before ?? '' };
  return { kind: 'sysfs', path: entry.path, value: entry.before ?? '' };
}
