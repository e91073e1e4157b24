import { error, fail, pass, skip, warn } from '../src/core/outcome.js';
import { defineCheck, type CheckContext, type Outcome } from '../src/core/types.js';
import { integerFlag, jsonFlag } from '../src/parsers/vllm-args.js';
import { at, invocationViews, worstOfInvocations, LAUNCH_REMEDIATION, launchView, NO_LAUNCH_SCRIPT, parallelism, unfilledValue, type LaunchView } from '../src/probes/launch.js';
import { jsonKeyLine } from '../src/probes/launch-layout.js';
import { listeningSockets, socketOwners } from '../src/probes/listening.js';
import { npuInventory } from '../src/probes/npu.js';
import { formatRanges, plural, summarizeList } from '../src/util/text.js';

const DEFAULT_API_PORT = 8000;
/** vLLM's ParallelConfig.data_parallel_rpc_port */
const DEFAULT_DP_RPC_PORT = 29550;
const DEFAULT_HCCL_BASE_PORT = 60000;

interface PortUse {
  /** first port and how many */
  port: number;
  count: number;
  what: string;
  line: number | null;
}

type Gathered = { uses: PortUse[]; problems: Array<{ level: 'fail' | 'warn'; text: string; fix: string }> };

const KV_PORT_GUIDE = 'docs/source/tutorials/features/pd_disaggregation_mooncake_multi_node.md, "kv_port Configuration Guide"';

/**
 * The ports Mooncake's AscendDirectTransport picks at random on an Ascend node: "[20000, 20000 +
 * npu_per_node × 1000)" (8 NPUs: 20000-27999, 16: 20000-35999); a kv_port there conflicts now and then
 * ("zmq.error.ZMQError: Address already in use").
 */
export function reservedKvPorts(npusPerNode: number): { first: number; last: number } {
  return { first: 20000, last: 20000 + npusPerNode * 1000 - 1 };
}

