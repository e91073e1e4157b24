import { error, fail, pass } from '../src/core/outcome.js';
import { defineCheck, type CheckContext } from '../src/core/types.js';
import { DRIVER_PATHS, type PathRequirement } from '../src/data/container-mounts.js';
import { describeProbeError } from '../src/host/types.js';
import { ascendInstall } from '../src/probes/ascend-versions.js';
import { originOf, mountTable } from '../src/probes/mounts.js';
import { knownFamily, mountSetOf } from '../src/probes/npu-advice.js';
import { summarizeList } from '../src/util/text.js';

interface PathProblem {
  path: string;
  problem: string;
  flag: string;
}

interface PathState {
  path: string;
  kind: string;
  origin?: string;
}

/** On a host the driver may live elsewhere than /usr/local/Ascend: follow /etc/ascend_install.info. */
function hostPath(requirement: PathRequirement, driverRoot: string): string {
  const prefix = '/usr/local/Ascend/driver';
  return requirement.path.startsWith(`${prefix}/`) ? `${driverRoot}${requirement.path.slice(prefix.length)}` : requirement.path;
}

async function inspect(ctx: CheckContext, requirement: PathRequirement, path: string): Promise<{ found?: PathState; problem?: string }> {
  const candidates = [path, ...(requirement.alternatives ?? [])];
  let firstProblem: string | undefined;
  for (const candidate of candidates) {
    const stat = await ctx.host.stat(candidate);
    if (!stat.ok) {
      firstProblem ??= stat.code === 'ENOENT' ? 'missing' : describeProbeError(candidate, stat);
      continue;
    }
    const kind = stat.value.kind;
    if (requirement.kind === 'file' && kind !== 'file') {
      // docker creates an empty directory when the host lacks the file it was asked to mount
      return { problem: kind === 'directory' ? 'a directory, not a file (the host has no such file, so docker created an empty directory)' : `a ${kind}, not a file` };
    }
    if (requirement.kind === 'directory') {
      if (kind !== 'directory') return { problem: `a ${kind}, not a directory` };
      const listing = await ctx.host.readDir(candidate);
      if (listing.ok && listing.value.length === 0) return { problem: 'an empty directory' };
    }
    return { found: { path: candidate, kind } };
  }
  return { problem: firstProblem ?? 'missing' };
}

export default defineCheck({
  id: 'npu.driver-files',
  title: 'Driver files (and their mounts in a container)',
  category: 'npu',
  level: 'required',
  why:
    'npu-smi, CANN and torch_npu load the driver\'s user-space libraries (driver/lib64, /usr/local/dcmi) and read ' +
    'driver/version.info and /etc/ascend_install.info. In a container each must be bind-mounted from the host as the ' +
    'deployment guide does: missing libraries fail with "libascend_hal.so: cannot open shared object file", and a copy baked ' +
    'into the image goes stale on the next driver upgrade, so a file that exists but is not a mount fails too. Required.',
  reads: [
    '/usr/local/Ascend/driver/lib64, /usr/local/Ascend/driver/version.info, /etc/ascend_install.info, /usr/local/dcmi, npu-smi, hccn_tool',
    '200I Pro: the libraries, configuration files and daemons of its guide',
    '/proc/self/mountinfo (in a container)',
  ],
  fix: 'Add the missing -v flags of the deployment guide to docker run; on a host, reinstall the NPU driver package.',
  async run(ctx) {
    const [set, family, container, install] = await Promise.all([mountSetOf(ctx), knownFamily(ctx), ctx.container(), ascendInstall(ctx)]);
    const requirements = DRIVER_PATHS[set].filter(
      (r) => (container.inContainer || r.onHost) && (!r.families || r.families.includes(family) || family === 'unknown'),
    );
    const mounts = container.inContainer ? await mountTable(ctx) : undefined;
    if (mounts && !mounts.ok) {
      return error(`cannot tell whether the driver files are mounted from the host: ${mounts.reason}`, {
        remediation: 'make /proc/self/mountinfo readable in the container (it is by default; check the seccomp/AppArmor profile) and re-run',
      });
    }

    const problems: PathProblem[] = [];
    const present: PathState[] = [];
    for (const requirement of requirements) {
      const path = container.inContainer ? requirement.path : hostPath(requirement, install.driverRoot);
      const { found, problem } = await inspect(ctx, requirement, path);
      if (!found) {
        problems.push({ path, problem: problem!, flag: requirement.flag });
        continue;
      }
      if (mounts?.ok) {
        const origin = originOf(mounts.mounts, found.path);
        if (origin.kind === 'image') {
          problems.push({ path: found.path, problem: `present but not mounted from the host (a copy in the image's ${origin.fsType} root)`, flag: requirement.flag });
          continue;
        }
        present.push({ ...found, origin: `${origin.mountPoint} <- ${origin.root}` });
      } else {
        present.push(found);
      }
    }

    const evidence = { mountSet: set, family, inContainer: container.inContainer, driverRoot: install.driverRoot, present, problems };
    if (problems.length > 0) {
      const described = problems.map((p) => `${p.path} ${p.problem}`);
      const flags = [...new Set(problems.map((p) => p.flag))];
      const noun = container.inContainer ? 'driver paths the guide mounts' : 'driver paths';
      return fail(`${problems.length} of ${requirements.length} ${noun} ${problems.length === 1 ? 'is' : 'are'} not usable: ${summarizeList(described, 2)}`, {
        expected: container.inContainer ? 'each mounted from the host' : 'each present',
        actual: described.join('; '),
        remediation: container.inContainer
          ? `add ${flags.join(' ')} to docker run`
          : 'reinstall the NPU driver package (Ascend-hdk-*-npu-driver_*.run --full), which creates these files',
        evidence,
      });
    }
    const where = container.inContainer ? `${present.length} driver paths mounted from the host` : `${present.length} driver paths present under ${install.driverRoot} and /usr/local`;
    return pass(`${where} (${summarizeList(present.map((p) => p.path), 3)})`, { evidence });
  },
});
