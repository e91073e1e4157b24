import { error } from '../core/outcome.js';
import type { CheckContext, Outcome } from '../core/types.js';
import { CONTROL_DEVICES, DRIVER_PATHS, mountForLibrary, type MountSet } from '../data/container-mounts.js';
import type { NpuFamily } from '../parsers/npu-smi-info.js';
import { en, type Catalogue } from '../i18n/en/index.js';
import { npuInventory, npuProblemText, type NpuProblem } from './npu.js';

/** Shared wording of the NPU checks: what to do about an npu-smi problem, here or in a container. */

/** The device and mount set the container needs: the profile's choice, or the 200I Pro set when its control device exists. */
export function mountSetOf(ctx: CheckContext): Promise<MountSet> {
  return ctx.shared('npu-mount-set', async () => {
    const configured = ctx.profile.npu.mountSet;
    if (configured !== 'auto') return configured;
    const socDevice = await ctx.host.stat('/dev/ascend_manager');
    return socDevice.ok ? '200i-pro' : 'standard';
  });
}

/** The family as far as it is known: from npu-smi, else from the profile. */
export async function knownFamily(ctx: CheckContext): Promise<NpuFamily> {
  const inventory = await npuInventory(ctx);
  if (inventory.ok) return inventory.family;
  return ctx.profile.npu.family === 'any' ? 'unknown' : ctx.profile.npu.family;
}

/** The 310 family has no NPU network, so no hccn_tool; A2, A3 and anything not identified need it. */
export function needsHccnTool(family: NpuFamily): boolean {
  return family !== '310p';
}

export function npuSmiFlag(set: MountSet): string {
  return DRIVER_PATHS[set].find((p) => p.path.endsWith('/npu-smi'))!.flag;
}

export type NpuTool = 'npu-smi' | 'hccn_tool';

/**
 * Under --root the files are the host's but the commands run from qprep's own environment (its
 * PATH, its libraries, its /dev): the guide's mounts that bring the host's tool into qprep's
 * container, with what that tool needs to run (npu-smi: the DCMI library, the driver's lib64,
 * the install record and the control devices; hccn_tool: the driver's lib64).
 */
export function rootToolMounts(set: MountSet, tools: readonly NpuTool[]): string[] {
  const paths = DRIVER_PATHS[set];
  const flagOf = (suffix: string) => paths.find((p) => p.path.endsWith(suffix))?.flag;
  const flags: Array<string | undefined> = [];
  if (tools.includes('npu-smi')) {
    flags.push(npuSmiFlag(set), flagOf('/dcmi'), flagOf('/driver/lib64'), flagOf('/ascend_install.info'), ...CONTROL_DEVICES[set].map((d) => d.flag));
  }
  if (tools.includes('hccn_tool')) flags.push(flagOf('/hccn_tool'), flagOf('/driver/lib64'));
  return [...new Set(flags.filter((f): f is string => f !== undefined))];
}

/** The remediation of a tool missing under --root: the mounts, and that commands do not come from the root. */
export function underRootRemediation(root: string, set: MountSet, tools: readonly NpuTool[], text: Catalogue = en): string {
  return text.probes.npu.remediation.underRoot({ root, flags: rootToolMounts(set, tools).join(' ') });
}

/**
 * A --root tree that is a host (not a container's root): its tools are not the ones qprep runs,
 * so the fix is a mount into qprep's own container. A tree that is itself a container's root
 * gets the container's fix, which names the same mounts.
 */
export function commandsFromElsewhere(root: string, inContainer: boolean): boolean {
  return root !== '/' && !inContainer;
}

/** The one remediation for an npu-smi problem, in the catalogue's language (English unless given); `root` is --root. */
export function npuSmiRemediation(problem: NpuProblem, inContainer: boolean, set: MountSet, text: Catalogue = en, root = '/'): string {
  const t = text.probes.npu.remediation;
  const underRoot = commandsFromElsewhere(root, inContainer);
  switch (problem.kind) {
    case 'not-found':
      if (underRoot) return underRootRemediation(root, set, ['npu-smi'], text);
      return inContainer ? t.notFoundInContainer({ flag: npuSmiFlag(set) }) : t.notFoundOnHost;
    case 'timeout':
      return t.timeout;
    case 'not-run':
      // the English message is the evidence: the same in every language, so it tells the cases apart
      if (/not captured/.test(problem.message)) return t.notCaptured;
      if (/printed more than/.test(problem.message)) return t.flooded;
      return t.notExecutable;
    case 'killed':
      return t.killed({ signal: problem.signal });
    case 'failed':
      return t.failed;
    case 'dcmi':
      // the DCMI table (src/data/dcmi-errors.ts) is Huawei's reference, in English
      return inContainer ? problem.dcmi.fixInContainer : problem.dcmi.fixOnHost;
    case 'library-missing':
      if (underRoot) return t.libraryUnderRoot({ root, mount: mountForLibrary(set, problem.library) });
      return inContainer ? t.libraryInContainer({ mount: mountForLibrary(set, problem.library) }) : t.libraryOnHost({ library: problem.library });
    case 'no-npu':
      return inContainer ? t.noNpuInContainer : t.noNpuOnHost;
    case 'unparseable':
      return t.unparseable;
  }
}

/**
 * A check that needs the NPU table cannot assess the node without it: an error that points at
 * npu.smi. `what` is in the run's language: the check's catalogue entry says it.
 */
export async function inventoryUnavailable(ctx: CheckContext, problem: NpuProblem, what: string): Promise<Outcome> {
  const [container, set] = await Promise.all([ctx.container(), mountSetOf(ctx)]);
  const text = ctx.text.probes.npu;
  return error(text.inventoryUnavailable({ what, problem: npuProblemText(problem) }), {
    remediation: text.sameCause({ remediation: npuSmiRemediation(problem, container.inContainer, set, ctx.text, ctx.host.root) }),
    evidence: { problem },
    causedBy: 'npu.smi',
  });
}
