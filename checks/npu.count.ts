import { fail, pass } from '../src/core/outcome.js';
import { defineCheck } from '../src/core/types.js';
import { inventoryUnavailable } from '../src/probes/npu-advice.js';
import { npuInventory, visibleDevices } from '../src/probes/npu.js';
import { formatRanges, plural } from '../src/util/text.js';

export default defineCheck({
  id: 'npu.count',
  title: 'NPU count and family match the deployment',
  category: 'npu',
  level: 'required',
  why:
    'A tensor-parallel size of 16 needs 16 visible dies (one Atlas 800 A3, or two A2 nodes of 8), and a card or die ' +
    'missing after a fault, or a container started with fewer --device flags, fails the launch after the weights load. ' +
    'ASCEND_RT_VISIBLE_DEVICES counts the devices the process sees from 0 (a container renumbers them), so an id beyond ' +
    'that count fails with "set ASCEND_RT_VISIBLE_DEVICES:4 error, input data rang[0-2)". Required.',
  reads: ['npu-smi info', 'ASCEND_RT_VISIBLE_DEVICES', 'profile npu.minCount, npu.family, npu.visibleDevices'],
  fix: 'Pass every NPU the deployment needs to the container (--device), repair a missing card, or correct the profile or ASCEND_RT_VISIBLE_DEVICES.',
  async run(ctx) {
    const inventory = await npuInventory(ctx);
    if (!inventory.ok) return inventoryUnavailable(ctx, inventory.problem, 'the NPU count');
    const { devices, family } = inventory;
    const { minCount, family: wantedFamily } = ctx.profile.npu;
    const visible = visibleDevices(ctx);
    const cards = new Set(devices.map((d) => d.card)).size;
    const shape = cards !== devices.length ? ` (${plural(cards, 'card')} × ${plural(Math.round(devices.length / Math.max(cards, 1)), 'chip')})` : '';
    const evidence = { devices: devices.length, cards, family, minCount, wantedFamily, visible };

    if (wantedFamily !== 'any' && family !== wantedFamily) {
      return fail(`this is a ${family} host (${inventory.layout} table layout), the profile is for ${wantedFamily}`, {
        expected: `family ${wantedFamily}`,
        actual: `family ${family}`,
        remediation: 'use the profile of this hardware (--profile NAME; the README lists the built-in profiles), or move the workload to a matching node',
        evidence,
      });
    }
    if (devices.length < Math.max(minCount, 1)) {
      return fail(`${plural(devices.length, 'NPU device')} visible, the profile needs at least ${minCount}`, {
        expected: `>= ${minCount} devices`,
        actual: `${devices.length}: ${formatRanges(devices.map((d) => d.device))}`,
        remediation: `in a container pass all of them (--device /dev/davinci0 ... /dev/davinci${minCount - 1}); on a host check "npu-smi info -l" and "lspci | grep -i d80" for a missing card`,
        evidence,
      });
    }
    if (visible.invalid) {
      return fail(`${visible.source} is invalid: ${visible.invalid}`, {
        remediation: 'write the ids as ASCEND_RT_VISIBLE_DEVICES=0,1,2,3 or a range 0-7',
        evidence,
      });
    }
    if (visible.ids) {
      const beyond = visible.ids.filter((id) => id >= devices.length);
      if (beyond.length > 0) {
        return fail(`${visible.source}=${visible.text} names device${beyond.length === 1 ? '' : 's'} ${formatRanges(beyond)}, but only ${devices.length} are visible here (ids 0-${devices.length - 1})`, {
          expected: `ids in 0-${devices.length - 1}`,
          actual: visible.text,
          remediation: `number the devices from 0 as this ${devices.length}-device view sees them (inside a container the runtime renumbers the mapped devices), or map more devices with --device`,
          evidence,
        });
      }
      if (visible.ids.length < minCount) {
        return fail(`${visible.source}=${visible.text} selects ${plural(visible.ids.length, 'device')}, the profile needs ${minCount}`, {
          expected: `>= ${minCount} selected`,
          actual: String(visible.ids.length),
          remediation: `select ${minCount} devices, e.g. ASCEND_RT_VISIBLE_DEVICES=0-${minCount - 1}`,
          evidence,
        });
      }
    }
    const selection = visible.ids ? `, ${visible.ids.length} selected by ${visible.source}` : '';
    const expectation = minCount > 0 ? ` (profile: at least ${minCount}${wantedFamily !== 'any' ? `, ${wantedFamily}` : ''})` : '';
    return pass(`${plural(devices.length, 'NPU device')}${shape}, family ${family}${selection}${expectation}`, { evidence });
  },
});
