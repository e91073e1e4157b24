import { error, fail, pass, warn } from '../src/core/outcome.js';
import type { CheckContext, Outcome } from '../src/core/types.js';
import { defineCheck } from '../src/core/define-check.js';
import { en, type Catalogue } from '../src/i18n/en/index.js';
import { integerFlag, jsonFlag } from '../src/parsers/vllm-args.js';
import { at, flagReason, invocationViews, worstOfInvocations, launchView, noLaunchScript, parallelism, placeholderIn, unfilledValue, type LaunchView } from '../src/probes/launch.js';
import { jsonKeyLine } from '../src/probes/launch-layout.js';
import { ruleEvidence } from '../src/knowledge/judge.js';
import { serverInstances, type ServerInstance } from '../src/probes/launch-instances.js';
import { launchRule, ruleNote } from '../src/probes/launch-rules.js';
import { listeningSockets, socketOwners } from '../src/probes/listening.js';
import { npuInventory } from '../src/probes/npu.js';
import { formatRanges, summarizeList } from '../src/util/text.js';

const DEFAULT_API_PORT = 8000;
/** vLLM's ParallelConfig.data_parallel_rpc_port */
const DEFAULT_DP_RPC_PORT = 29550;
const DEFAULT_HCCL_BASE_PORT = 60000;

interface PortUse {
  /** first port and how many */
  port: number;
  count: number;
  /** what binds it, in a catalogue's language (the run's for messages, English for the evidence) */
  what: (t: Text) => string;
  line: number | null;
}

type Text = Catalogue['checks']['launch.ports'];

interface Problem {
  level: 'fail' | 'warn';
  /** the finding in a catalogue's language: the run's for the message, English for `actual` */
  text: (t: Text) => string;
  fix: (t: Text) => string;
}

type Gathered = { uses: PortUse[]; problems: Problem[] };

const KV_PORT_GUIDE = 'docs/source/tutorials/features/pd_disaggregation_mooncake_multi_node.md, "kv_port Configuration Guide"';

/**
 * The ports Mooncake's AscendDirectTransport picks at random on an Ascend node: "[20000, 20000 +
 * npu_per_node × 1000)" (8 NPUs: 20000-27999, 16: 20000-35999); a kv_port there conflicts now and then
 * ("zmq.error.ZMQError: Address already in use").
 */
export function reservedKvPorts(npusPerNode: number): { first: number; last: number } {
  return { first: 20000, last: 20000 + npusPerNode * 1000 - 1 };
}

