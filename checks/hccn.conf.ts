import { error, fail, pass, warn } from '../src/core/outcome.js';
import { defineCheck } from '../src/core/types.js';
import { HCCN_CONF, hccnConf, hccnIp, prefetchDeviceIps } from '../src/probes/hccn.js';
import { askEvery, devName, hccnProblem, hccnScope, unanswered } from '../src/probes/hccn-scope.js';
import { mountTable, originOf } from '../src/probes/mounts.js';
import { summarizeList } from '../src/util/text.js';

const MOUNT_FLAG = `-v ${HCCN_CONF}:${HCCN_CONF}`;

export default defineCheck({
  id: 'hccn.conf',
  title: '/etc/hccn.conf present and current',
  category: 'hccn',
  level: 'required',
  why:
    '/etc/hccn.conf persists each device\'s address (address_N, netmask_N, ...) across reboots, and Mooncake and HIXL ' +
    '(PD disaggregation) read the device IPs from it: without it in the container the service starts and returns ' +
    'garbage. In a container it must be bind-mounted from the host, not a copy baked into the image, which goes stale. ' +
    'Every device needs an address_N equal to what hccn_tool -i N -ip -g reports now.',
  reads: [HCCN_CONF, '/proc/self/mountinfo (in a container)', 'hccn_tool -i <device> -ip -g'],
  fix: 'On the host set each address with hccn_tool -i N -ip -s address <ip> netmask <mask> (it writes the file); in a container add -v /etc/hccn.conf:/etc/hccn.conf to docker run.',
  prefetch: prefetchDeviceIps,
  async run(ctx) {
    const scope = await hccnScope(ctx, HCCN_CONF);
    if (!scope.ok) return scope.outcome;
    const [conf, container] = await Promise.all([hccnConf(ctx), ctx.container()]);
    if (!conf.ok) {
      if (conf.code === 'ENOENT' && container.inContainer) {
        const message = `${HCCN_CONF} is not in this container: HCCL collectives do without it, but Mooncake and HIXL (PD disaggregation) read the device IPs from it`;
        const details = { expected: `${HCCN_CONF} bind-mounted from the host`, actual: 'absent', remediation: `add ${MOUNT_FLAG} to docker run`, evidence: { inContainer: true } };
        return ctx.profile.hccn.kvTransfer ? fail(message, details) : warn(message, details);
      }
      if (conf.code === 'ENOENT') {
        return hccnProblem(ctx, `${HCCN_CONF} does not exist: the device IPs are not persisted and are lost at the next reboot`, {
          expected: `${HCCN_CONF} with address_N for every device`,
          actual: 'absent',
          remediation: `set each device's address with hccn_tool -i ${scope.devices[0]!.device} -ip -s address <ip> netmask <mask> (it writes ${HCCN_CONF}), for every device`,
        });
      }
      if (conf.code === 'EPARSE') {
        return hccnProblem(ctx, `cannot read ${conf.problem}`, { remediation: `fix the line named in ${HCCN_CONF} (key_N=value per line), or re-create it with hccn_tool -i N -ip -s address <ip> netmask <mask>` });
      }
      return error(`cannot read ${conf.problem}`, { remediation: `make ${HCCN_CONF} readable (run qprep as root)`, evidence: { code: conf.code } });
    }

    const evidence: Record<string, unknown> = { devices: conf.value.devices.map((d) => ({ device: d.device, address: d.settings.address ?? null, netmask: d.settings.netmask ?? null })) };
    if (container.inContainer) {
      const mounts = await mountTable(ctx);
      if (mounts.ok) {
        const origin = originOf(mounts.mounts, HCCN_CONF);
        evidence.origin = origin;
        if (origin.kind === 'image') {
          return fail(`${HCCN_CONF} in this container is a copy in the image, not the host's file: it goes stale when the host's device IPs change`, {
            expected: `${HCCN_CONF} bind-mounted from the host`,
            actual: `a file of the image (${origin.fsType})`,
            remediation: `add ${MOUNT_FLAG} to docker run`,
            evidence,
          });
        }
      } else evidence.mountinfo = mounts.reason;
    }

    const ips = await askEvery(ctx, scope.devices, hccnIp);
    const failed = await unanswered(ctx, ips, 'the device IP to compare with');
    if (failed) return failed;
    const problems: string[] = [];
    const byDevice = new Map(conf.value.devices.map((d) => [d.device, d]));
    const missing = scope.devices.filter((d) => !byDevice.get(d.device)?.settings.address);
    if (missing.length > 0) problems.push(`no address_N for ${summarizeList(missing.map((d) => devName(d.device)), 8)}`);
    for (const { device, answer } of ips) {
      const entry = byDevice.get(device.device);
      const real = answer.ok ? answer.value.entries[0] : undefined;
      if (!entry?.settings.address) continue;
      const written = entry.settings.address;
      if (real && written !== real.address) problems.push(`address_${device.device}=${written} (line ${entry.lines.address}) but the device has ${real.address}`);
      else if (!real) problems.push(`address_${device.device}=${written} but the device has no address now`);
      const mask = entry.settings.netmask;
      if (real && mask && real.netmask && mask !== real.netmask) problems.push(`netmask_${device.device}=${mask} but the device has ${real.netmask}`);
    }
    evidence.compared = scope.devices.length;
    if (problems.length > 0) {
      const stale = problems.some((p) => p.includes('but the device'));
      return hccnProblem(ctx, `${HCCN_CONF} ${problems.length === 1 ? problems[0] : `has ${problems.length} problems: ${summarizeList(problems, 2)}`}`, {
        expected: 'address_N for every device, equal to hccn_tool -i N -ip -g',
        actual: problems.join('; '),
        remediation: stale
          ? `persist the running addresses: hccn_tool -i N -ip -s address <ip> netmask <mask> rewrites address_N (or fix the file if it is the device that is wrong)${container.inContainer ? '; in a container fix the host file' : ''}`
          : `set the missing addresses: hccn_tool -i ${missing[0]?.device ?? 0} -ip -s address <ip> netmask <mask>`,
        evidence,
        details: problems.length > 1 ? problems : [],
      });
    }
    const where = container.inContainer ? ', mounted from the host' : '';
    return pass(`${HCCN_CONF} has an address for all ${scope.devices.length} devices, equal to the running ones${where}`, { evidence });
  },
});
