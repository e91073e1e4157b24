import { pass, warn } from '../src/core/outcome.js';
import { defineCheck } from '../src/core/types.js';
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

export default defineCheck({
  id: 'hccn.tls',
  title: 'NPU TLS switch consistent',
  category: 'hccn',
  level: 'required',
  why:
    'Devices with TLS enabled cannot establish links with devices with TLS disabled: HCCL waits for the socket and fails ' +
    'with "wait socket establish timeout", its cause list naming "The TLS switch is inconsistent". The switch must be ' +
    'the same on every device of every node; the vendor guides recommend 0 (off). Across nodes the values come from ' +
    'the cluster file: the facts of every node (a JSON array of qprep facts), or a declared tls.',
  reads: ['hccn_tool -i <device> -tls -g', 'the cluster file (peers\' tls facts, or tls:)'],
  fix: 'Set one value everywhere, preferably 0: for i in {0..7}; do hccn_tool -i $i -tls -s enable 0; done (0..15 on A3), on every node.',
  prefetch: prefetchEvery(() => [hccnTls]),
  async run(ctx) {
    const scope = await hccnScope(ctx, 'the TLS switch');
    if (!scope.ok) return scope.outcome;
    const answers = await askEvery(ctx, scope.devices, hccnTls);
    const failed = await unanswered(ctx, answers, 'the TLS switch');
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
      return hccnProblem(ctx, `hccn_tool -tls -g printed no switch for dev${formatRanges(silent)}`, {
        remediation: `run "hccn_tool -i ${silent[0]} -tls -g" by hand; a driver without TLS support prints nothing to compare`,
        evidence,
      });
    }
    if (values.length > 1) {
      return hccnProblem(ctx, `the TLS switch differs between the devices of this node (${bySwitch(local)}): they cannot link with each other`, {
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
        return hccnProblem(ctx, `the TLS switch is ${mine} on this node but the cluster file declares tls: ${declared} for every node`, {
          expected: `TLS ${declared}`,
          actual: `TLS ${mine} on dev${formatRanges(devices)}`,
          remediation: declared === 0 ? disableAll(devices) : `set the same value on every node (for i in ...; do hccn_tool -i $i -tls -s enable ${declared}; done), or change tls: in the cluster file`,
          evidence,
        });
      }
      const differing = peers.filter((p) => p.values.some((v) => v !== mine));
      if (differing.length > 0) {
        const describe = differing.map((p) => `${p.node} has ${p.values.join('/')}`);
        return hccnProblem(ctx, `the TLS switch is ${mine} here but ${summarizeList(describe, 4)}: devices with TLS on and off cannot link`, {
          expected: `the same TLS switch on every node (0 recommended)`,
          actual: `${self}: ${mine}; ${describe.join('; ')}`,
          remediation: `set TLS 0 on every node: ${disableAll(devices)} (run it on ${[self, ...differing.map((p) => p.node)].join(', ')} as needed)`,
          evidence,
        });
      }
    }
    const compared = cluster ? cluster.cluster.nodes.filter((n) => n.name !== cluster.self.name && n.devices.some((d) => d.tls !== null)).length : 0;
    const scopeText = compared > 0 ? ` and on the ${compared} peers whose facts carry it` : cluster?.cluster.tls != null ? ', as the cluster file declares' : '';
    if (mine !== 0) {
      return warn(`the TLS switch is ${mine} on all ${devices.length} devices${scopeText}; the guides recommend 0 unless TLS is wanted on every node`, {
        expected: 'TLS 0',
        actual: `TLS ${mine}`,
        remediation: `${disableAll(devices)} (on every node)`,
        evidence,
      });
    }
    return pass(`the TLS switch is 0 on all ${devices.length} devices${scopeText}`, { evidence });
  },
});
