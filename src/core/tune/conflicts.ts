import { describeProbeError, type Host } from '../../host/types.js';
import { en, type Catalogue } from '../../i18n/en/index.js';
import { sameKernelValue } from '../change.js';
import { parseShellAssignments } from '../../parsers/shell-assignments.js';
import { parseSysctlConf, sysctlKeyMatches } from '../../parsers/sysctl-conf.js';
import { parseTmpfiles, tmpfilesPathMatches } from '../../parsers/tmpfiles.js';
import { SYSCTL_D_FILE, TMPFILES_FILE, type Knob } from './knobs.js';

/**
 * Another configuration that sets what tune sets. qprep reports it and leaves it alone: it may
 * be there on purpose, and two agents fighting over a knob is worse than either one.
 */
export interface Conflict {
  kind: 'sysctl.d' | 'tmpfiles.d' | 'tuned' | 'cpupower';
  /** the file (and line) that says so */
  source: string;
  /** the sysctl key or path it sets */
  target?: string;
  value?: string;
  wanted?: string;
  /** it is applied after qprep's persistence file, so it wins at boot even with --persist */
  winsOverPersist: boolean;
  message: string;
}

/** sysctl.d(5): directories in precedence order; a file name in an earlier one hides the same name in later ones. */
const SYSCTL_DIRS = ['/etc/sysctl.d', '/run/sysctl.d', '/usr/local/lib/sysctl.d', '/usr/lib/sysctl.d', '/lib/sysctl.d'];
const TMPFILES_DIRS = ['/etc/tmpfiles.d', '/run/tmpfiles.d', '/usr/local/lib/tmpfiles.d', '/usr/lib/tmpfiles.d', '/lib/tmpfiles.d'];

