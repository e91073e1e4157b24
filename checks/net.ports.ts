import { error, fail, pass } from '../src/core/outcome.js';
import { expandPorts } from '../src/core/profile.js';
import { defineCheck } from '../src/core/define-check.js';
import { listeningSockets, socketOwners } from '../src/probes/listening.js';
import { formatRanges, summarizeList } from '../src/util/text.js';

const DEFAULT_HCCL_BASE_PORT = 60000;

// title, why, fix, reads and every message: src/i18n/*/checks/net.ts
export default defineCheck({
  id: 'net.ports',
  category: 'network',
  order: 20,
  level: 'required',
  depth: 'quick',
  action: 'reconfigure',
  async run(ctx) {
    const t = ctx.text.checks['net.ports'];
    const hostCfg = ctx.profile.host;
    const envBase = ctx.host.env().HCCL_IF_BASE_PORT;
    const base = envBase && /^\d+$/.test(envBase) ? Number(envBase) : DEFAULT_HCCL_BASE_PORT;
    const hcclPorts = Array.from({ length: hostCfg.hcclPortCount }, (_, i) => base + i).filter((p) => p <= 65535);
    const wanted = new Set([...expandPorts(hostCfg.ports), ...hcclPorts]);
    if (wanted.size === 0) return pass(t.nothingToCheck);

    const listed = await listeningSockets(ctx);
    if (!listed.ok) return error(t.cannotRead({ problem: listed.problem }), { remediation: t.cannotReadFix });
    const listening = listed.sockets;

    const busy = listening.filter((s) => wanted.has(s.localPort)).sort((a, b) => a.localPort - b.localPort);
    const checked = formatRanges([...wanted]);
    if (busy.length === 0) return pass(t.free({ ports: checked }), { evidence: { ports: checked, hcclBasePort: base } });

    const owners = await socketOwners(ctx, new Set(busy.map((s) => s.inode)));
    const described = busy.map((s) => {
      const owner = owners.get(s.inode);
      return t.busyPort({ port: s.localPort, address: s.localAddress, pid: owner?.pid ?? null, name: owner?.name ?? null });
    });
    const unique = [...new Set(described)];
    const firstOwner = owners.get(busy[0]!.inode);
    return fail(t.busy({ count: unique.length, list: summarizeList(unique, 4, ctx.text.report.list) }), {
      expected: `free: ${checked}`,
      actual: `listening: ${formatRanges(busy.map((s) => s.localPort))}`,
      remediation: firstOwner
        ? t.stopFix({ pid: firstOwner.pid, name: firstOwner.name })
        : t.findFix,
      evidence: {
        ports: checked,
        hcclBasePort: base,
        busy: busy.map((s) => ({ port: s.localPort, address: s.localAddress, inode: s.inode, owner: owners.get(s.inode) ?? null })),
      },
    });
  },
});
