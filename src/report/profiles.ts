import type { LoadedProfile, Profile } from '../core/profile.js';
import { expandPorts } from '../core/profile.js';
import { formatBytes } from '../util/size.js';
import { formatRanges, plural } from '../util/text.js';
import { visibleStrings } from './visible.js';

/**
 * What `qprep list --profiles` says of a profile: what the deployment needs of each node,
 * as the resolved profile states it (inherited values included).
 */
export interface ProfileSummary {
  name: string;
  description: string;
  /** "builtin" or the profile file */
  source: string;
  /** the built-in it starts from; null for default itself */
  extends: string | null;
  family: Profile['npu']['family'];
  /** at least this many NPU devices (0: any number from 1) */
  npuCount: number;
  visibleDevices: string | null;
  minDriver: string | null;
  minCann: string | null;
  nodes: number;
  role: Profile['deployment']['role'];
  expectedConcurrency: number | null;
  hccn: {
    /** HCCN problems make the node not ready even without --cluster */
    blocking: boolean;
    kvTransfer: boolean;
  };
  shmMinBytes: number;
  memoryMinAvailableBytes: number;
  disk: Array<{ path: string; minFreeBytes: number }>;
  /** as the profile writes them: numbers and "low-high" ranges */
  ports: Array<number | string>;
  hcclPortCount: number;
  tuning: Profile['tuning'];
  env: { variables: Record<string, string>; unset: string[]; preloadJemalloc: boolean };
  /** checks the profile makes required, and those it makes recommended */
  promotes: string[];
  demotes: string[];
  skip: string[];
  waivers: Profile['waivers'];
}

export function profileSummary(loaded: LoadedProfile, extendsName: string | null): ProfileSummary {
  const p = loaded.profile;
  const levels = Object.entries(p.levels);
  const variables = Object.fromEntries(Object.entries(p.env.variables).filter((entry): entry is [string, string] => entry[1] !== null));
  return {
    name: p.name,
    description: p.description,
    source: loaded.source,
    extends: extendsName,
    family: p.npu.family,
    npuCount: p.npu.minCount,
    visibleDevices: p.npu.visibleDevices === '' ? null : p.npu.visibleDevices,
    minDriver: p.npu.minDriver ?? null,
    minCann: p.npu.minCann ?? null,
    nodes: p.deployment.nodes,
    role: p.deployment.role,
    expectedConcurrency: p.deployment.expectedConcurrency > 0 ? p.deployment.expectedConcurrency : null,
    hccn: { blocking: p.deployment.nodes >= 2 || p.hccn.kvTransfer, kvTransfer: p.hccn.kvTransfer },
    shmMinBytes: p.host.shmMin,
    memoryMinAvailableBytes: p.host.memoryMinAvailable,
    disk: p.host.disk.map((d) => ({ path: d.path, minFreeBytes: d.minFree })),
    ports: p.host.ports,
    hcclPortCount: p.host.hcclPortCount,
    tuning: p.tuning,
    env: { variables, unset: p.env.unset, preloadJemalloc: p.env.preloadJemalloc },
    promotes: levels.filter(([, level]) => level === 'required').map(([id]) => id),
    demotes: levels.filter(([, level]) => level === 'recommended').map(([id]) => id),
    skip: p.skip,
    waivers: p.waivers,
  };
}

