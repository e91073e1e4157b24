import { findJemalloc, LIBRARY } from '../probes/jemalloc.js';
import { resolveNodeAddress, type NodeAddressRequest } from '../probes/node-address.js';
import { QprepError } from '../errors.js';
import type { CheckContext } from '../core/types.js';

export interface LaunchVariable {
  name: string;
  value: string;
  source: 'jemalloc' | 'network' | 'profile';
}

/** The environment a vllm-ascend launch script needs on this host. */
export interface LaunchEnv {
  node: { ip: string; nic: string; source: string } | null;
  unset: string[];
  exports: LaunchVariable[];
  /** what could not be provided, and why */
  notes: string[];
}

/** The variables that name the node's interface for HCCL, Gloo and the TP sockets (vllm-ascend guides). */
export const SOCKET_VARIABLES = ['GLOO_SOCKET_IFNAME', 'TP_SOCKET_IFNAME', 'HCCL_SOCKET_IFNAME'] as const;

async function preloadValue(ctx: CheckContext, notes: string[]): Promise<string | undefined> {
  const found = await findJemalloc(ctx);
  if (!found.path) {
    notes.push(ctx.text.commands.envNotes.jemallocNotFound({ library: LIBRARY, problem: found.problem ?? null, searched: found.searched.length }));
    return undefined;
  }
  const current = (ctx.host.env().LD_PRELOAD ?? '').split(/[:\s]+/).filter(Boolean);
  const kept: string[] = [];
  for (const entry of current) {
    if (entry === found.path || kept.includes(entry)) continue;
    // A path ld.so cannot load makes every process print "cannot be preloaded"; leave it out.
    if (entry.startsWith('/') && !(await ctx.host.stat(entry)).ok) {
      notes.push(ctx.text.commands.envNotes.droppedFromPreload({ entry }));
      continue;
    }
    kept.push(entry);
  }
  return [found.path, ...kept].join(':');
}

/**
 * LD_PRELOAD with this host's jemalloc (ahead of what the caller's LD_PRELOAD already holds),
 * HCCL_IF_IP and the *_SOCKET_IFNAME variables for the node's interface, the unset list and the
 * profile's variables. The profile wins over a computed variable of the same name.
 */
export async function buildLaunchEnv(ctx: CheckContext, request: NodeAddressRequest): Promise<LaunchEnv> {
  const settings = ctx.profile.env;
  const notes: string[] = [];
  const exports: LaunchVariable[] = [];
  if (settings.preloadJemalloc) {
    const value = await preloadValue(ctx, notes);
    if (value !== undefined) exports.push({ name: 'LD_PRELOAD', value, source: 'jemalloc' });
  }
  const node = await resolveNodeAddress(ctx, request);
  if (!node.ok) throw new QprepError('usage', node.problem);
  exports.push({ name: 'HCCL_IF_IP', value: node.ip, source: 'network' });
  for (const name of SOCKET_VARIABLES) exports.push({ name, value: node.nic, source: 'network' });

  for (const [name, value] of Object.entries(settings.variables)) {
    if (value === null) continue;
    if (value.includes('\0')) throw new QprepError('invalid-profile', `env.variables.${name}: a value cannot contain a NUL byte`);
    const computed = exports.findIndex((v) => v.name === name);
    if (computed >= 0) {
      notes.push(ctx.text.commands.envNotes.fromProfile({ name, value, computed: exports[computed]!.value }));
      exports.splice(computed, 1);
    }
    exports.push({ name, value, source: 'profile' });
  }
  const exported = new Set(exports.map((v) => v.name));
  return { node: { ip: node.ip, nic: node.nic, source: node.source }, unset: settings.unset.filter((name) => !exported.has(name)), exports, notes };
}
