import { pass } from '../src/core/outcome.js';
import { defineCheck } from '../src/core/define-check.js';
import { hccnLink } from '../src/probes/hccn.js';
import { askEvery, prefetchEvery, devName, hccnProblem, hccnScope, unanswered } from '../src/probes/hccn-scope.js';
import { summarizeList } from '../src/util/text.js';

// title, why, fix, reads and every message: src/i18n/*/checks/hccn.ts
export default defineCheck({
  id: 'hccn.link',
  category: 'hccn',
  order: 30,
  level: 'required',
  cost: { hccnTool: [{ args: '-link -g' }] },
  action: 'reconfigure',
  prefetch: prefetchEvery(() => [hccnLink]),
  async run(ctx) {
    const t = ctx.text.checks['hccn.link'];
    const scope = await hccnScope(ctx, t.what);
    if (!scope.ok) return scope.outcome;
    const answers = await askEvery(ctx, scope.devices, hccnLink);
    const failed = await unanswered(ctx, answers, t.readWhat);
    if (failed) return failed;
    const links = answers.map(({ device, answer }) => {
      const entry = answer.ok ? answer.value.entries.find((e) => !e.vnic) : undefined;
      return { device: device.device, status: entry?.status ?? 'no answer' };
    });
    const evidence = { links };
    const down = links.filter((l) => l.status !== 'UP');
    if (down.length === 0) return pass(t.allUp({ count: links.length }), { evidence });
    const first = down[0]!.device;
    const list = summarizeList(down.map((d) => `${devName(d.device)} ${d.status}`), 8, ctx.text.report.list);
    return hccnProblem(ctx, t.notUp({ down: down.length, total: links.length, list }), {
      expected: 'link status: UP on every device',
      actual: down.map((d) => `${devName(d.device)}: ${d.status}`).join(', '),
      remediation: t.downFix({ device: first }),
      evidence,
    });
  },
});