function wrap(text: string, width: number, indent: string): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(/\s+/).filter(Boolean)) {
    if (line && line.length + word.length + 1 > width) {
      lines.push(indent + line);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  if (line) lines.push(indent + line);
  return lines;
}

function npuLine(s: ProfileSummary): string {
  const family = s.family === 'any' ? 'any family' : s.family;
  const count = s.npuCount > 0 ? `at least ${plural(s.npuCount, 'device')}` : 'any number of devices';
  const devices = s.visibleDevices ? ` (${s.visibleDevices})` : '';
  const versions = [s.minDriver ? `driver >= ${s.minDriver}` : 'no minimum driver', ...(s.minCann ? [`CANN >= ${s.minCann}`] : [])];
  return `${family}, ${count}${devices}; ${versions.join(', ')}`;
}

function deploymentLine(s: ProfileSummary): string {
  const parts = [s.nodes === 1 ? 'one node' : `${s.nodes} nodes`];
  if (s.role !== 'any') parts.push(`role ${s.role}`);
  if (s.expectedConcurrency !== null) parts.push(`${s.expectedConcurrency} requests at once`);
  return parts.join(', ');
}

function hccnLine(s: ProfileSummary): string {
  if (s.family === '310p') return 'none (the 310P has no NPU network)';
  const parts = [s.hccn.blocking ? 'problems block readiness on every node' : 'problems warn on one node (block with --cluster)'];
  if (s.hccn.kvTransfer) parts.push('KV caches move over the NPU network: /etc/hccn.conf must be mounted');
  return parts.join('; ');
}

function hostLine(s: ProfileSummary): string {
  const ports = expandPorts(s.ports);
  const parts = [`/dev/shm >= ${formatBytes(s.shmMinBytes)}`, ...s.disk.map((d) => `${formatBytes(d.minFreeBytes)} free in ${d.path}`)];
  parts.push(`ports ${formatRanges(ports).split(',').join(', ') || 'none'}${s.hcclPortCount > 0 ? ` and ${s.hcclPortCount} HCCL ports` : ''}`);
  return parts.join(', ');
}

function tuningLine(s: ProfileSummary): string {
  const t = s.tuning;
  return (
    `governor ${t.cpuGovernor}, vm.swappiness <= ${t.swappiness.max} (tune writes ${t.swappiness.target}), ` +
    `kernel.numa_balancing ${t.numaBalancing.target}, sched_migration_cost_ns ${t.schedMigrationCostNs.min}-${t.schedMigrationCostNs.max} ` +
    `(tune writes ${t.schedMigrationCostNs.target})`
  );
}

function envLine(s: ProfileSummary): string {
  const variables = Object.entries(s.env.variables).map(([name, value]) => `${name}=${value}`);
  const parts = [variables.length > 0 ? variables.join(' ') : 'no variables'];
  if (s.env.preloadJemalloc) parts.push('LD_PRELOAD of jemalloc');
  if (s.env.unset.length > 0) parts.push(`unset ${plural(s.env.unset.length, 'proxy variable')}`);
  return parts.join('; ');
}

/** One block per profile: the name and what it is for, then one line per need. */
export function formatProfilesHuman(input: readonly ProfileSummary[]): string {
  // a profile file's names and descriptions are shown with their controls visible
  const blocks = visibleStrings(input).map((s) => {
    const origin = s.source === 'builtin' ? (s.extends ? `built-in, extends ${s.extends}` : 'built-in') : `${s.source}, extends ${s.extends ?? 'default'}`;
    const rows: Array<[string, string]> = [
      ['npu', npuLine(s)],
      ['deployment', deploymentLine(s)],
      ['hccn', hccnLine(s)],
      ['host', hostLine(s)],
      ['tuning', tuningLine(s)],
      ['env', envLine(s)],
      ['promotes', s.promotes.length > 0 ? s.promotes.join(', ') : 'nothing (the checks keep their own levels)'],
    ];
    if (s.demotes.length > 0) rows.push(['demotes', s.demotes.join(', ')]);
    if (s.skip.length > 0) rows.push(['skips', s.skip.join(', ')]);
    for (const w of s.waivers) rows.push(['waives', `${w.id}: ${w.reason}${w.expires ? ` (until ${w.expires})` : ''}`]);
    const lines = [`${s.name}  (${origin})`];
    if (s.description) lines.push(...wrap(s.description, 96, '  '));
    for (const [label, value] of rows) lines.push(`  ${label.padEnd(10)}  ${value}`);
    return lines.join('\n');
  });
  return `${blocks.join('\n\n')}\n`;
}
