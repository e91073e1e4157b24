import { pass } from '../src/core/outcome.js';
import { defineCheck } from '../src/core/types.js';
import { hccnLink } from '../src/probes/hccn.js';
import { askEvery, prefetchEvery, devName, hccnProblem, hccnScope, unanswered } from '../src/probes/hccn-scope.js';
import { summarizeList } from '../src/util/text.js';

export default defineCheck({
  id: 'hccn.link',
  title: 'NPU network ports UP',
  category: 'hccn',
  level: 'required',
  why:
    'Each A2/A3 NPU has its own RoCE port; HCCL traffic between nodes leaves through it. A port that is DOWN fails the ' +
    'launch with "EJ0002 The network port is down" (plog: "rdma init fail") once the weights are loaded. The vllm-ascend ' +
    'guides ask for "link status: UP" on every device before a multi-node launch.',
  reads: ['hccn_tool -i <device> -link -g'],
  fix: 'Reseat or replace the optical module or cable of the DOWN port, check the switch port, then hccn_tool -i N -link -g again.',
  prefetch: prefetchEvery(() => [hccnLink]),
  async run(ctx) {
    const scope = await hccnScope(ctx, 'the NPU port links');
    if (!scope.ok) return scope.outcome;
    const answers = await askEvery(ctx, scope.devices, hccnLink);
    const failed = await unanswered(ctx, answers, 'the link status');
    if (failed) return failed;
    const links = answers.map(({ device, answer }) => {
      const entry = answer.ok ? answer.value.entries.find((e) => !e.vnic) : undefined;
      return { device: device.device, status: entry?.status ?? 'no answer' };
    });
    const evidence = { links };
    const down = links.filter((l) => l.status !== 'UP');
    if (down.length === 0) return pass(`all ${links.length} NPU ports are UP`, { evidence });
    const first = down[0]!.device;
    return hccnProblem(ctx, `${down.length} of ${links.length} NPU ports not UP: ${summarizeList(down.map((d) => `${devName(d.device)} ${d.status}`), 8)}`, {
      expected: 'link status: UP on every device',
      actual: down.map((d) => `${devName(d.device)}: ${d.status}`).join(', '),
      remediation: `check the optics and cable of device ${first} (hccn_tool -i ${first} -optical -g; a growing "link down count" in hccn_tool -i ${first} -link_stat -g means a flapping link) and its switch port, then re-run`,
      evidence,
    });
  },
});
