import { pass, warn } from '../src/core/outcome.js';
import { defineCheck } from '../src/core/define-check.js';
import { hccnNetHealth } from '../src/probes/hccn.js';
import { askEvery, prefetchEvery, devName, hccnProblem, hccnScope, unanswered } from '../src/probes/hccn-scope.js';
import { summarizeList } from '../src/util/text.js';

// title, why, fix, reads and every message: src/i18n/*/checks/hccn.ts
export default defineCheck({
  id: 'hccn.net-health',
  category: 'hccn',
  order: 40,
  level: 'required',
  cost: { hccnTool: [{ args: '-net_health -g' }] },
  action: 'reconfigure',
  prefetch: prefetchEvery(() => [hccnNetHealth]),
  async run(ctx) {
    const t = ctx.text.checks['hccn.net-health'];
    const list = ctx.text.report.list;
    const scope = await hccnScope(ctx, t.what);
    if (!scope.ok) return scope.outcome;
    const answers = await askEvery(ctx, scope.devices, hccnNetHealth);
    const failed = await unanswered(ctx, answers, t.readWhat);
    if (failed) return failed;
    const states = answers.map(({ device, answer }) => {
      const entry = answer.ok ? answer.value.entries[0] : undefined;
      return { device: device.device, state: entry?.state ?? 'other', text: entry?.text ?? 'no answer' };
    });
    const evidence = { states };
    const bad = states.filter((s) => s.state !== 'success' && s.state !== 'init');
    const init = states.filter((s) => s.state === 'init');
    if (bad.length > 0) {
      const first = bad[0]!.device;
      return hccnProblem(ctx, t.unhealthy({ bad: bad.length, total: states.length, list: summarizeList(bad.map((s) => `${devName(s.device)} ${s.text}`), 8, list) }), {
        expected: 'net health status: Success',
        actual: bad.map((s) => `${devName(s.device)}: ${s.text}`).join(', '),
        remediation: t.unhealthyFix({ device: first }),
        evidence,
      });
    }
    if (init.length > 0) {
      const first = init[0]!.device;
      return warn(t.init({ init: init.length, total: states.length, devices: summarizeList(init.map((s) => devName(s.device)), 8, list) }), {
        expected: 'net health status: Success',
        actual: init.map((s) => `${devName(s.device)}: ${s.text}`).join(', '),
        remediation: t.initFix({ device: first }),
        evidence,
      });
    }
    return pass(t.ok({ count: states.length }), { evidence });
  },
});
