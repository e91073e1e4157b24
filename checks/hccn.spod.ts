import { error, pass, skip } from '../src/core/outcome.js';
import { defineCheck } from '../src/core/define-check.js';
import { devName, hccnProblem, hccnScope, spodProbe } from '../src/probes/hccn-scope.js';
import { summarizeList } from '../src/util/text.js';

// title, why, fix, reads and every message: src/i18n/*/checks/hccn.ts
export default defineCheck({
  id: 'hccn.spod',
  category: 'hccn',
  order: 90,
  level: 'required',
  cost: { npuSmiPerDie: 1 },
  action: 'reconfigure',
  async run(ctx) {
    const t = ctx.text.checks['hccn.spod'];
    const list = ctx.text.report.list;
    const scope = await hccnScope(ctx, t.what);
    if (!scope.ok) return scope.outcome;
    if (scope.family !== 'a3') return skip(t.notA3({ family: scope.family }), { remediation: t.notA3Fix });
    const spod = await spodProbe(ctx);
    if (!spod.ok) return error(t.cannotRead({ problem: spod.problem }), { remediation: t.cannotReadFix });
    const dies = spod.dies.filter((d) => scope.devices.some((s) => s.device === d.device));
    const evidence: Record<string, unknown> = {
      dies: dies.map((d) => ({ device: d.device, card: d.card, chip: d.chip, superPodId: d.entry?.superPodId ?? null, serverIndex: d.entry?.serverIndex ?? null, sdid: d.entry?.sdid ?? null, unsupported: d.unsupported, problem: d.problem })),
    };
    if (dies.length > 0 && dies.every((d) => d.unsupported)) return skip(t.unsupported({ answer: dies[0]!.unsupported! }), { remediation: t.unsupportedFix, evidence });
    const broken = dies.filter((d) => d.problem);
    if (broken.length > 0) {
      const devices = summarizeList(broken.map((d) => devName(d.device)), 6, list);
      return error(t.dieUnreadable({ broken: broken.length, total: dies.length, devices, problem: broken[0]!.problem! }), {
        remediation: t.dieUnreadableFix({ card: broken[0]!.card, chip: broken[0]!.chip }),
        evidence,
      });
    }
    const known = dies.filter((d) => d.entry);
    const ids = [...new Set(known.map((d) => d.entry!.superPodId))];
    const servers = [...new Set(known.map((d) => d.entry!.serverIndex))];
    const group = (key: 'superPodId' | 'serverIndex') =>
      [...new Set(known.map((d) => d.entry![key]))].map((value) => `${known.filter((d) => d.entry![key] === value).map((d) => devName(d.device)).join(',')}: ${value ?? '?'}`).join('; ');
    const problems: string[] = [];
    if (ids.length > 1) problems.push(t.differentIds({ groups: group('superPodId') }));
    if (servers.length > 1) problems.push(t.differentServers({ groups: group('serverIndex') }));
    if (problems.length > 0) {
      return hccnProblem(ctx, problems.length === 2 ? t.both({ first: problems[0]!, second: problems[1]! }) : problems[0]!, {
        expected: 'one Super Pod ID and one Server Index on every die',
        actual: `Super Pod ID ${ids.join('/')}, Server Index ${servers.join('/')}`,
        remediation: t.inconsistentFix,
        evidence,
      });
    }
    const physical = ids[0] ?? null;
    const logicalText = ctx.host.env().HCCL_LOGIC_SUPERPOD_ID;
    const logical = logicalText !== undefined && /^\d{1,9}$/.test(logicalText.trim()) ? Number(logicalText.trim()) : null;
    const effective = logical ?? physical;
    evidence.superPodId = physical;
    evidence.logicalSuperPodId = logical;
    const idText = t.identity({ physical, logical, server: servers[0] });

    const cluster = ctx.cluster;
    if (!cluster) return pass(t.ok({ dies: known.length, identity: idText, asClusterFile: false, plan: null }), { evidence });
    const self = cluster.self;
    if (self.superPod !== null && effective !== null && self.superPod !== effective) {
      const mates = cluster.cluster.nodes.filter((n) => n.name !== self.name && n.superPod === self.superPod).map((n) => n.name);
      const matesText = mates.length ? summarizeList(mates, 4, list) : null;
      return hccnProblem(ctx, t.wrongPod({ identity: idText, node: self.name, pod: self.superPod, mates: matesText }), {
        expected: `Super Pod ID ${self.superPod}`,
        actual: `Super Pod ID ${effective}`,
        remediation: t.wrongPodFix({ node: self.name, effective, pod: self.superPod }),
        evidence,
      });
    }
    const mine = self.superPod ?? effective;
    const peers = cluster.cluster.nodes.filter((n) => n.name !== self.name);
    const hccs = peers.filter((n) => n.superPod !== null && n.superPod === mine).map((n) => n.name);
    const roce = peers.filter((n) => !hccs.includes(n.name)).map((n) => n.name);
    evidence.hccsPeers = hccs;
    evidence.rocePeers = roce;
    const plan = [hccs.length ? t.hccsTo({ nodes: summarizeList(hccs, 4, list) }) : '', roce.length ? t.roceTo({ nodes: summarizeList(roce, 4, list) }) : ''].filter(Boolean).join(list.separator);
    return pass(t.ok({ dies: known.length, identity: idText, asClusterFile: self.superPod !== null, plan: plan || null }), { evidence });
  },
});
