import { error, fail, pass } from '../src/core/outcome.js';
import { defineCheck } from '../src/core/types.js';
import { CONTROL_DEVICES, npuDeviceFlag } from '../src/data/container-mounts.js';
import { describeProbeError } from '../src/host/types.js';
import { mountSetOf } from '../src/probes/npu-advice.js';
import { npuInventory } from '../src/probes/npu.js';
import { formatRanges, summarizeList } from '../src/util/text.js';

interface NodeProblem {
  path: string;
  problem: string;
  flag: string;
}

export default defineCheck({
  id: 'npu.devices',
  title: 'NPU device nodes',
  category: 'npu',
  level: 'required',
  why:
    'The runtime opens /dev/davinciN for each NPU and the control devices (/dev/davinci_manager, /dev/devmm_svm, ' +
    '/dev/hisi_hdc; on the 200I Pro /dev/ascend_manager and /dev/user_config instead). In a container each one must be ' +
    'passed with --device, and a plain file created at that path (a mistyped -v) is not a device. A missing node is ' +
    'found late, as "rtGetDeviceCount ... no valid device" or "open device 0 failed": required.',
  reads: ['/dev (listing)', '/dev/davinci*, /dev/davinci_manager, /dev/devmm_svm, /dev/hisi_hdc, /dev/ascend_manager, /dev/user_config (stat)', 'npu-smi info'],
  fix: 'In a container add the missing --device flags; on a host reload the NPU driver (the driver creates the nodes).',
  async run(ctx) {
    const [set, container, inventory, listing] = await Promise.all([mountSetOf(ctx), ctx.container(), npuInventory(ctx), ctx.host.readDir('/dev')]);
    if (!listing.ok) return error(`cannot list the device nodes: ${describeProbeError('/dev', listing)}`, { remediation: 'mount /dev (or run qprep where /dev is readable) and re-run' });

    const npuNodes = listing.value
      .map((entry) => /^davinci(\d{1,3})$/.exec(entry.name)?.[1])
      .filter((id): id is string => id !== undefined)
      .map(Number)
      .sort((a, b) => a - b);
    const problems: NodeProblem[] = [];
    const isCharDevice = async (path: string, flag: string): Promise<boolean> => {
      const stat = await ctx.host.stat(path);
      if (!stat.ok) {
        problems.push({ path, problem: stat.code === 'ENOENT' ? 'missing' : describeProbeError(path, stat), flag });
        return false;
      }
      if (stat.value.kind !== 'char-device') {
        problems.push({ path, problem: `a ${stat.value.kind}, not a character device`, flag });
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
      if (!npuNodes.includes(id)) problems.push({ path: `/dev/davinci${id}`, problem: 'missing (npu-smi lists this device)', flag: npuDeviceFlag(set, id) });
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
      for (const id of candidates) problems.push({ path: `/dev/davinci${id}`, problem: minCount > 0 ? `missing (the profile needs ${minCount} NPUs)` : 'missing (no NPU device node at all)', flag: npuDeviceFlag(set, id) });
    }

    const evidence = {
      mountSet: set,
      npuNodes: usable,
      controlDevices: CONTROL_DEVICES[set].map((d) => d.path),
      problems,
      inContainer: container.inContainer,
    };
    if (problems.length > 0) {
      const described = problems.map((p) => `${p.path} ${p.problem}`);
      const flags = [...new Set(problems.map((p) => p.flag))];
      return fail(`${problems.length === 1 ? '1 device node is' : `${problems.length} device nodes are`} not usable: ${summarizeList(described, 3)}`, {
        expected: `character devices: ${CONTROL_DEVICES[set].map((d) => d.path).join(', ')} and /dev/davinciN for each NPU`,
        actual: described.join('; '),
        remediation: container.inContainer
          ? `start the container with ${flags.join(' ')}`
          : 'the driver did not create them: check that the NPUs are visible (lspci | grep -i d80) and reload or reinstall the NPU driver',
        evidence,
      });
    }
    const controls = CONTROL_DEVICES[set].map((d) => d.path.replace('/dev/', '')).join(', ');
    return pass(`${usable.length} NPU device node${usable.length === 1 ? '' : 's'} (/dev/davinci${formatRanges(usable)}) and ${controls} are character devices`, { evidence });
  },
});
