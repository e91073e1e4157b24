import { parseSysctlConf } from '../../parsers/sysctl-conf.js';
import { parseTmpfiles } from '../../parsers/tmpfiles.js';
import type { Host } from '../../host/types.js';
import { en, type Catalogue } from '../../i18n/en/index.js';
import { sysctlPath, type Change } from '../change.js';
import { SYSCTL_D_FILE, TMPFILES_FILE, type Knob } from './knobs.js';
import { symlinkRefusal } from './links.js';

/*
 * How `--persist` makes the settings survive a reboot, with the distribution's own mechanisms:
 * - sysctls: /etc/sysctl.d/90-qprep.conf, read at boot by systemd-sysctl and by
 *   "sysctl --system" (procps) on every distribution qprep meets.
 * - the CPU governor and the debugfs scheduler knob (which sysctl.d cannot set since Linux
 *   5.13): "w" lines in /etc/tmpfiles.d/qprep.conf, which systemd-tmpfiles-setup.service writes
 *   at boot. tmpfiles.d is part of systemd itself, so it is present on openEuler, Kylin, Ubuntu,
 *   Debian and RHEL alike, takes globs (every CPU, whatever their number), needs no package
 *   and no service of its own; cpupower's service and tuned are optional packages that not
 *   every host has, and tuned would fight a second tuning agent.
 */

const SYSCTL_HEADER = [
  '# Written by "qprep tune --persist": kernel settings of the qprep profile,',
  '# applied at boot by systemd-sysctl (and by "sysctl --system").',
  '# "qprep rollback" removes this file or restores what was here; qprep rewrites it.',
];

const TMPFILES_HEADER = [
  '# Written by "qprep tune --persist": kernel settings sysctl.d cannot hold (CPU governor,',
  '# debugfs scheduler knobs), written at boot by systemd-tmpfiles-setup.service.',
  '# "qprep rollback" removes this file or restores what was here; qprep rewrites it.',
];

export interface PersistencePlan {
  changes: Change[];
  /** settings that could not be made persistent here, and why */
  notes: string[];
}

async function exists(host: Host, path: string): Promise<boolean> {
  const read = await host.stat(path);
  return read.ok;
}

async function isDirectory(host: Host, path: string): Promise<boolean> {
  const read = await host.stat(path);
  return read.ok && read.value.kind === 'directory';
}

/** The desired content of qprep's sysctl.d file: what it holds now, with this run's keys set. */
export function renderSysctlFile(existing: string | null, settings: ReadonlyMap<string, string>): string {
  const merged = new Map<string, string>();
  for (const assignment of existing === null ? [] : parseSysctlConf(existing)) merged.set(assignment.key, assignment.value);
  for (const [key, value] of settings) merged.set(key, value);
  return `${[...SYSCTL_HEADER, ...[...merged].map(([key, value]) => `${key} = ${value}`)].join('\n')}\n`;
}

/** The desired content of qprep's tmpfiles.d file: what it holds now, with this run's paths set. */
export function renderTmpfilesFile(existing: string | null, settings: ReadonlyMap<string, string>): string {
  const merged = new Map<string, string>();
  for (const line of existing === null ? [] : parseTmpfiles(existing)) {
    if (line.type.startsWith('w')) merged.set(line.path, line.argument);
  }
  for (const [path, value] of settings) merged.set(path, value);
  return `${[...TMPFILES_HEADER, ...[...merged].map(([path, value]) => `w ${path} - - - - ${value}`)].join('\n')}\n`;
}

/**
 * The file changes that make `knobs` persistent on this host: each knob where the kernel has it
 * (a sysctl in /proc/sys, else its sysfs/debugfs file). The files keep what earlier runs put
 * in them, so `--persist --only X` adds X without dropping the others.
 */
/** A file qprep manages, never read through a link (tune refuses the change, naming the link). */
async function readManaged(host: Host, path: string): Promise<{ ok: true; value: string } | { ok: false }> {
  if (await symlinkRefusal(host, path)) return { ok: false };
  return host.readFile(path);
}

export async function planPersistence(host: Host, knobs: readonly Knob[], t: Catalogue['commands']['tune'] = en.commands.tune): Promise<PersistencePlan> {
  const sysctls = new Map<string, string>();
  const tmpfiles = new Map<string, string>();
  const notes: string[] = [];
  for (const knob of knobs) {
    if (knob.sysctl && (await exists(host, sysctlPath(knob.sysctl.key)))) sysctls.set(knob.sysctl.key, knob.value);
    else if (knob.sysfs && (await exists(host, knob.sysfs.probe))) tmpfiles.set(knob.sysfs.glob, knob.value);
  }
  const changes: Change[] = [];
  if (sysctls.size > 0) {
    if (await isDirectory(host, '/etc/sysctl.d')) {
      const current = await readManaged(host, SYSCTL_D_FILE);
      changes.push({ kind: 'file', path: SYSCTL_D_FILE, content: renderSysctlFile(current.ok ? current.value : null, sysctls), mode: 0o644 });
    } else notes.push(t.noSysctlD({ keys: [...sysctls.keys()].join(', ') }));
  }
  if (tmpfiles.size > 0) {
    if (await isDirectory(host, '/etc/tmpfiles.d')) {
      const current = await readManaged(host, TMPFILES_FILE);
      changes.push({ kind: 'file', path: TMPFILES_FILE, content: renderTmpfilesFile(current.ok ? current.value : null, tmpfiles), mode: 0o644 });
    } else notes.push(t.noTmpfilesD({ paths: [...tmpfiles.keys()].join(', ') }));
  }
  return { changes, notes };
}
