import { fail, pass } from '../src/core/outcome.js';
import { defineCheck } from '../src/core/types.js';
import { hccnGateway, hccnNetdetect } from '../src/probes/hccn.js';
import { askEvery, prefetchEvery, devName, hccnScope, unanswered } from '../src/probes/hccn-scope.js';
import { summarizeList } from '../src/util/text.js';

export default defineCheck({
  id: 'hccn.netdetect',
  title: 'NPU netdetect address',
  category: 'hccn',
  level: 'recommended',
  why:
    'The driver checks each NPU port\'s health by probing its netdetect address; without one, hccn_tool -net_health -g ' +
    'stays at Init and a broken RoCE path goes unnoticed until HCCL times out. The vllm-ascend guides list it among the ' +
    'per-node checks. HCCL does not need it to run, hence recommended.',
  reads: ['hccn_tool -i <device> -netdetect -g', 'hccn_tool -i <device> -gateway -g'],
  fix: 'Set an address every port can reach, usually its gateway: hccn_tool -i N -netdetect -s address <gateway> (persisted in /etc/hccn.conf as netdetect_N).',
  prefetch: prefetchEvery(() => [hccnNetdetect]),
  async run(ctx) {
    const scope = await hccnScope(ctx, 'the netdetect addresses');
    if (!scope.ok) return scope.outcome;
    const answers = await askEvery(ctx, scope.devices, hccnNetdetect);
    const failed = await unanswered(ctx, answers, 'the netdetect address');
    if (failed) return failed;
    const addresses = answers.map(({ device, answer }) => ({ device: device.device, address: (answer.ok && answer.value.entries[0]?.address) || null }));
    const evidence = { netdetect: addresses };
    const unset = addresses.filter((a) => a.address === null);
    if (unset.length === 0) {
      const distinct = [...new Set(addresses.map((a) => a.address))];
      return pass(`every device has a netdetect address (${summarizeList(distinct as string[], 3)})`, { evidence });
    }
    const first = unset[0]!.device;
    const gateway = await hccnGateway(ctx, first);
    const suggested = (gateway.ok && gateway.value.entries[0]?.gateway) || '<gateway of the device>';
    return fail(`${unset.length} of ${addresses.length} devices have no netdetect address (their net health stays Init): ${summarizeList(unset.map((a) => devName(a.device)), 8)}`, {
      expected: 'a netdetect address on every device',
      actual: `none on ${unset.map((a) => devName(a.device)).join(', ')}`,
      remediation: `hccn_tool -i ${first} -netdetect -s address ${suggested}   (and likewise for ${unset.map((a) => devName(a.device)).join(', ')})`,
      evidence,
    });
  },
});
