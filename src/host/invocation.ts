import { existsSync, readFileSync, realpathSync } from 'node:fs';
import { delimiter, join } from 'node:path';

/**
 * How to start this qprep again from a shell, for the commands of fix lines: "qprep" when that
 * name on PATH is this very program, "npx qprep" when it is the project's or a dependency's own
 * (what `npm ci && npx qprep check` installs), else its path ("node DIR/qprep.cjs" for the
 * single-file bundle). Reads the machine qprep runs on, never the examined host.
 */
export function qprepInvocation(script = process.argv[1], env: NodeJS.ProcessEnv = process.env, cwd = process.cwd()): string {
  if (!script) return 'qprep';
  const self = realOrUndefined(script);
  if (self === undefined) return 'qprep';
  for (const dir of (env.PATH ?? '').split(delimiter)) {
    if (dir !== '' && realOrUndefined(join(dir, 'qprep')) === self) return 'qprep';
  }
  if (realOrUndefined(join(cwd, 'node_modules', '.bin', 'qprep')) === self) return 'npx qprep';
  if (realOrUndefined(join(cwd, 'bin', 'qprep.js')) === self && packageName(cwd) === 'qprep') return 'npx qprep';
  const quoted = /^[\w./+-]+$/.test(script) ? script : `'${script.replace(/'/g, `'\\''`)}'`;
  return /\.[cm]?js$/.test(script) && !/\/bin\/qprep(\.js)?$/.test(script) ? `node ${quoted}` : quoted;
}

function realOrUndefined(path: string): string | undefined {
  try {
    return existsSync(path) ? realpathSync(path) : undefined;
  } catch {
    return undefined;
  }
}

function packageName(dir: string): string | undefined {
  try {
    return (JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { name?: string }).name;
  } catch {
    return undefined;
  }
}
