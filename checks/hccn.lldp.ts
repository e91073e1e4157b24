import { fail, pass } from '../src/core/outcome.js';
import { defineCheck } from '../src/core/define-check.js';
import { hccnLldp } from '../src/probes/hccn.js';
import { askEvery, prefetchEvery, devName, hccnScope, unanswered } from '../src/probes/hccn-scope.js';
import { summarizeList } from '../src/util/text.js';

// title, why, fix, reads and every message: src/i18n/*/checks/hccn.ts
export default defineCheck({
  id: 'hccn.lldp',
  category: 'hccn',
  order: 70,
  level: 'recommended',
  cost: { hccnTool: [{ args: '-lldp -g' }] },
  action: 'reconfigure',
  prefetch: prefetchEvery(() => [hccnLldp]),
  async run(ctx) {
    const t = ctx.text.checks['hccn.lldp'];
    const list = ctx.text.report.list;
    const scope = await hccnScope(ctx, t.what);
    if (!scope.ok) return scope.outcome;
    const answers = await askEvery(ctx, scope.devices, hccnLldp);
    const failed = await unanswered(ctx, answers, t.readWhat);
    if (failed) return failed;
    const ports = answers.map(({ device, answer }) => ({
      device: device.device,
      switchPort: answer.ok ? (answer.value.neighbours.find((n) => n.ifname)?.ifname ?? null) : null,
    }));
    const evidence = { ports };
    const none = ports.filter((p) => p.switchPort === null);
    if (none.length === 0) return pass(t.ok({ ports: summarizeList(ports.map((p) => `${devName(p.device)} ${p.switchPort}`), 3, list) }), { evidence });
    return fail(t.none({ none: none.length, total: ports.length, devices: summarizeList(none.map((p) => devName(p.device)), 8, list) }), {
      expected: 'an Ifname (switch port) for every device',
      actual: `none for ${none.map((p) => devName(p.device)).join(', ')}`,
      remediation: t.noneFix({ device: none[0]!.device }),
      evidence,
    });
  },
});
