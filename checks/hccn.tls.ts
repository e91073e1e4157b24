import { pass, warn } from '../src/core/outcome.js';
import { defineCheck } from '../src/core/define-check.js';
import { en } from '../src/i18n/en/index.js';
import { hccnTls } from '../src/probes/hccn.js';
import { askEvery, prefetchEvery, hccnProblem, hccnScope, unanswered } from '../src/probes/hccn-scope.js';
import { formatRanges, summarizeList } from '../src/util/text.js';

/** "dev0-3,6 TLS 0; dev4-5,7 TLS 1" */
function bySwitch(entries: ReadonlyArray<{ device: number; tls: number }>): string {
  const values = [...new Set(entries.map((e) => e.tls))].sort();
  return values.map((value) => `dev${formatRanges(entries.filter((e) => e.tls === value).map((e) => e.device))} TLS ${value}`).join('; ');
}

function disableAll(devices: readonly number[]): string {
  return `for i in ${devices.join(' ')}; do hccn_tool -i $i -tls -s enable 0; done`;
}

// title, why, fix, reads and every message: src/i18n/*/checks/hccn.ts
export default defineCheck({
  id: 'hccn.tls',
  category: 'hccn',
  order: 80,
  level: 'required',
  cost: { hccnTool: [{ args: '-tls -g' }] },
  action: 'reconfigure',
  prefetch: prefetchEvery(() => [hccnTls]),
  async run(ctx) {
    const t = ctx.text.checks['hccn.tls'];
    const scope = await hccnScope(ctx, t.what);
    if (!scope.ok) return scope.outcome;
    const answers = await askEvery(ctx, scope.devices, hccnTls);
    const failed = await unanswered(ctx, answers, t.readWhat);
    if (failed) return failed;
    const local = answers.flatMap(({ device, answer }) => {
      const entry = answer.ok ? (answer.value.entries.find((e) => e.device === device.device) ?? answer.value.entries[0]) : undefined;
      return entry ? [{ device: device.device, tls: entry.switch }] : [];
    });
    const silent = scope.devices.map((d) => d.device).filter((d) => !local.some((e) => e.device === d));
    const devices = scope.devices.map((d) => d.device);
    const values = [...new Set(local.map((e) => e.tls))];
    const evidence: Record<string, unknown> = { local };
    if (silent.length > 0) {
      return hccnProblem(ctx, t.silent({ devices: formatRanges(silent) }), {
        remediation: t.silentFix({ device: silent[0]! }),
        evidence,
      });
    }
    if (values.length > 1) {
      return hccnProblem(ctx, t.differsHere({ bySwitch: bySwitch(local) }), {
        expected: 'one TLS switch on every device (0 recommended)',
        actual: bySwitch(local),
        remediation: disableAll(devices),
        evidence,
      });
    }
    const mine = values[0]!;
    const cluster = ctx.cluster;
    if (cluster) {
      const self = cluster.self.name;
      const declared = cluster.cluster.tls;
      const peers = cluster.cluster.nodes
        .filter((n) => n.name !== self)
        .map((n) => ({ node: n.name, values: [...new Set(n.devices.map((d) => d.tls).filter((t): t is number => t !== null))] }));
      evidence.peers = peers;
      evidence.declared = declared;
      if (declared !== null && declared !== mine) {
        return hccnProblem(ctx, t.declaredDiffers({ mine, declared }), {
          expected: `TLS ${declared}`,
          actual: `TLS ${mine} on dev${formatRanges(devices)}`,
          remediation: declared === 0 ? disableAll(devices) : t.declaredFix({ declared }),
          evidence,
        });
      }
      const differing = peers.filter((p) => p.values.some((v) => v !== mine));
      if (differing.length > 0) {
        // actual is for programs: in English, whatever the run's language
        const describe = differing.map((p) => en.checks['hccn.tls'].peerHas({ node: p.node, values: p.values.join('/') }));
        const described = differing.map((p) => t.peerHas({ node: p.node, values: p.values.join('/') }));
        return hccnProblem(ctx, t.peersDiffer({ mine, peers: summarizeList(described, 4, ctx.text.report.list) }), {
          expected: `the same TLS switch on every node (0 recommended)`,
          actual: `${self}: ${mine}; ${describe.join('; ')}`,
          remediation: t.peersFix({ command: disableAll(devices), nodes: [self, ...differing.map((p) => p.node)].join(', ') }),
          evidence,
        });
      }
    }
    const compared = cluster ? cluster.cluster.nodes.filter((n) => n.name !== cluster.self.name && n.devices.some((d) => d.tls !== null)).length : 0;
    const scopeText = compared > 0 ? t.onPeers({ compared }) : cluster?.cluster.tls != null ? t.asDeclared : '';
    if (mine !== 0) {
      return warn(t.notZero({ mine, devices: devices.length, scope: scopeText }), {
        expected: 'TLS 0',
        actual: `TLS ${mine}`,
        remediation: t.notZeroFix({ command: disableAll(devices) }),
        evidence,
      });
    }
    return pass(t.ok({ devices: devices.length, scope: scopeText }), { evidence });
  },
});
