import { spokenError } from '../i18n/spoken-error.js';
import type { CommandOptions } from './cli-options.js';
import type { CheckOptions } from './session.js';

/** The check options as the command line gives them to `qprep check`, `snapshot` and `serve` (snapshot has no --ignore, --strict or --snapshot). */
export type CheckOptionFlags = CommandOptions<'check' | 'serve' | 'snapshot'> & Partial<Pick<CommandOptions<'check'>, 'ignore' | 'strict' | 'snapshot'>>;

/** --only, --skip and --ignore take lists separated by commas or spaces, and can be repeated. */
function splitList(values: string[] | undefined): string[] {
  return (values ?? []).flatMap((v) => v.split(/[\s,]+/)).filter(Boolean);
}

/** The options of a run of the checks, from the flags of the command that starts it. */
export function toCheckOptions(flags: CheckOptionFlags): CheckOptions {
  // `--only ''` selects nothing; read as "no --only" it would select everything
  if ((flags.only ?? []).length > 0 && splitList(flags.only).length === 0) throw spokenError('usage', (t) => t.usage.onlyEmpty);
  const result: CheckOptions = {
    only: splitList(flags.only),
    skip: splitList(flags.skip),
    ignore: splitList(flags.ignore),
    strict: flags.strict ?? false,
  };
  if (flags.profile !== undefined) result.profile = flags.profile;
  if (flags.root !== undefined) result.root = flags.root;
  if (flags.snapshot !== undefined) result.snapshot = flags.snapshot;
  if (flags.timeout !== undefined) result.timeoutMs = flags.timeout;
  if (flags.jobs !== undefined) result.jobs = flags.jobs;
  if (flags.cluster !== undefined) result.cluster = flags.cluster;
  if (flags.node !== undefined) result.node = flags.node;
  if (flags.hccnConcurrency !== undefined) result.hccnConcurrency = flags.hccnConcurrency;
  if (flags.launch !== undefined) result.launch = flags.launch;
  if (flags.lang !== undefined) result.lang = flags.lang;
  if (flags.ioProbe === false) result.ioProbe = false;
  if (flags.depth !== undefined) result.depth = flags.depth;
  return result;
}
