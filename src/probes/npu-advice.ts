import { error } from '../core/outcome.js';
import type { CheckContext, Outcome } from '../core/types.js';
import { DRIVER_PATHS, mountForLibrary, type MountSet } from '../data/container-mounts.js';
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

/** The one remediation for an npu-smi problem, in the catalogue's language (English unless given). */
export function npuSmiRemediation(problem: NpuProblem, inContainer: boolean, set: MountSet, text: Catalogue = en): string {
  const t = text.probes.npu.remediation;
  switch (problem.kind) {
    case 'not-found':
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
    remediation: text.sameCause({ remediation: npuSmiRemediation(problem, container.inContainer, set, ctx.text) }),
    evidence: { problem },
    causedBy: 'npu.smi',
  });
}
