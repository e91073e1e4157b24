import { sameKernelValue, sysctlPath, type Change } from '../change.js';
import type { Profile } from '../profile.js';
import { PERSISTENCE_FILES, profileKnobs, type Knob } from './knobs.js';

/** Values larger than this are not a kernel setting; configuration files are small too. */
const MAX_VALUE_BYTES = 64 * 1024;

/** Absolute, no empty, "." or ".." segment, no NUL: the path names one file, literally. */
export function isCanonicalPath(path: string): boolean {
  if (!path.startsWith('/') || path.includes('\0') || path.length > 4096) return false;
  return path
    .slice(1)
    .split('/')
    .every((segment) => segment !== '' && segment !== '.' && segment !== '..');
}

export interface AllowList {
  /** undefined when the change may be written, else why it may not */
  refuse(change: Change): string | undefined;
}

/**
 * What tune may write: the sysctl keys, kernel files and values of the profile's tuning
 * section, and qprep's own persistence files. Everything else is refused before any write,
 * whatever a check's plan or a journal on disk says. With `anyValue` (rollback, which writes the
 * old values back), only the paths are judged.
 */
export function allowListFor(knobs: readonly Knob[], options: { anyValue?: boolean } = {}): AllowList {
  const anyValue = options.anyValue ?? false;
  return {
    refuse(change) {
      if (!isCanonicalPath(change.path)) return `${JSON.stringify(change.path)} is not a canonical absolute path`;
      const written = change.kind === 'file' ? change.content : change.value;
      if (written.includes('\0')) return 'the value contains a NUL byte';
      if (Buffer.byteLength(written) > MAX_VALUE_BYTES) return `the value is larger than ${MAX_VALUE_BYTES} bytes`;
      switch (change.kind) {
        case 'sysctl': {
          const knob = knobs.find((k) => k.sysctl?.key === change.key);
          if (!knob) return `sysctl ${JSON.stringify(change.key)} is not one the profile tunes (${knobs.flatMap((k) => (k.sysctl ? [k.sysctl.key] : [])).join(', ')})`;
          if (change.path !== sysctlPath(change.key)) return `sysctl ${change.key} lives at ${sysctlPath(change.key)}, not ${change.path}`;
          if (!anyValue && !sameKernelValue(change.value, knob.value)) return `the profile sets ${change.key} to ${knob.value}, not ${change.value}`;
          return undefined;
        }
        case 'sysfs': {
          const knob = knobs.find((k) => k.sysfs?.pattern.test(change.path));
          if (!knob) return `${change.path} is not a kernel file the profile tunes`;
          if (!anyValue && !sameKernelValue(change.value, knob.value)) return `the profile sets ${change.path} to ${knob.value}, not ${change.value}`;
          return undefined;
        }
        case 'file':
          return PERSISTENCE_FILES.includes(change.path) ? undefined : `${change.path} is not one of qprep's persistence files (${PERSISTENCE_FILES.join(', ')})`;
      }
    },
  };
}

export function profileAllowList(profile: Profile): AllowList {
  return allowListFor(profileKnobs(profile));
}
