import { spokenError, type ErrorText } from '../i18n/spoken-error.js';
import { closest } from '../util/suggest.js';
import { DEFAULT_DEPTH, runsAt, type Depth } from './ids/depths.js';
import type { Check } from './types.js';

function matches(check: Check, token: string): boolean {
  if (check.id === token) return true;
  const prefix = token.endsWith('.') ? token : `${token}.`;
  if (check.id.startsWith(prefix)) return true;
  return check.category === token;
}

/** The id prefixes and category names that select something in this catalogue. */
function groupSelectors(catalogue: readonly Check[]): string[] {
  return [...new Set([...catalogue.map((c) => c.category), ...catalogue.map((c) => c.id.split('.')[0]!)])].sort();
}

/** Checks a token list against the catalogue; an unknown token is a usage error that lists the valid ones. */
function assertKnownTokens(flag: string, tokens: readonly string[], catalogue: readonly Check[], allowAll = false): void {
  for (const token of tokens) {
    if (allowAll && token === 'all') continue;
    if (!catalogue.some((check) => matches(check, token))) {
      const names = [...catalogue.map((c) => c.id), ...groupSelectors(catalogue)];
      // a short list (the checks tune can change) is shown whole; the catalogue is in qprep list
      const all = (t: ErrorText) => (catalogue.length <= 8 ? t.selectorChoices({ names: names.join(', ') }) : t.listShowsSelectors({ categories: groupSelectors(catalogue).join(', ') }));
      const match = closest(token, names);
      throw spokenError('usage', (t) => `${t.unknownSelector({ flag, token })}\n${match !== undefined ? t.didYouMean({ name: match }) : all(t)}`);
    }
  }
}

export interface Selection {
  only: string[];
  skip: string[];
  /** the run's depth (--depth); standard when not given */
  depth?: Depth;
}

/** The depth of a check: its own, or the default one. */
export function depthOf(check: Check): Depth {
  return check.depth ?? DEFAULT_DEPTH;
}

/**
 * The checks to run, in catalogue order: those --only selects and --skip leaves, of the run's
 * depth or shallower. A check --only names by its id runs at any depth: it was asked for by name.
 */
export function selectChecks(catalogue: readonly Check[], selection: Selection): Check[] {
  assertKnownTokens('--only', selection.only, catalogue);
  assertKnownTokens('--skip', selection.skip, catalogue);
  const depth = selection.depth ?? DEFAULT_DEPTH;
  return catalogue.filter(
    (check) =>
      (selection.only.length === 0 || selection.only.some((t) => matches(check, t))) &&
      !selection.skip.some((t) => matches(check, t)) &&
      (runsAt(depth, depthOf(check)) || selection.only.includes(check.id)),
  );
}

/** The ids an --ignore list designates; "all" stands for every check. */
export function resolveIgnore(catalogue: readonly Check[], tokens: readonly string[]): ReadonlySet<string> | 'all' {
  assertKnownTokens('--ignore', tokens, catalogue, true);
  if (tokens.includes('all')) return 'all';
  return new Set(catalogue.filter((check) => tokens.some((t) => matches(check, t))).map((c) => c.id));
}
