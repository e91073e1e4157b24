import { pass, skip, warn } from '../src/core/outcome.js';
import { defineCheck } from '../src/core/define-check.js';
import type { CheckContext, Outcome } from '../src/core/types.js';
import type { FecMode } from '../src/parsers/hccn-link-health.js';
import { linkHealthRow } from '../src/knowledge/hccn-link-health.js';
import { hccnFec, hccnSpeed, hccnProblemText } from '../src/probes/hccn.js';
import { askEvery, devName, hccnProblem, hccnScope, prefetchEvery, unanswered } from '../src/probes/hccn-scope.js';
import { formatRanges, summarizeList } from '../src/util/text.js';

/**
 * The slowest port speed that needs RS-FEC, in Mb/s: the 100G and 200G Ethernet PHYs of the NPU
 * ports (4 lanes of 25G NRZ or 50G PAM4) are specified with Reed-Solomon FEC (IEEE 802.3 clauses
 * 91 and 119), and the driver refuses to turn FEC off at 200G (tool_ext.c: "fec mode off is not
 * supported in 200G"). Below it "no FEC mode" may be what the switch port is set to: a warning.
 */
const RS_FEC_FROM_MBPS = 100_000;

interface PortFec {
  device: number;
  /** null: the tool cannot query it on this device */
  mode: FecMode | null;
  /** asked only after "no FEC mode": null when unknown (link down) or not asked */
  speedMbps: number | null;
  speedAsked: boolean;
  /** what asking the speed went wrong with, in the run's language */
  speedProblem?: string;
}

/** The fix as Huawei's fault-diagnosis knowledge writes it ($i the device), for the devices named. */
function rsFix(devices: readonly number[]): string {
  const command = linkHealthRow('fec-rs-fix').command ?? 'hccn_tool -i $i -fec -s encoding rs';
  if (devices.length === 1) return command.replace('$i', String(devices[0]));
  return `for i in ${devices.join(' ')}; do ${command}; done`;
}

async function withSpeed(ctx: CheckContext, port: PortFec): Promise<PortFec> {
  if (port.mode !== 'no') return port;
  const speed = await hccnSpeed(ctx, port.device);
  if (!speed.ok) return { ...port, speedAsked: true, speedProblem: hccnProblemText(speed) };
  return { ...port, speedAsked: true, speedMbps: speed.value.mbps };
}

function judged(ctx: CheckContext, ports: PortFec[]): Outcome {
  const t = ctx.text.checks['hccn.fec'];
  const list = ctx.text.report.list;
  const evidence = { ports, rsFecFromMbps: RS_FEC_FROM_MBPS, fix: linkHealthRow('fec-rs-fix').command };
  const known = ports.filter((p) => p.mode !== null);
  if (known.length === 0) return skip(t.unsupported({ total: ports.length }), { remediation: t.unsupportedFix, evidence });
  const noFec = known.filter((p) => p.mode === 'no');
  const needsRs = noFec.filter((p) => p.speedMbps !== null && p.speedMbps >= RS_FEC_FROM_MBPS);
  const describe = (p: PortFec) => t.noFecItem({ device: devName(p.device), speedGbps: p.speedMbps === null ? null : p.speedMbps / 1000 });
  if (needsRs.length > 0) {
    return hccnProblem(ctx, t.noFec({ count: needsRs.length, total: known.length, list: summarizeList(needsRs.map(describe), 6, list) }), {
      expected: `fec mode: rs FEC mode on every port of ${RS_FEC_FROM_MBPS / 1000} Gb/s or more`,
      actual: needsRs.map((p) => `${devName(p.device)}: no FEC mode at ${p.speedMbps} Mb/s`).join(', '),
      remediation: t.rsFix({ command: rsFix(needsRs.map((p) => p.device)) }),
      action: 'reconfigure',
      evidence,
    });
  }
  if (noFec.length > 0) {
    return warn(t.noFecUnknownSpeed({ count: noFec.length, total: known.length, list: summarizeList(noFec.map(describe), 6, list) }), {
      expected: 'fec mode: rs FEC mode, or no FEC on both ends of a port below 100 Gb/s',
      actual: noFec.map((p) => `${devName(p.device)}: no FEC mode, speed ${p.speedMbps ?? 'unknown'}`).join(', '),
      remediation: t.rsFix({ command: rsFix(noFec.map((p) => p.device)) }),
      action: 'reconfigure',
      evidence,
    });
  }
  const auto = known.filter((p) => p.mode === 'auto').map((p) => p.device);
  const unqueried = ports.filter((p) => p.mode === null).map((p) => p.device);
  return pass(t.rs({ total: known.length, auto: auto.length > 0 ? `dev${formatRanges(auto)}` : null, unqueried: unqueried.length > 0 ? `dev${formatRanges(unqueried)}` : null }), { evidence });
}

// title, why, fix, reads and every message: src/i18n/*/checks/hccn.ts
export default defineCheck({
  id: 'hccn.fec',
  category: 'hccn',
  order: 36,
  level: 'required',
  cost: { hccnTool: [{ args: '-fec -g', families: ['a2'] }, { args: '-speed -g', families: ['a2'], onlyWhen: 'the port says "no FEC mode"' }] },
  action: 'reconfigure',
  prefetch: prefetchEvery((family) => (family === 'a3' ? [] : [hccnFec])),
  async run(ctx) {
    const t = ctx.text.checks['hccn.fec'];
    const scope = await hccnScope(ctx, t.what);
    if (!scope.ok) return scope.outcome;
    // the A3's hccn_tool answers every -fec call with "This device does not support switching fec mode."
    if (scope.family === 'a3') return skip(t.a3({ total: scope.devices.length }), { remediation: t.unsupportedFix, evidence: { family: 'a3' } });
    const answers = await askEvery(ctx, scope.devices, hccnFec);
    const failed = await unanswered(ctx, answers, t.readWhat);
    if (failed) return failed;
    const ports = answers.map(({ device, answer }): PortFec => {
      const value = answer.ok ? answer.value : undefined;
      return { device: device.device, mode: value?.supported ? value.mode : null, speedMbps: null, speedAsked: false };
    });
    return judged(ctx, await Promise.all(ports.map((p) => withSpeed(ctx, p))));
  },
});
