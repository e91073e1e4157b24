import { error, fail, pass } from '../src/core/outcome.js';
import type { CheckContext } from '../src/core/types.js';
import { defineCheck } from '../src/core/define-check.js';
import { DRIVER_PATHS, type PathRequirement } from '../src/data/container-mounts.js';
import { describeProbeError } from '../src/host/types.js';
import { ascendInstall } from '../src/probes/ascend-versions.js';
import { originOf, mountTable } from '../src/probes/mounts.js';
import { knownFamily, mountSetOf } from '../src/probes/npu-advice.js';
import { summarizeList } from '../src/util/text.js';
import { en } from '../src/i18n/en/index.js';

interface PathProblem {
  path: string;
  /** English: the evidence */
  problem: string;
  /** what a person reads, in the run's language */
  text: string;
  flag: string;
}

/** A problem in the evidence's English and in the run's language. */
interface Worded {
  problem: string;
  text: string;
}

const english = en.checks['npu.driver-files'];

function worded(ctx: CheckContext, word: (t: typeof english) => string): Worded {
  return { problem: word(english), text: word(ctx.text.checks['npu.driver-files']) };
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

async function inspect(ctx: CheckContext, requirement: PathRequirement, path: string): Promise<{ found?: PathState; problem?: Worded }> {
  const candidates = [path, ...(requirement.alternatives ?? [])];
  let firstProblem: Worded | undefined;
  for (const candidate of candidates) {
    const stat = await ctx.host.stat(candidate);
    if (!stat.ok) {
      firstProblem ??=
        stat.code === 'ENOENT'
          ? worded(ctx, (t) => t.missing)
          : { problem: describeProbeError(candidate, stat), text: describeProbeError(candidate, stat, ctx.text.probes.file) };
      continue;
    }
    const kind = stat.value.kind;
    if (requirement.kind === 'file' && kind !== 'file') {
      // docker creates an empty directory when the host lacks the file it was asked to mount
      return { problem: worded(ctx, (t) => (kind === 'directory' ? t.dockerMadeDirectory : t.notFile({ kind }))) };
    }
    if (requirement.kind === 'directory') {
      if (kind !== 'directory') return { problem: worded(ctx, (t) => t.notDirectory({ kind })) };
      const listing = await ctx.host.readDir(candidate);
      if (listing.ok && listing.value.length === 0) return { problem: worded(ctx, (t) => t.emptyDirectory) };
    }
    return { found: { path: candidate, kind } };
  }
  return { problem: firstProblem ?? worded(ctx, (t) => t.missing) };
}

// title, why, fix, reads and every message: src/i18n/*/checks/npu.ts
export default defineCheck({
  id: 'npu.driver-files',
  category: 'npu',
  order: 30,
  level: 'required',
  depth: 'quick',
  action: 'reconfigure',
  async run(ctx) {
    const t = ctx.text.checks['npu.driver-files'];
    const [set, family, container, install] = await Promise.all([mountSetOf(ctx), knownFamily(ctx), ctx.container(), ascendInstall(ctx)]);
    const requirements = DRIVER_PATHS[set].filter(
      (r) => (container.inContainer || r.onHost) && (!r.families || r.families.includes(family) || family === 'unknown'),
    );
    const mounts = container.inContainer ? await mountTable(ctx) : undefined;
    if (mounts && !mounts.ok) {
      return error(t.cannotTellMounts({ reason: mounts.reason }), {
        remediation: t.readMountinfo,
      });
    }

    const problems: PathProblem[] = [];
    const present: PathState[] = [];
    for (const requirement of requirements) {
      const path = container.inContainer ? requirement.path : hostPath(requirement, install.driverRoot);
      const { found, problem } = await inspect(ctx, requirement, path);
      if (!found) {
        problems.push({ path, ...problem!, flag: requirement.flag });
        continue;
      }
      if (mounts?.ok) {
        const origin = originOf(mounts.mounts, found.path);
        if (origin.kind === 'image') {
          problems.push({ path: found.path, ...worded(ctx, (w) => w.copyInImage({ fsType: origin.fsType })), flag: requirement.flag });
          continue;
        }
        present.push({ ...found, origin: `${origin.mountPoint} <- ${origin.root}` });
      } else {
        present.push(found);
      }
    }

    const evidence = {
      mountSet: set,
      family,
      inContainer: container.inContainer,
      driverRoot: install.driverRoot,
      present,
      problems: problems.map(({ path, problem, flag }) => ({ path, problem, flag })),
    };
    const list = ctx.text.report.list;
    if (problems.length > 0) {
      const described = problems.map((p) => t.path({ path: p.path, problem: p.text }));
      const flags = [...new Set(problems.map((p) => p.flag))];
      return fail(t.notUsable({ count: problems.length, total: requirements.length, inContainer: container.inContainer, paths: summarizeList(described, 2, list) }), {
        expected: container.inContainer ? 'each mounted from the host' : 'each present',
        actual: problems.map((p) => `${p.path} ${p.problem}`).join('; '),
        remediation: container.inContainer ? t.addFlags({ flags: flags.join(' ') }) : t.reinstall,
        evidence,
      });
    }
    const paths = summarizeList(present.map((p) => p.path), 3, list);
    return pass(container.inContainer ? t.mounted({ count: present.length, paths }) : t.present({ count: present.length, root: install.driverRoot, paths }), { evidence });
  },
});