/** The effective *.conf files of a drop-in family, sorted by file name as systemd applies them. */
async function effectiveConfFiles(host: Host, dirs: readonly string[]): Promise<Array<{ name: string; path: string }>> {
  const byName = new Map<string, string>();
  for (const dir of dirs) {
    const listing = await host.readDir(dir);
    if (!listing.ok) continue;
    for (const entry of listing.value) {
      if (entry.name.endsWith('.conf') && !byName.has(entry.name)) byName.set(entry.name, `${dir}/${entry.name}`);
    }
  }
  return [...byName].map(([name, path]) => ({ name, path })).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

type TuneText = Catalogue['commands']['tune'];

async function sysctlConflicts(host: Host, knobs: readonly Knob[], t: TuneText): Promise<Conflict[]> {
  const keyed = knobs.filter((k) => k.sysctl);
  if (keyed.length === 0) return [];
  const ourName = SYSCTL_D_FILE.slice(SYSCTL_D_FILE.lastIndexOf('/') + 1);
  const files = (await effectiveConfFiles(host, SYSCTL_DIRS)).filter((f) => f.path !== SYSCTL_D_FILE);
  // Debian links 99-sysctl.conf to ../sysctl.conf: read it once, under that name.
  const linked = await Promise.all(files.map((f) => host.readLink(f.path)));
  const sysctlConfLinked = linked.some((l) => l.ok && /(^|\/)sysctl\.conf$/.test(l.value) && !l.value.includes('sysctl.d'));
  const sources: Array<{ path: string; label: string; after: boolean }> = files.map((f) => ({ path: f.path, label: f.path, after: f.name > ourName }));
  if (!sysctlConfLinked) sources.push({ path: '/etc/sysctl.conf', label: '/etc/sysctl.conf', after: true });
  const conflicts: Conflict[] = [];
  for (const source of sources) {
    const read = await host.readFile(source.path);
    if (!read.ok) continue;
    for (const assignment of parseSysctlConf(read.value)) {
      for (const knob of keyed) {
        const key = knob.sysctl!.key;
        if (!sysctlKeyMatches(assignment.key, key) || sameKernelValue(assignment.value, knob.value)) continue;
        const where = `${source.label}:${assignment.line}`;
        const said = { where, key, value: assignment.value, wanted: knob.value, file: ourName };
        conflicts.push({
          kind: 'sysctl.d',
          source: where,
          target: key,
          value: assignment.value,
          wanted: knob.value,
          winsOverPersist: source.after,
          message: source.after ? t.sysctlWins(said) : t.sysctlComesBack(said),
        });
      }
    }
  }
  return conflicts;
}

async function tmpfilesConflicts(host: Host, knobs: readonly Knob[], t: TuneText): Promise<Conflict[]> {
  const withFiles = knobs.filter((k) => k.sysfs);
  if (withFiles.length === 0) return [];
  const files = (await effectiveConfFiles(host, TMPFILES_DIRS)).filter((f) => f.path !== TMPFILES_FILE);
  const conflicts: Conflict[] = [];
  for (const file of files) {
    const read = await host.readFile(file.path);
    if (!read.ok) continue;
    for (const line of parseTmpfiles(read.value)) {
      if (!line.type.startsWith('w')) continue;
      for (const knob of withFiles) {
        const sysfs = knob.sysfs!;
        if (!tmpfilesPathMatches(line.path, sysfs.probe) && line.path !== sysfs.glob) continue;
        if (sameKernelValue(line.argument, knob.value)) continue;
        const where = `${file.path}:${line.line}`;
        conflicts.push({
          kind: 'tmpfiles.d',
          source: where,
          target: line.path,
          value: line.argument,
          wanted: knob.value,
          winsOverPersist: true,
          message: t.tmpfilesWrites({ where, value: line.argument, path: line.path, wanted: knob.value }),
        });
      }
    }
  }
  return conflicts;
}

async function tunedConflicts(host: Host, t: TuneText): Promise<Conflict[]> {
  const active = await host.readFile('/etc/tuned/active_profile');
  if (!active.ok || active.value.trim() === '') return [];
  const profile = active.value.trim();
  const running = (await host.stat('/run/tuned/tuned.pid')).ok;
  return [
    {
      kind: 'tuned',
      source: '/etc/tuned/active_profile',
      value: profile,
      winsOverPersist: true,
      message: t.tuned({ running, profile }),
    },
  ];
}

/** A governor in a cpupower / cpufrequtils configuration, as each distribution spells it. */
async function cpupowerConflicts(host: Host, knobs: readonly Knob[], t: TuneText): Promise<Conflict[]> {
  const governor = knobs.find((k) => k.checkId === 'cpu.governor');
  if (!governor) return [];
  const conflicts: Conflict[] = [];
  const sources: Array<{ path: string; find: (vars: Map<string, string>) => string | undefined; service: string }> = [
    // Fedora/RHEL/openEuler kernel-tools: CPUPOWER_START_OPTS="frequency-set -g performance"
    { path: '/etc/sysconfig/cpupower', find: (v) => /(?:^|\s)(?:-g|--governor)[\s=]+(\S+)/.exec(v.get('CPUPOWER_START_OPTS') ?? '')?.[1], service: 'cpupower' },
    // Arch cpupower: governor='ondemand'
    { path: '/etc/default/cpupower', find: (v) => v.get('governor') ?? v.get('GOVERNOR'), service: 'cpupower' },
    // Debian/Ubuntu cpufrequtils: GOVERNOR="ondemand"
    { path: '/etc/default/cpufrequtils', find: (v) => v.get('GOVERNOR'), service: 'cpufrequtils' },
  ];
  for (const source of sources) {
    const read = await host.readFile(source.path);
    if (!read.ok) continue;
    const configured = source.find(parseShellAssignments(read.value));
    if (!configured || configured === governor.value) continue;
    conflicts.push({
      kind: 'cpupower',
      source: source.path,
      target: 'scaling_governor',
      value: configured,
      wanted: governor.value,
      winsOverPersist: true,
      message: t.cpupower({ path: source.path, value: configured, wanted: governor.value, service: source.service }),
    });
  }
  return conflicts;
}

/** Everything on the host that sets the knobs tune is about to set, to other values. */
export async function findConflicts(host: Host, knobs: readonly Knob[], t: TuneText = en.commands.tune): Promise<{ conflicts: Conflict[]; problems: string[] }> {
  const problems: string[] = [];
  const results = await Promise.all([sysctlConflicts(host, knobs, t), tmpfilesConflicts(host, knobs, t), tunedConflicts(host, t), cpupowerConflicts(host, knobs, t)]);
  const etc = await host.stat('/etc');
  if (!etc.ok && etc.code !== 'ENOENT') problems.push(t.cannotLookForConflicts({ problem: describeProbeError('/etc', etc) }));
  return { conflicts: results.flat(), problems };
}
