import { fail, pass } from '../src/core/outcome.js';
import { defineCheck } from '../src/core/define-check.js';
import { hccnGateway, hccnNetdetect } from '../src/probes/hccn.js';
import { askEvery, prefetchEvery, devName, hccnScope, unanswered } from '../src/probes/hccn-scope.js';
import { summarizeList } from '../src/util/text.js';

// title, why, fix, reads and every message: src/i18n/*/checks/hccn.ts
export default defineCheck({
  id: 'hccn.netdetect',
  category: 'hccn',
  order: 50,
  level: 'recommended',
  cost: { hccnTool: [{ args: '-netdetect -g' }, { args: '-gateway -g' }] },
  action: 'reconfigure',
  prefetch: prefetchEvery(() => [hccnNetdetect]),
  async run(ctx) {
    const t = ctx.text.checks['hccn.netdetect'];
    const list = ctx.text.report.list;
    const scope = await hccnScope(ctx, t.what);
    if (!scope.ok) return scope.outcome;
    const answers = await askEvery(ctx, scope.devices, hccnNetdetect);
    const failed = await unanswered(ctx, answers, t.readWhat);
    if (failed) return failed;
    const addresses = answers.map(({ device, answer }) => ({ device: device.device, address: (answer.ok && answer.value.entries[0]?.address) || null }));
    const evidence = { netdetect: addresses };
    const unset = addresses.filter((a) => a.address === null);
    if (unset.length === 0) {
      const distinct = [...new Set(addresses.map((a) => a.address))];
      return pass(t.ok({ addresses: summarizeList(distinct as string[], 3, list) }), { evidence });
    }
    const first = unset[0]!.device;
    const gateway = await hccnGateway(ctx, first);
    const suggested = (gateway.ok && gateway.value.entries[0]?.gateway) || t.gatewayPlaceholder;
    return fail(t.unset({ unset: unset.length, total: addresses.length, devices: summarizeList(unset.map((a) => devName(a.device)), 8, list) }), {
      expected: 'a netdetect address on every device',
      actual: `none on ${unset.map((a) => devName(a.device)).join(', ')}`,
      remediation: t.setFix({ device: first, address: suggested, devices: unset.map((a) => devName(a.device)).join(', ') }),
      evidence,
    });
  },
});
