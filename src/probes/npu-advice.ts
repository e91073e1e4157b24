import { error } from '../core/outcome.js';
import type { CheckContext, Outcome } from '../core/types.js';
import { DRIVER_PATHS, mountForLibrary, type MountSet } from '../data/container-mounts.js';
import type { NpuFamily } from '../parsers/npu-smi-info.js';
import { npuInventory, type NpuProblem } from './npu.js';

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

/** The one remediation for an npu-smi problem. */
export function npuSmiRemediation(problem: NpuProblem, inContainer: boolean, set: MountSet): string {
  switch (problem.kind) {
    case 'not-found':
      return inContainer
        ? `add ${npuSmiFlag(set)} to docker run (some hosts have it in /usr/local/sbin: mount that path instead)`
        : 'install the NPU driver package (npu-smi comes with it), or add its directory to PATH';
    case 'timeout':
      return 'the driver may be wedged: look for stuck npu-smi processes (ps -ef | grep npu-smi) and davinci errors in dmesg; reset the NPU or reboot the node if it persists (or re-run with a larger --timeout)';
    case 'not-run':
      if (/not captured/.test(problem.message)) return 'record the snapshot again with "qprep snapshot -o FILE" on the host';
      if (/printed more than/.test(problem.message)) {
        return 'npu-smi printed far more than its table: run "npu-smi info | head -50" by hand, and repair or reinstall the driver if that is garbage';
      }
      return 'make npu-smi executable for this user, or run qprep as root';
    case 'killed':
      return `npu-smi crashed (${problem.signal}): run "npu-smi info" by hand, look for davinci or dcmi errors in dmesg, and reinstall the driver if it keeps crashing`;
    case 'failed':
      return 'run the command by hand and read its output; reinstall the driver if npu-smi itself is broken';
    case 'dcmi':
      return inContainer ? problem.dcmi.fixInContainer : problem.dcmi.fixOnHost;
    case 'library-missing':
      return inContainer
        ? `add ${mountForLibrary(set, problem.library)} to docker run`
        : `reinstall the NPU driver package (${problem.library} belongs to it), then run ldconfig`;
    case 'no-npu':
      return inContainer
        ? 'pass the NPUs to the container (--device /dev/davinciN for each, and the control devices)'
        : 'the driver sees no NPU: check "lspci | grep -i d80" and dmesg, then reinstall the driver and firmware';
    case 'unparseable':
      return 'report it with the output attached ("qprep snapshot -o FILE --only npu" records it)';
  }
}

/**
 * A check that needs the NPU table cannot assess the node without it: an error that points at
 * npu.smi. `what` is in the run's language: the check's catalogue entry says it.
 */
export async function inventoryUnavailable(ctx: CheckContext, problem: NpuProblem, what: string): Promise<Outcome> {
  const [container, set] = await Promise.all([ctx.container(), mountSetOf(ctx)]);
  const text = ctx.text.probes.npu;
  return error(text.inventoryUnavailable({ what, problem: problem.message }), {
    remediation: text.sameCause({ remediation: npuSmiRemediation(problem, container.inContainer, set) }),
    evidence: { problem },
    causedBy: 'npu.smi',
  });
}
