import { existsSync, readFileSync, realpathSync } from 'node:fs';
import { basename, delimiter, isAbsolute, join, relative } from 'node:path';

/**
 * How the user started this qprep, as a shell command to start it again, for the commands of fix
 * lines and hints (they are pasted): reads the machine qprep runs on, never the examined host.
 *
 * - `npx qprep` under npx or `npm exec` (npm sets npm_lifecycle_event=npx and names the bin in
 *   npm_lifecycle_script), or from an npm script: npm put node_modules/.bin on the PATH of that
 *   run only, so `qprep` would not be found by the shell the user pastes into;
 * - `qprep` when that name on the user's own PATH is this very program (a global install);
 * - `npx qprep` in a project that has qprep in node_modules/.bin, or in a checkout of qprep;
 * - else the script as typed, relative to the current directory when it lies under it:
 *   `node dist/qprep.mjs` for the single file, `/opt/qprep/bin/qprep.js` for an executable.
 */
export function qprepInvocation(script = process.argv[1], env: NodeJS.ProcessEnv = process.env, cwd = process.cwd()): string {
  if (!script) return 'qprep';
  const self = realOrUndefined(script);
  if (self === undefined) return 'qprep';
  const underNpm = env.npm_lifecycle_event !== undefined && env.npm_lifecycle_event !== '';
  if (underNpm && env.npm_lifecycle_event === 'npx' && unquoted(env.npm_lifecycle_script ?? '') === 'qprep') return 'npx qprep';
  for (const dir of (env.PATH ?? '').split(delimiter)) {
    if (dir === '' || realOrUndefined(join(dir, 'qprep')) !== self) continue;
    return underNpm && isBinDirectory(dir) ? 'npx qprep' : 'qprep';
  }
  if (realOrUndefined(join(cwd, 'node_modules', '.bin', 'qprep')) === self) return 'npx qprep';
  if (realOrUndefined(join(cwd, 'bin', 'qprep.js')) === self && packageName(cwd) === 'qprep') return 'npx qprep';
  return asTyped(script, cwd);
}

/** The node_modules/.bin directory npm puts on the PATH of what it runs. */
function isBinDirectory(dir: string): boolean {
  return basename(dir) === '.bin' && basename(join(dir, '..')) === 'node_modules';
}

/** npm quotes the bin it names: `'qprep'`. */
function unquoted(text: string): string {
  return text.trim().replace(/^'(.*)'$/, '$1').replace(/^"(.*)"$/, '$1');
}

/** The script as the user typed it: under the current directory relative to it, quoted for a shell when it must be. */
function asTyped(script: string, cwd: string): string {
  const inside = relative(cwd, script);
  // from / a relative path reads as a typo of the absolute one
  const path = cwd !== '/' && inside !== '' && !inside.startsWith('..') && !isAbsolute(inside) ? inside : script;
  const quoted = /^[\w./+-]+$/.test(path) ? path : `'${path.replace(/'/g, `'\\''`)}'`;
  // a module is started by node; an executable (bin/qprep.js has its #! line) by its path
  if (/\.[cm]?js$/.test(path) && !/(^|\/)bin\/qprep(\.js)?$/.test(path)) return `node ${quoted}`;
  return path.includes('/') ? quoted : `./${quoted}`;
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
