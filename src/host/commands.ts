import { statSync, type Stats } from 'node:fs';
import * as fsp from 'node:fs/promises';
import type { CommandLocation } from './types.js';

export const DEFAULT_PATH = '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin';

/** The directories to search, in order: PATH first, then the vendor's install places. */
export function searchDirs(pathVariable: string | undefined, extraDirs: readonly string[]): string[] {
  const pathDirs = (pathVariable ?? DEFAULT_PATH).split(':').filter((dir) => dir.startsWith('/'));
  return [...new Set([...pathDirs, ...extraDirs].map((dir) => dir.replace(/\/+$/, '') || '/'))];
}

/**
 * Finds an executable the way the shell would (PATH, in order), then in the places the vendor
 * installs it when PATH lacks them (npu-smi sits in /usr/local/sbin on some hosts and in
 * /usr/local/bin on others; hccn_tool in the driver's tools directory).
 */
export async function locateExecutable(name: string, pathVariable: string | undefined, extraDirs: readonly string[]): Promise<CommandLocation> {
  const searched: string[] = [];
  for (const dir of searchDirs(pathVariable, extraDirs)) {
    const candidate = `${dir}/${name}`;
    searched.push(candidate);
    try {
      if (isExecutable(await fsp.stat(candidate))) return { path: candidate, searched };
    } catch {
      // not here
    }
  }
  return { path: null, searched };
}

function isExecutable(stat: Stats): boolean {
  return stat.isFile() && (stat.mode & 0o111) !== 0;
}

/**
 * The same search without waiting for the event loop: the first lines of the process find
 * npu-smi and hccn_tool with it, before the rest of qprep is compiled (which blocks the loop);
 * the run's own lookup (locateExecutable) then finds the same path.
 */
export function locateExecutableSync(name: string, pathVariable: string | undefined, extraDirs: readonly string[]): string | null {
  for (const dir of searchDirs(pathVariable, extraDirs)) {
    const stat = statSync(`${dir}/${name}`, { throwIfNoEntry: false });
    if (stat && isExecutable(stat)) return `${dir}/${name}`;
  }
  return null;
}
