import { fail, pass } from '../src/core/outcome.js';
import { defineCheck } from '../src/core/types.js';
import { hccnLldp } from '../src/probes/hccn.js';
import { askEvery, prefetchEvery, devName, hccnScope, unanswered } from '../src/probes/hccn-scope.js';
import { summarizeList } from '../src/util/text.js';

export default defineCheck({
  id: 'hccn.lldp',
  title: 'NPU ports see their switch (LLDP)',
  category: 'hccn',
  level: 'recommended',
  why:
    'hccn_tool -lldp -g shows the switch port each NPU port is cabled to (Ifname). An empty answer means no LLDP ' +
    'neighbour: the cable is out, or LLDP is off on the switch. It is the quickest way to find a miscabled port, but a ' +
    'switch without LLDP works fine, so this only warns.',
  reads: ['hccn_tool -i <device> -lldp -g'],
  fix: 'Check the cable of the named ports; if the switch has LLDP disabled, enable it (or waive this check in the profile).',
  prefetch: prefetchEvery(() => [hccnLldp]),
  async run(ctx) {
    const scope = await hccnScope(ctx, 'the LLDP neighbours');
    if (!scope.ok) return scope.outcome;
    const answers = await askEvery(ctx, scope.devices, hccnLldp);
    const failed = await unanswered(ctx, answers, 'the LLDP neighbour');
    if (failed) return failed;
    const ports = answers.map(({ device, answer }) => ({
      device: device.device,
      switchPort: answer.ok ? (answer.value.neighbours.find((n) => n.ifname)?.ifname ?? null) : null,
    }));
    const evidence = { ports };
    const none = ports.filter((p) => p.switchPort === null);
    if (none.length === 0) return pass(`every NPU port sees a switch port (${summarizeList(ports.map((p) => `${devName(p.device)} ${p.switchPort}`), 3)})`, { evidence });
    return fail(`${none.length} of ${ports.length} NPU ports see no switch by LLDP: ${summarizeList(none.map((p) => devName(p.device)), 8)}`, {
      expected: 'an Ifname (switch port) for every device',
      actual: `none for ${none.map((p) => devName(p.device)).join(', ')}`,
      remediation: `check the cable of device ${none[0]!.device} and that LLDP is enabled on its switch port, then: hccn_tool -i ${none[0]!.device} -lldp -g | grep Ifname`,
      evidence,
    });
  },
});