function gather(view: LaunchView, devices: number, npusPerNode: number): Gathered {
  const uses: PortUse[] = [];
  const problems: Gathered['problems'] = [];
  const serve = view.serve;
  const layout = serve ? parallelism(serve.parsed) : undefined;
  const portFlag = (name: string, label: string, fallback: number | undefined) => {
    if (!serve) return;
    const flag = integerFlag(serve.parsed, name, 1);
    if (flag.state === 'invalid' && unfilledValue(flag.flag)) return;
    if (flag.state === 'invalid') {
      const level = flag.flag.value && !flag.flag.value.known ? 'warn' : 'fail';
      problems.push({ level, text: `${flag.reason} (${at(view, flag.flag.line)})`, fix: `${view.name} line ${flag.flag.line}: ${flag.flag.written} <port>   # a number from 1 to 65535` });
      return;
    }
    if (flag.state === 'ok') {
      if (flag.value > 65535) problems.push({ level: 'fail', text: `${flag.flag.written} ${flag.value} (${at(view, flag.flag.line)}) is above 65535`, fix: `${view.name} line ${flag.flag.line}: ${flag.flag.written} <a port below 65536>` });
      else uses.push({ port: flag.value, count: 1, what: label, line: flag.flag.line });
      return;
    }
    if (fallback !== undefined) uses.push({ port: fallback, count: 1, what: `${label} (vLLM default)`, line: null });
  };

  if (serve && layout) {
    if (!layout.headless) portFlag('port', '--port', DEFAULT_API_PORT);
    // the RPC port is opened by the master only: this node when it starts rank 0
    if (layout.dp > 1 && layout.startRank === 0 && !layout.headless) portFlag('data-parallel-rpc-port', '--data-parallel-rpc-port', DEFAULT_DP_RPC_PORT);

    const kv = jsonFlag(serve.parsed, 'kv-transfer-config');
    if (kv.state === 'ok' && kv.value && typeof kv.value === 'object') {
      const config = kv.value as Record<string, unknown>;
      const raw = config.kv_port;
      if (raw !== undefined) {
        const text = String(raw);
        if (!/^\d{1,5}$/.test(text) || Number(text) < 1 || Number(text) > 65535) {
          problems.push({ level: 'fail', text: `kv_port "${text}" of --kv-transfer-config (${at(view, kv.flag.line)}) is not a port`, fix: `${view.name} line ${kv.flag.line}: "kv_port": "<a free port>"` });
        } else {
          const base = Number(text);
          const connector = String(config.kv_connector ?? '');
          // vllm-ascend's Mooncake connectors: kv_port + data-parallel rank x TP x PP x PCP + TP rank
          const perRank = layout.tp * layout.pp * layout.pcp;
          const kvUse: PortUse =
            /mooncake/i.test(connector) && layout.unknowns.length === 0
              ? { port: base + layout.startRank * perRank, count: layout.dpLocal * perRank, what: `kv ports of ${connector}`, line: kv.flag.line }
              : { port: base, count: 1, what: `kv_port of ${connector || '--kv-transfer-config'}`, line: kv.flag.line };
          uses.push(kvUse);
          const reserved = reservedKvPorts(npusPerNode);
          if (/mooncake/i.test(connector) && kvUse.port <= reserved.last && kvUse.port + kvUse.count - 1 >= reserved.first) {
            const line = jsonKeyLine(kv.flag, ['kv_port']);
            problems.push({
              level: 'warn',
              text: `kv_port ${base} of ${connector} (${at(view, line)}) is inside ${reserved.first}-${reserved.last}, the ports Mooncake's AscendDirectTransport allocates at random on a node of ${plural(npusPerNode, 'NPU')} (${KV_PORT_GUIDE}): the server fails now and then with "Address already in use"`,
              fix: `${view.name} line ${line}: "kv_port": "${reserved.last + 1}"   # at or above ${reserved.last + 1}, as the guide's table recommends for ${plural(npusPerNode, 'NPU')} per node; the same on every node of the role`,
            });
          }
        }
      }
    }
  }

  const baseVariable = view.env.get('HCCL_IF_BASE_PORT');
  let base = DEFAULT_HCCL_BASE_PORT;
  let baseLine: number | null = null;
  const portsWord = devices === 1 ? 'port' : 'ports';
  let baseLabel = `HCCL listen ${portsWord} (default base 60000)`;
  if (baseVariable) {
    const text = baseVariable.value.text.trim();
    if (!baseVariable.value.known) problems.push({ level: 'warn', text: `HCCL_IF_BASE_PORT is computed at run time (${baseVariable.value.dynamic[0]})`, fix: 'export HCCL_IF_BASE_PORT=<port>   # written literally, so it can be checked' });
    else if (!/^\d{1,5}$/.test(text)) problems.push({ level: 'fail', text: `HCCL_IF_BASE_PORT is "${text}", not a port`, fix: `export HCCL_IF_BASE_PORT=${DEFAULT_HCCL_BASE_PORT - 5000}` });
    else {
      base = Number(text);
      baseLine = baseVariable.line;
      baseLabel = `HCCL listen ${portsWord} (HCCL_IF_BASE_PORT ${base})`;
    }
  }
  if (devices > 0) {
    const last = base + devices - 1;
    if (last > 65535) {
      problems.push({
        level: 'fail',
        text: `HCCL_IF_BASE_PORT ${base} + ${plural(devices, 'device')} runs past 65535 (to ${last})`,
        fix: `export HCCL_IF_BASE_PORT=${Math.min(55000, 65536 - devices)}   # base + devices must stay <= 65535`,
      });
    } else uses.push({ port: base, count: devices, what: baseLabel, line: baseLine });
  }
  return { uses, problems };
}

function range(use: PortUse): string {
  return use.count === 1 ? String(use.port) : `${use.port}-${use.port + use.count - 1}`;
}