function gather(view: LaunchView, devices: number, npusPerNode: number, words: Catalogue['probes']['launch']): Gathered {
  const uses: PortUse[] = [];
  const problems: Gathered['problems'] = [];
  const serve = view.serve;
  const layout = serve ? parallelism(serve.parsed) : undefined;
  const portFlag = (name: string, label: string, fallback: number | undefined) => {
    const flagLabel = () => label;
    if (!serve) return;
    const flag = integerFlag(serve.parsed, name, 1);
    // a value left to fill in is launch.placeholders' finding, also when the tutorial wraps it in backticks (`<port>`)
    if (flag.state === 'invalid' && (unfilledValue(flag.flag) || placeholderIn(flag.flag.value?.source ?? '') !== undefined)) return;
    if (flag.state === 'invalid') {
      const level = flag.flag.value && !flag.flag.value.known ? 'warn' : 'fail';
      // the parser gives the facts; `actual` words them in English, the message in the run's language
      const { invalid, line, written } = { invalid: { flag: flag.flag, problem: flag.problem }, line: flag.flag.line, written: flag.flag.written };
      const reason = (t: Text) => flagReason(invalid, t === en.checks['launch.ports'] ? en.probes.launch : words);
      problems.push({ level, text: (t) => t.badFlag({ reason: reason(t), at: at(view, line) }), fix: (t) => t.badFlagFix({ script: view.name, line, flag: written }) });
      return;
    }
    if (flag.state === 'ok') {
      const { value, line, written } = { value: flag.value, line: flag.flag.line, written: flag.flag.written };
      if (value > 65535) problems.push({ level: 'fail', text: (t) => t.above({ flag: written, value, at: at(view, line) }), fix: (t) => t.aboveFix({ script: view.name, line, flag: written }) });
      else uses.push({ port: value, count: 1, what: flagLabel, line });
      return;
    }
    if (fallback !== undefined) uses.push({ port: fallback, count: 1, what: (t) => t.vllmDefault({ label }), line: null });
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
          const line = kv.flag.line;
          problems.push({ level: 'fail', text: (t) => t.kvNotPort({ value: text, at: at(view, line) }), fix: (t) => t.kvNotPortFix({ script: view.name, line }) });
        } else {
          const base = Number(text);
          const connector = String(config.kv_connector ?? '');
          // vllm-ascend's Mooncake connectors: kv_port + data-parallel rank x TP x PP x PCP + TP rank
          const perRank = layout.tp * layout.pp * layout.pcp;
          const kvUse: PortUse =
            /mooncake/i.test(connector) && layout.unknowns.length === 0
              ? { port: base + layout.startRank * perRank, count: layout.dpLocal * perRank, what: (t) => t.kvPorts({ connector }), line: kv.flag.line }
              : { port: base, count: 1, what: (t) => t.kvPort({ connector: connector || '--kv-transfer-config' }), line: kv.flag.line };
          uses.push(kvUse);
          const reserved = reservedKvPorts(npusPerNode);
          if (/mooncake/i.test(connector) && kvUse.port <= reserved.last && kvUse.port + kvUse.count - 1 >= reserved.first) {
            const line = jsonKeyLine(kv.flag, ['kv_port']);
            problems.push({
              level: 'warn',
              text: (t) => t.kvReserved({ base, connector, at: at(view, line), first: reserved.first, last: reserved.last, npus: npusPerNode, guide: KV_PORT_GUIDE }),
              fix: (t) => t.kvReservedFix({ script: view.name, line, next: reserved.last + 1, npus: npusPerNode }),
            });
          }
        }
      }
    }
  }

  const baseVariable = view.env.get('HCCL_IF_BASE_PORT');
  let base = DEFAULT_HCCL_BASE_PORT;
  let baseLine: number | null = null;
  let baseLabel: PortUse['what'] = (t) => t.hcclDefault({ count: devices });
  if (baseVariable) {
    const text = baseVariable.value.text.trim();
    const dynamic = baseVariable.value.dynamic[0] ?? '';
    if (!baseVariable.value.known) problems.push({ level: 'warn', text: (t) => t.baseComputed({ dynamic }), fix: (t) => t.baseComputedFix });
    else if (!/^\d{1,5}$/.test(text)) problems.push({ level: 'fail', text: (t) => t.baseNotPort({ value: text }), fix: () => `export HCCL_IF_BASE_PORT=${DEFAULT_HCCL_BASE_PORT - 5000}` });
    else {
      base = Number(text);
      baseLine = baseVariable.line;
      const chosen = base;
      baseLabel = (t) => t.hcclBase({ count: devices, base: chosen });
    }
  }
  if (devices > 0) {
    const last = base + devices - 1;
    if (last > 65535) {
      problems.push({
        level: 'fail',
        text: (t) => t.basePast({ base, devices, last }),
        fix: (t) => t.basePastFix({ port: Math.min(55000, 65536 - devices) }),
      });
    } else uses.push({ port: base, count: devices, what: baseLabel, line: baseLine });
  }
  return { uses, problems };
}

function range(use: PortUse): string {
  return use.count === 1 ? String(use.port) : `${use.port}-${use.port + use.count - 1}`;
}

/** Two servers of this node whose NPUs overlap, neither with a port range of its own. */
function npuPortClash(instances: readonly ServerInstance[]): { first: ServerInstance; second: ServerInstance; shared: number[] } | undefined {
  for (let i = 0; i < instances.length; i++) {
    for (let j = i + 1; j < instances.length; j++) {
      const [first, second] = [instances[i]!, instances[j]!];
      if (!first.devices || !second.devices) continue;
      const shared = first.devices.filter((d) => second.devices!.includes(d));
      if (shared.length === 0) continue;
      // "auto", or two ranges of their own: HCCL listens where each is told
      const own = (range: string | null | undefined) => range === null || (range !== undefined && range !== '');
      if (own(first.npuPortRange) && own(second.npuPortRange) && (first.npuPortRange !== second.npuPortRange || first.npuPortRange?.toLowerCase() === 'auto')) continue;
      return { first, second, shared };
    }
  }
  return undefined;
}

/**
 * Rule hccl.npu-socket-port: HCCL listens on port 16666 of each NPU it uses; a second server on
 * the same NPU cannot ("listen on ip[...] and specific port[16666] fail"). CANN's answer is a
 * port range per process (HCCL_NPU_SOCKET_PORT_RANGE, "auto" to let the OS pick).
 */
async function clashProblem(ctx: CheckContext, view: LaunchView): Promise<{ problem: Problem; evidence: Record<string, unknown> } | undefined> {
  const instances = await serverInstances(ctx, view);
  if (instances.length < 2) return undefined;
  const clash = npuPortClash(instances);
  if (!clash) return undefined;
  const judged = await launchRule(ctx, 'hccl.npu-socket-port');
  if (!judged.verdict || judged.verdict === 'info') return undefined;
  const words = (t: Text) => (t === en.checks['launch.ports'] ? en.probes.launch : ctx.text.probes.launch);
  const { first, second, shared } = clash;
  return {
    problem: {
      level: judged.verdict,
      text: (t) => t.npuPortClash({ first: first.label, second: second.label, devices: formatRanges(shared), rule: ruleNote(judged, words(t)) }),
      fix: (t) => t.npuPortClashFix({ first: first.label, second: second.label }),
    },
    evidence: { instances, ...ruleEvidence(judged) },
  };
}

