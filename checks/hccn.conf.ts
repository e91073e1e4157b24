import { error, fail, pass, warn } from '../src/core/outcome.js';
import { defineCheck } from '../src/core/define-check.js';
import { en } from '../src/i18n/en/index.js';
import type { Phrase } from '../src/i18n/phrase.js';
import { HCCN_CONF, hccnConf, hccnIp, prefetchDeviceIps } from '../src/probes/hccn.js';
import { askEvery, devName, hccnProblem, hccnScope, unanswered } from '../src/probes/hccn-scope.js';
import { mountTable, originOf } from '../src/probes/mounts.js';
import { summarizeList } from '../src/util/text.js';

const MOUNT_FLAG = `-v ${HCCN_CONF}:${HCCN_CONF}`;

/** stale: the file and the device disagree (not merely an address missing from the file) */
type Problem = { stale: boolean; say: Phrase };

// title, why, fix, reads and every message: src/i18n/*/checks/hccn.ts
export default defineCheck({
  id: 'hccn.conf',
  category: 'hccn',
  order: 10,
  level: 'required',
  cost: { hccnTool: [{ args: '-ip -g' }] },
  action: 'reconfigure',
  prefetch: prefetchDeviceIps,
  async run(ctx) {
    const t = ctx.text.checks['hccn.conf'];
    const list = ctx.text.report.list;
    const scope = await hccnScope(ctx, t.what);
    if (!scope.ok) return scope.outcome;
    const [conf, container] = await Promise.all([hccnConf(ctx), ctx.container()]);
    if (!conf.ok) {
      if (conf.code === 'ENOENT' && container.inContainer) {
        const message = t.notInContainer({ file: HCCN_CONF });
        const details = { expected: `${HCCN_CONF} bind-mounted from the host`, actual: 'absent', remediation: t.addMount({ flag: MOUNT_FLAG }), evidence: { inContainer: true } };
        return ctx.profile.hccn.kvTransfer ? fail(message, details) : warn(message, details);
      }
      if (conf.code === 'ENOENT') {
        return hccnProblem(ctx, t.absent({ file: HCCN_CONF }), {
          expected: `${HCCN_CONF} with address_N for every device`,
          actual: 'absent',
          remediation: t.absentFix({ device: scope.devices[0]!.device, file: HCCN_CONF }),
        });
      }
      if (conf.code === 'EPARSE') {
        return hccnProblem(ctx, t.cannotRead({ problem: conf.problem }), { remediation: t.unparsableFix({ file: HCCN_CONF }) });
      }
      return error(t.cannotRead({ problem: conf.problem }), { remediation: t.unreadableFix({ file: HCCN_CONF }), evidence: { code: conf.code } });
    }

    const evidence: Record<string, unknown> = { devices: conf.value.devices.map((d) => ({ device: d.device, address: d.settings.address ?? null, netmask: d.settings.netmask ?? null })) };
    if (container.inContainer) {
      const mounts = await mountTable(ctx);
      if (mounts.ok) {
        const origin = originOf(mounts.mounts, HCCN_CONF);
        evidence.origin = origin;
        if (origin.kind === 'image') {
          return fail(t.imageCopy({ file: HCCN_CONF }), {
            expected: `${HCCN_CONF} bind-mounted from the host`,
            actual: `a file of the image (${origin.fsType})`,
            remediation: t.addMount({ flag: MOUNT_FLAG }),
            evidence,
          });
        }
      } else evidence.mountinfo = mounts.reason;
    }

    const ips = await askEvery(ctx, scope.devices, hccnIp);
    const failed = await unanswered(ctx, ips, t.readWhat);
    if (failed) return failed;
    const problems: Problem[] = [];
    const byDevice = new Map(conf.value.devices.map((d) => [d.device, d]));
    const missing = scope.devices.filter((d) => !byDevice.get(d.device)?.settings.address);
    const missingDevices = missing.map((d) => devName(d.device));
    if (missing.length > 0) problems.push({ stale: false, say: (c) => c.checks['hccn.conf'].noAddress({ devices: summarizeList(missingDevices, 8, c.report.list) }) });
    for (const { device, answer } of ips) {
      const entry = byDevice.get(device.device);
      const real = answer.ok ? answer.value.entries[0] : undefined;
      if (!entry?.settings.address) continue;
      const written = entry.settings.address;
      const id = device.device;
      if (real && written !== real.address) {
        const line = entry.lines.address;
        problems.push({ stale: true, say: (c) => c.checks['hccn.conf'].addressDiffers({ device: id, written, line, real: real.address }) });
      } else if (!real) problems.push({ stale: true, say: (c) => c.checks['hccn.conf'].addressGone({ device: id, written }) });
      const mask = entry.settings.netmask;
      const realMask = real?.netmask;
      if (real && mask && realMask && mask !== realMask) problems.push({ stale: true, say: (c) => c.checks['hccn.conf'].netmaskDiffers({ device: id, written: mask, real: realMask }) });
    }
    evidence.compared = scope.devices.length;
    if (problems.length > 0) {
      const stale = problems.some((p) => p.stale);
      const said = problems.map((p) => p.say(ctx.text));
      const message = said.length === 1 ? t.oneProblem({ file: HCCN_CONF, problem: said[0]! }) : t.problems({ file: HCCN_CONF, count: said.length, list: summarizeList(said, 2, list) });
      return hccnProblem(ctx, message, {
        expected: 'address_N for every device, equal to hccn_tool -i N -ip -g',
        // for programs: in English, whatever the run's language
        actual: problems.map((p) => p.say(en)).join('; '),
        remediation: stale ? t.persistFix({ inContainer: container.inContainer }) : t.setMissingFix({ device: missing[0]?.device ?? 0 }),
        evidence,
        details: said.length > 1 ? said : [],
      });
    }
    return pass(t.current({ file: HCCN_CONF, devices: scope.devices.length, inContainer: container.inContainer }), { evidence });
  },
});
