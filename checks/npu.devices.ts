import { error, fail, pass } from '../src/core/outcome.js';
import { defineCheck } from '../src/core/define-check.js';
import { CONTROL_DEVICES, npuDeviceFlag } from '../src/data/container-mounts.js';
import { describeProbeError } from '../src/host/types.js';
import { mountSetOf } from '../src/probes/npu-advice.js';
import { npuInventory } from '../src/probes/npu.js';
import { formatRanges, summarizeList } from '../src/util/text.js';
import { en as english } from '../src/i18n/en/index.js';

/** the evidence's words: English in every language */
const en = english.checks['npu.devices'];

interface NodeProblem {
  path: string;
  /** English: the evidence */
  problem: string;
  /** what a person reads, in the run's language */
  text: string;
  flag: string;
}

// title, why, fix and every message: src/i18n/*/checks/npu.ts
export default defineCheck({
  id: 'npu.devices',
  category: 'npu',
  order: 20,
  level: 'required',
  depth: 'quick',
  action: 'reconfigure',
  async run(ctx) {
    const t = ctx.text.checks['npu.devices'];
    const [set, container, inventory, listing] = await Promise.all([mountSetOf(ctx), ctx.container(), npuInventory(ctx), ctx.host.readDir('/dev')]);
    if (!listing.ok) return error(t.cannotList({ problem: describeProbeError('/dev', listing, ctx.text.probes.file) }), { remediation: t.mountDev });

    const npuNodes = listing.value
      .map((entry) => /^davinci(\d{1,3})$/.exec(entry.name)?.[1])
      .filter((id): id is string => id !== undefined)
      .map(Number)
      .sort((a, b) => a - b);
    const problems: NodeProblem[] = [];
    const isCharDevice = async (path: string, flag: string): Promise<boolean> => {
      const stat = await ctx.host.stat(path);
      if (!stat.ok) {
        const problem = stat.code === 'ENOENT' ? en.missing : describeProbeError(path, stat);
        problems.push({ path, problem, text: stat.code === 'ENOENT' ? t.missing : describeProbeError(path, stat, ctx.text.probes.file), flag });
        return false;
      }
      if (stat.value.kind !== 'char-device') {
        problems.push({ path, problem: en.notCharDevice({ kind: stat.value.kind }), text: t.notCharDevice({ kind: stat.value.kind }), flag });
        return false;
      }
      return true;
    };

    for (const device of CONTROL_DEVICES[set]) await isCharDevice(device.path, device.flag);
    const usable: number[] = [];
    for (const id of npuNodes) if (await isCharDevice(`/dev/davinci${id}`, npuDeviceFlag(set, id))) usable.push(id);

    // npu-smi's devices must each have their node; the profile's count must be met
    const known = inventory.ok ? inventory.devices.map((d) => d.device) : [];
    for (const id of known) {
      if (!npuNodes.includes(id)) problems.push({ path: `/dev/davinci${id}`, problem: en.missingListed, text: t.missingListed, flag: npuDeviceFlag(set, id) });
    }
    const minCount = ctx.profile.npu.minCount;
    // nodes that exist with the wrong kind, and devices npu-smi lists, are reported already
    const knownMissing = known.filter((id) => !npuNodes.includes(id)).length;
    const short = Math.max(0, Math.max(minCount, 1) - npuNodes.length - knownMissing);
    if (short > 0) {
      const candidates: number[] = [];
      for (let id = 0; candidates.length < short && id < 64; id++) {
        if (!npuNodes.includes(id) && !known.includes(id)) candidates.push(id);
      }
      for (const id of candidates) {
        const [problem, text] = minCount > 0 ? [en.missingForProfile({ minCount }), t.missingForProfile({ minCount })] : [en.missingAll, t.missingAll];
        problems.push({ path: `/dev/davinci${id}`, problem, text, flag: npuDeviceFlag(set, id) });
      }
    }

    const evidence = {
      mountSet: set,
      npuNodes: usable,
      controlDevices: CONTROL_DEVICES[set].map((d) => d.path),
      problems: problems.map(({ path, problem, flag }) => ({ path, problem, flag })),
      inContainer: container.inContainer,
    };
    if (problems.length > 0) {
      const described = problems.map((p) => t.node({ path: p.path, problem: p.text }));
      const flags = [...new Set(problems.map((p) => p.flag))];
      return fail(t.notUsable({ count: problems.length, nodes: summarizeList(described, 3, ctx.text.report.list) }), {
        expected: `character devices: ${CONTROL_DEVICES[set].map((d) => d.path).join(', ')} and /dev/davinciN for each NPU`,
        actual: problems.map((p) => `${p.path} ${p.problem}`).join('; '),
        remediation: container.inContainer ? t.startWith({ flags: flags.join(' ') }) : t.reloadDriver,
        evidence,
      });
    }
    const controls = CONTROL_DEVICES[set].map((d) => d.path.replace('/dev/', '')).join(', ');
    return pass(t.usable({ count: usable.length, ranges: formatRanges(usable), controls }), { evidence });
  },
});