/** One invocation's ports against the sockets listening here. */
async function judge(ctx: CheckContext, view: LaunchView, extra?: { problem: Problem; evidence: Record<string, unknown> }): Promise<Outcome> {
  const t = ctx.text.checks['launch.ports'];
  const english = en.checks['launch.ports'];
  const layout = view.serve ? parallelism(view.serve.parsed) : undefined;
  const visible = view.env.get('ASCEND_RT_VISIBLE_DEVICES')?.value;
  const listed = visible?.known ? visible.text.split(',').filter((s) => s.trim() !== '').length : 0;
  const devices = layout ? layout.perNode : listed;
  const inventory = await npuInventory(ctx);
  // the guide's table goes by NPUs per node: 8 on an A2 server, 16 dies on an A3
  const npusPerNode = inventory.ok && inventory.devices.length > 0 ? inventory.devices.length : ctx.profile.npu.family === 'a3' ? 16 : 8;
  const { uses, problems } = gather(view, devices, npusPerNode, ctx.text.probes.launch);
  const evidence: Record<string, unknown> = {
    script: view.input.file,
    ports: uses.map((u) => ({ ports: range(u), what: u.what(english), line: u.line })),
  };
  if (extra) {
    problems.push(extra.problem);
    evidence.npuPortClash = extra.evidence;
  }

  // two roles on one port: the second bind fails
  const owners = new Map<number, PortUse>();
  for (const use of uses) {
    for (let p = use.port; p < use.port + use.count; p++) {
      const other = owners.get(p);
      if (other && other !== use) {
        const port = p;
        problems.push({ level: 'fail', text: (tt) => tt.bothRoles({ port, first: other.what(tt), second: use.what(tt) }), fix: (tt) => tt.moveOne({ at: use.line ? at(view, use.line) : null }) });
        break;
      }
      owners.set(p, use);
    }
  }

  const sockets = await listeningSockets(ctx);
  if (!sockets.ok) return error(t.noSockets({ problem: sockets.problem }), { remediation: t.noSocketsFix, evidence });
  const busy = sockets.sockets.filter((s) => owners.has(s.localPort)).sort((a, b) => a.localPort - b.localPort);
  if (busy.length > 0) {
    const holders = await socketOwners(ctx, new Set(busy.map((s) => s.inode)));
    const described = (tt: Text) => [...new Set(busy.map((s) => {
      const holder = holders.get(s.inode);
      return tt.busyPort({ port: s.localPort, what: owners.get(s.localPort)!.what(tt), holder: holder ? `pid ${holder.pid} ${holder.name}` : null });
    }))];
    const count = described(english).length;
    const first = holders.get(busy[0]!.inode);
    evidence.busy = busy.map((s) => ({ port: s.localPort, address: s.localAddress, owner: holders.get(s.inode) ?? null }));
    problems.unshift({
      level: 'fail',
      text: (tt) => tt.inUse({ count, script: view.name, ports: summarizeList(described(tt), 3, tt === english ? en.report.list : ctx.text.report.list) }),
      fix: (tt) =>
        first
          ? tt.killFix({ pid: first.pid, name: first.name, script: view.name })
          : tt.ssFix({ ports: [...new Set(busy.map((s) => s.localPort))].slice(0, 6).join('|'), script: view.name }),
    });
  }

  if (problems.length === 0) {
    if (uses.length === 0) return pass(t.noPorts({ script: view.name }), { evidence });
    return pass(t.free({ script: view.name, ports: uses.map((u) => `${range(u)} ${u.what(t)}`).join(', ') }), { evidence });
  }
  const failing = problems.filter((p) => p.level === 'fail');
  const ordered = [...failing, ...problems.filter((p) => p.level === 'warn')];
  const message = t.andMore({ first: ordered[0]!.text(t), more: ordered.length - 1 });
  const details = {
    expected: `free: ${formatRanges(uses.flatMap((u) => Array.from({ length: Math.min(u.count, 64) }, (_, i) => u.port + i)))}`,
    // for programs: English whatever the run's language
    actual: summarizeList(ordered.map((p) => p.text(english)), 2),
    remediation: [...new Set(ordered.map((p) => p.fix(t)))].join('\n'),
    evidence,
  };
  return failing.length > 0 ? fail(message, details) : warn(message, details);
}

// title, why, fix, reads and every message: src/i18n/*/checks/launch.ts
export default defineCheck({
  id: 'launch.ports',
  category: 'launch',
  order: 50,
  level: 'required',
  depth: 'quick',
  action: 'reconfigure',
  async run(ctx) {
    const view = await launchView(ctx);
    if (!view) return noLaunchScript(ctx);
    const views = await invocationViews(ctx, view);
    const clash = await clashProblem(ctx, view);
    const outcomes: Outcome[] = [];
    for (const each of views) outcomes.push(await judge(ctx, each, each === view ? clash : undefined));
    return worstOfInvocations(views, outcomes);
  },
});
