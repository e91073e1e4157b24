import type { CheckId } from '../core/ids/checks.js';

/**
 * The text of one check in a catalogue: what `list`, `explain` and the report show for it. The
 * entry may hold the check's messages too, beside these, as functions of one typed object.
 */
export interface CheckText {
  readonly title: string;
  /** one paragraph: why this matters for a vllm-ascend deployment */
  readonly why: string;
  /** how a failure is fixed, in general; each result carries the exact remediation */
  readonly fix: string;
  /** the files, commands and variables the check reads, for `qprep explain` and docs/checks.md */
  readonly reads: readonly string[];
}

/**
 * What a section of en/checks/ must be: entries keyed by check ids that exist (an entry for
 * any other id does not compile), each with its text and, beside it, its messages.
 */
export type CheckEntries = { readonly [id in CheckId]?: CheckText & { readonly [message: string]: unknown } };

/*
 * The parameters of messages that are data of a probe too: the catalogue declares them (it is
 * the floor below the probes), the probe's result carries them and the message says them.
 */

/** Why a model directory's config.json cannot be used. */
export type ConfigIssue =
  | { kind: 'missing' }
  | { kind: 'unreadable'; problem: string }
  | { kind: 'not-object' }
  | { kind: 'not-json'; error: string };

/** How the interpreter was found; ctx.text.probes.python.via says it in the run's language. */
export type PythonVia =
  | { kind: 'script-runs'; python: string }
  | { kind: 'shebang'; launcher: string }
  | { kind: 'first-on-path'; missing: string | null };