/** One invocation's ports against the sockets listening here. */
async function judge(ctx: CheckContext, view: LaunchView): Promise<Outcome> {
  const layout = view.serve ? parallelism(view.serve.parsed) : undefined;
  const visible = view.env.get('ASCEND_RT_VISIBLE_DEVICES')?.value;
  const listed = visible?.known ? visible.text.split(',').filter((s) => s.trim() !== '').length : 0;
  const devices = layout ? layout.perNode : listed;
  const inventory = await npuInventory(ctx);
  // the guide's table goes by NPUs per node: 8 on an A2 server, 16 dies on an A3
  const npusPerNode = inventory.ok && inventory.devices.length > 0 ? inventory.devices.length : ctx.profile.npu.family === 'a3' ? 16 : 8;
  const { uses, problems } = gather(view, devices, npusPerNode);
  const evidence: Record<string, unknown> = {
    script: view.input.file,
    ports: uses.map((u) => ({ ports: range(u), what: u.what, line: u.line })),
  };

  // two roles on one port: the second bind fails
  const owners = new Map<number, PortUse>();
  for (const use of uses) {
    for (let p = use.port; p < use.port + use.count; p++) {
      const other = owners.get(p);
      if (other && other !== use) {
        problems.push({ level: 'fail', text: `port ${p} is both ${other.what} and ${use.what}`, fix: `move one of them${use.line ? ` (${at(view, use.line)})` : ''}` });
        break;
      }
      owners.set(p, use);
    }
  }

  const sockets = await listeningSockets(ctx);
  if (!sockets.ok) return error(`cannot read listening sockets: ${sockets.problem}`, { remediation: 'make /proc/net readable (mount /proc) and re-run', evidence });
  const busy = sockets.sockets.filter((s) => owners.has(s.localPort)).sort((a, b) => a.localPort - b.localPort);
  if (busy.length > 0) {
    const holders = await socketOwners(ctx, new Set(busy.map((s) => s.inode)));
    const described = [...new Set(busy.map((s) => {
      const holder = holders.get(s.inode);
      return `${s.localPort} (${owners.get(s.localPort)!.what}; ${holder ? `pid ${holder.pid} ${holder.name}` : 'owner not visible'})`;
    }))];
    const first = holders.get(busy[0]!.inode);
    evidence.busy = busy.map((s) => ({ port: s.localPort, address: s.localAddress, owner: holders.get(s.inode) ?? null }));
    problems.unshift({
      level: 'fail',
      text: `${plural(described.length, 'port')} of ${view.name} ${described.length === 1 ? 'is' : 'are'} in use: ${summarizeList(described, 3)}`,
      fix: first
        ? `kill ${first.pid}   # ${first.name}, if it is a leftover; or move the port in ${view.name}`
        : `sudo ss -ltnp | grep -E ':(${[...new Set(busy.map((s) => s.localPort))].slice(0, 6).join('|')})\\b'   # find the owner and stop it, or move the port in ${view.name}`,
    });
  }

  if (problems.length === 0) {
    if (uses.length === 0) return pass(`${view.name} binds no port qprep knows of`, { evidence });
    return pass(`ports of ${view.name} are free: ${uses.map((u) => `${range(u)} ${u.what}`).join(', ')}`, { evidence });
  }
  const failing = problems.filter((p) => p.level === 'fail');
  const ordered = [...failing, ...problems.filter((p) => p.level === 'warn')];
  const message = `${ordered[0]!.text}${ordered.length > 1 ? ` (and ${ordered.length - 1} more)` : ''}`;
  const details = {
    expected: `free: ${formatRanges(uses.flatMap((u) => Array.from({ length: Math.min(u.count, 64) }, (_, i) => u.port + i)))}`,
    actual: summarizeList(ordered.map((p) => p.text), 2),
    remediation: [...new Set(ordered.map((p) => p.fix))].join('\n'),
    evidence,
  };
  return failing.length > 0 ? fail(message, details) : warn(message, details);
}

export default defineCheck({
  id: 'launch.ports',
  title: "Launch script's ports free",
  category: 'launch',
  level: 'required',
  why:
    'The server binds --port, the master binds --data-parallel-rpc-port, the Mooncake connector binds kv_port plus ' +
    'one port per rank, and HCCL listens on HCCL_IF_BASE_PORT (60000 by default) plus one port per device. Any of ' +
    'them held by a leftover process fails the launch with "Failed to bind the IP port" after the weights are ' +
    'loaded, and a base port too close to 65535 fails on the last devices. A Mooncake kv_port inside the ports ' +
    'AscendDirectTransport allocates at random, [20000, 20000 + NPUs per node x 1000), conflicts now and then ' +
    '(vllm-ascend docs/source/tutorials/features/pd_disaggregation_mooncake_multi_node.md, "kv_port Configuration Guide": ' +
    '8 NPUs 20000-27999, 16 NPUs 20000-35999).',
  reads: ['the --launch script (never executed)', '/proc/net/tcp', '/proc/net/tcp6', '/proc/<pid>/fd (owners of busy ports)', 'npu-smi info (NPUs per node)'],
  fix: 'Stop the process holding the port, or move the flag or HCCL_IF_BASE_PORT the check names.',
  async run(ctx) {
    const view = await launchView(ctx);
    if (!view) return skip(NO_LAUNCH_SCRIPT, { remediation: LAUNCH_REMEDIATION });
    const views = await invocationViews(ctx, view);
    const outcomes: Outcome[] = [];
    for (const each of views) outcomes.push(await judge(ctx, each));
    return worstOfInvocations(views, outcomes);
  },
});
