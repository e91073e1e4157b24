import { error, pass, skip } from '../src/core/outcome.js';
import { defineCheck } from '../src/core/types.js';
import { devName, hccnProblem, hccnScope, spodProbe } from '../src/probes/hccn-scope.js';
import { summarizeList } from '../src/util/text.js';

export default defineCheck({
  id: 'hccn.spod',
  title: 'A3 super pod identity',
  category: 'hccn',
  level: 'required',
  why:
    'A3 nodes in one super pod link their NPUs over HCCS; nodes in different super pods fall back to RoCE. HCCL groups ' +
    'nodes by the Super Pod ID of npu-smi info -t spod-info (or HCCL_LOGIC_SUPERPOD_ID): nodes meant to share HCCS must ' +
    'report the same id, and every die of one server the same id and Server Index (a wrong Server Index after a board ' +
    'replacement breaks super pod runs). The cluster file says which nodes are meant to share a pod (superPod:).',
  reads: ['npu-smi info -t spod-info -i <card> -c <chip> (card = npu-smi NPU id)', 'HCCL_LOGIC_SUPERPOD_ID', 'the cluster file (superPod)'],
  fix: 'Correct superPod in the cluster file, or run the nodes of different super pods over RoCE (HCCL_INTER_HCCS_DISABLE=TRUE) or group them with HCCL_LOGIC_SUPERPOD_ID; a die with a different id or Server Index needs the vendor\'s super pod configuration fixed.',
  async run(ctx) {
    const scope = await hccnScope(ctx, 'the super pod identity');
    if (!scope.ok) return scope.outcome;
    if (scope.family !== 'a3') return skip(`super pods are an A3 feature; this node is ${scope.family}: its nodes link over RoCE`, { remediation: 'nothing to do: hccn.peers checks the RoCE plane' });
    const spod = await spodProbe(ctx);
    if (!spod.ok) return error(`cannot read the super pod identity: ${spod.problem}`, { remediation: 'see npu.smi for the cause' });
    const dies = spod.dies.filter((d) => scope.devices.some((s) => s.device === d.device));
    const evidence: Record<string, unknown> = {
      dies: dies.map((d) => ({ device: d.device, card: d.card, chip: d.chip, superPodId: d.entry?.superPodId ?? null, serverIndex: d.entry?.serverIndex ?? null, sdid: d.entry?.sdid ?? null, unsupported: d.unsupported, problem: d.problem })),
    };
    if (dies.length > 0 && dies.every((d) => d.unsupported)) return skip(`npu-smi says "${dies[0]!.unsupported}": no super pod to check`, { remediation: 'nothing to do: this device type has no super pod; hccn.peers checks the RoCE plane', evidence });
    const broken = dies.filter((d) => d.problem);
    if (broken.length > 0) {
      return error(`cannot read the super pod id of ${broken.length} of ${dies.length} dies (${summarizeList(broken.map((d) => devName(d.device)), 6)}): ${broken[0]!.problem}`, {
        remediation: `run "npu-smi info -t spod-info -i ${broken[0]!.card} -c ${broken[0]!.chip}" by hand (-i is the npu-smi NPU id, -c the die)`,
        evidence,
      });
    }
    const known = dies.filter((d) => d.entry);
    const ids = [...new Set(known.map((d) => d.entry!.superPodId))];
    const servers = [...new Set(known.map((d) => d.entry!.serverIndex))];
    const group = (key: 'superPodId' | 'serverIndex') =>
      [...new Set(known.map((d) => d.entry![key]))].map((value) => `${known.filter((d) => d.entry![key] === value).map((d) => devName(d.device)).join(',')}: ${value ?? '?'}`).join('; ');
    const problems: string[] = [];
    if (ids.length > 1) problems.push(`the dies of this node report different Super Pod IDs (${group('superPodId')})`);
    if (servers.length > 1) problems.push(`the dies of this node report different Server Index values (${group('serverIndex')})`);
    if (problems.length > 0) {
      return hccnProblem(ctx, problems.join('; '), {
        expected: 'one Super Pod ID and one Server Index on every die',
        actual: `Super Pod ID ${ids.join('/')}, Server Index ${servers.join('/')}`,
        remediation: 'have the super pod configuration of this server checked (a replaced board keeps a wrong Server Index); until then run it over RoCE with HCCL_INTER_HCCS_DISABLE=TRUE',
        evidence,
      });
    }
    const physical = ids[0] ?? null;
    const logicalText = ctx.host.env().HCCL_LOGIC_SUPERPOD_ID;
    const logical = logicalText !== undefined && /^\d{1,9}$/.test(logicalText.trim()) ? Number(logicalText.trim()) : null;
    const effective = logical ?? physical;
    evidence.superPodId = physical;
    evidence.logicalSuperPodId = logical;
    const idText = `Super Pod ID ${physical ?? 'unknown'}${logical !== null ? ` (HCCL_LOGIC_SUPERPOD_ID=${logical})` : ''}, Server Index ${servers[0] ?? '?'}`;

    const cluster = ctx.cluster;
    if (!cluster) return pass(`all ${known.length} dies report ${idText}`, { evidence });
    const self = cluster.self;
    if (self.superPod !== null && effective !== null && self.superPod !== effective) {
      const mates = cluster.cluster.nodes.filter((n) => n.name !== self.name && n.superPod === self.superPod).map((n) => n.name);
      return hccnProblem(ctx, `this node reports ${idText} but the cluster file puts ${self.name} in super pod ${self.superPod}${mates.length ? ` with ${summarizeList(mates, 4)}` : ''}: HCCS between them will not link`, {
        expected: `Super Pod ID ${self.superPod}`,
        actual: `Super Pod ID ${effective}`,
        remediation: `correct superPod of ${self.name} in the cluster file (${effective}), or set HCCL_LOGIC_SUPERPOD_ID=${self.superPod} in the launch environment if the pod is split on purpose, or use RoCE between them (HCCL_INTER_HCCS_DISABLE=TRUE)`,
        evidence,
      });
    }
    const mine = self.superPod ?? effective;
    const peers = cluster.cluster.nodes.filter((n) => n.name !== self.name);
    const hccs = peers.filter((n) => n.superPod !== null && n.superPod === mine).map((n) => n.name);
    const roce = peers.filter((n) => !hccs.includes(n.name)).map((n) => n.name);
    evidence.hccsPeers = hccs;
    evidence.rocePeers = roce;
    const plan = [hccs.length ? `HCCS to ${summarizeList(hccs, 4)}` : '', roce.length ? `RoCE to ${summarizeList(roce, 4)}` : ''].filter(Boolean).join(', ');
    return pass(`all ${known.length} dies report ${idText}${self.superPod !== null ? ', as the cluster file says' : ''}${plan ? `; ${plan}` : ''}`, { evidence });
  },
});
