import { fail, pass, skip, warn } from '../src/core/outcome.js';
import { defineCheck, type Outcome } from '../src/core/types.js';
import { booleanFlag } from '../src/parsers/vllm-args.js';
import { findJemalloc, LIBRARY } from '../src/probes/jemalloc.js';
import { describeVariable, LAUNCH_REMEDIATION, launchView, NO_LAUNCH_SCRIPT, parallelism, rootOf, type LaunchView } from '../src/probes/launch.js';
import type { ShellVariable } from '../src/parsers/launch-script.js';
import { summarizeList } from '../src/util/text.js';

/** Variables the runtime reads from the environment: set without export, they never reach vllm. */
const RUNTIME_VARIABLE = /^(HCCL_|ASCEND_|VLLM_|GLOO_|TP_SOCKET_IFNAME$|LD_PRELOAD$|LD_LIBRARY_PATH$|PYTORCH_NPU_|TASK_QUEUE_ENABLE$|OMP_|RAY_|CPU_AFFINITY_CONF$|MOONCAKE_)/;
const ARCH_TRIPLETS: Record<string, string> = { x86_64: 'x86_64-linux-gnu', aarch64: 'aarch64-linux-gnu' };
/** HCCL's own default, in MB (CANN environment-variable reference). */
const DEFAULT_HCCL_BUFFSIZE = 200;

const NOSET = 'RAY_EXPERIMENTAL_NOSET_ASCEND_RT_VISIBLE_DEVICES';
/** `echo performance | tee /sys/...`, `echo 0 > /proc/sys/...`, `sysctl -w`, `cpupower frequency-set` */
const HOST_MODIFYING = /\btee\b[^|;&]*\s\/(sys|proc\/sys)\/|>{1,2}\s*\/(sys|proc\/sys)\/|\bsysctl\s+(-w\b|-p\b|[\w.]+=)|\bcpupower\s+\S*-set\b/;

function hostModifyingLines(text: string): Array<{ line: number; text: string }> {
  const found: Array<{ line: number; text: string }> = [];
  text.split('\n').forEach((raw, index) => {
    const code = raw.replace(/(^|\s)#.*$/, '');
    if (HOST_MODIFYING.test(code)) found.push({ line: index + 1, text: raw.trim() });
  });
  return found;
}

interface Problem {
  level: 'fail' | 'warn';
  text: string;
  fix: string;
}

function where(view: LaunchView, variable: ShellVariable): string {
  const root = rootOf(variable);
  return root.line === null ? 'in the environment qprep runs in' : `${view.name} line ${root.line}`;
}

export default defineCheck({
  id: 'launch.env',
  title: "Launch script's environment variables",
  category: 'launch',
  level: 'required',
  why:
    'A few variables decide whether the server starts at all: LD_PRELOAD entries that do not exist for this ' +
    'architecture (ld.so prints "cannot be preloaded" in every process), HCCL_BUFFSIZE too small for expert-parallel ' +
    'dispatch ("HCCL_BUFFSIZE is too SMALL ... NEEDED_HCCL_BUFFSIZE"), RAY_EXPERIMENTAL_NOSET_ASCEND_RT_VISIBLE_DEVICES ' +
    'missing with the Ray backend (workers see no NPU; DistStoreError after 30 minutes), HCCL_CONNECT_TIMEOUT outside ' +
    '[120, 7200], and HCCL or vLLM variables assigned without export, which never reach vllm. ray start on an NPU ' +
    'node needs RAY_EXPERIMENTAL_NOSET_ASCEND_RT_VISIBLE_DEVICES=1 before it (tutorials/features/ray.md), whatever the ' +
    'server flags say; lines that write /sys or /proc/sys (echo | tee, sysctl -w) need a privileged container, or ' +
    'qprep tune on the host.',
  reads: ['the --launch script (never executed)', 'LD_PRELOAD paths', `${LIBRARY} locations`],
  fix: 'Apply the export line the check prints in the launch script.',
  async run(ctx) {
    const view = await launchView(ctx);
    if (!view) return skip(NO_LAUNCH_SCRIPT, { remediation: LAUNCH_REMEDIATION });
    const { arch } = await ctx.host.identity();
    const problems: Problem[] = [];
    const checked: string[] = [];
    const evidence: Record<string, unknown> = { script: view.input.file, arch };

    // LD_PRELOAD
    const preload = view.env.get('LD_PRELOAD');
    if (preload) {
      // $(uname -i) holds a blank: keep what was not evaluated in one piece while splitting
      const marked = preload.value.dynamic.reduce((text, part, i) => text.split(part).join(`\u0000${i}\u0000`), preload.value.text);
      const entries = marked.split(/[:\s]+/).filter(Boolean);
      const restore = (entry: string) => entry.replace(/\u0000(\d+)\u0000/g, (_, i: string) => preload.value.dynamic[Number(i)] ?? '');
      evidence.ldPreload = entries.map(restore);
      const jemalloc = await findJemalloc(ctx);
      const replacement = (entry: string) => (/jemalloc/.test(entry) && jemalloc.path ? jemalloc.path : undefined);
      for (const marker of entries) {
        const entry = restore(marker);
        if (marker.includes('\u0000')) {
          const better = replacement(entry);
          problems.push({ level: 'warn', text: `LD_PRELOAD entry ${entry} is computed at run time`, fix: `${where(view, preload)}: export LD_PRELOAD=${better ?? '<path>'}:$LD_PRELOAD   # written literally, so it can be checked` });
          continue;
        }
        if (!entry.startsWith('/')) continue;
        const foreign = Object.entries(ARCH_TRIPLETS).find(([a, triplet]) => a !== arch && entry.includes(`/${triplet}/`));
        const better = replacement(entry);
        const fix = `${where(view, preload)}: export LD_PRELOAD=${better ?? `<the ${entry.replace(/^.*\//, '')} of this host>`}:$LD_PRELOAD${better ? `   # ${LIBRARY} on this ${arch} host` : ''}`;
        if (foreign) {
          problems.push({ level: 'warn', text: `LD_PRELOAD entry ${entry} is for ${foreign[0]}, this host is ${arch}: ld.so skips it`, fix });
          continue;
        }
        const stat = await ctx.host.stat(entry);
        if (!stat.ok && stat.code === 'ENOTCAPTURED') {
          problems.push({ level: 'warn', text: `LD_PRELOAD entry ${entry} was not captured in the snapshot: whether it exists is unknown`, fix: `record the snapshot with this script (qprep snapshot --launch ${view.input.file})` });
          continue;
        }
        if (!stat.ok) {
          problems.push({ level: 'warn', text: `LD_PRELOAD entry ${entry} does not exist on this host: ld.so prints "cannot be preloaded" and runs without it`, fix });
          continue;
        }
        checked.push(`LD_PRELOAD ${entry}`);
      }
    }

    const serve = view.serve;
    const expertParallel = serve ? booleanFlag(serve.parsed, 'enable-expert-parallel') === true : false;
    const layout = serve ? parallelism(serve.parsed) : undefined;

    // HCCL_BUFFSIZE
    const buffsize = view.env.get('HCCL_BUFFSIZE');
    if (buffsize) {
      const text = buffsize.value.text.trim();
      evidence.hcclBuffsize = text;
      if (!buffsize.value.known) problems.push({ level: 'warn', text: `${describeVariable(view, buffsize)} is computed at run time`, fix: `${where(view, buffsize)}: export HCCL_BUFFSIZE=1024   # written literally` });
      else if (!/^\d+$/.test(text) || Number(text) < 1) {
        problems.push({ level: 'fail', text: `${describeVariable(view, buffsize)} is "${text}": HCCL needs a whole number of MB, at least 1`, fix: `${where(view, buffsize)}: export HCCL_BUFFSIZE=${expertParallel ? 1024 : DEFAULT_HCCL_BUFFSIZE}` });
      } else if (expertParallel && Number(text) < DEFAULT_HCCL_BUFFSIZE) {
        problems.push({ level: 'warn', text: `${describeVariable(view, buffsize)} is ${text} MB with --enable-expert-parallel: MoE dispatch/combine usually needs more than the 200 MB default`, fix: `${where(view, buffsize)}: export HCCL_BUFFSIZE=1024   # the guides use 512-2048 with expert parallelism` });
      } else checked.push(`HCCL_BUFFSIZE ${text}`);
    } else if (expertParallel) {
      problems.push({
        level: 'warn',
        text: `--enable-expert-parallel without HCCL_BUFFSIZE: HCCL uses 200 MB, and MoE dispatch/combine fails with "HCCL_BUFFSIZE is too SMALL" when it needs more`,
        fix: `export HCCL_BUFFSIZE=1024   # before vllm serve in ${view.name}; the guides use 512-2048 with expert parallelism`,
      });
    }

    // Ray needs the runtime to leave ASCEND_RT_VISIBLE_DEVICES alone
    if (layout?.backend === 'ray') {
      const noset = view.env.get(NOSET);
      if (!noset || noset.value.text.trim() !== '1') {
        problems.push({
          level: 'fail',
          text: `--distributed-executor-backend ray without RAY_EXPERIMENTAL_NOSET_ASCEND_RT_VISIBLE_DEVICES=1${noset ? ` (it is "${noset.value.text}")` : ''}: Ray workers see no NPU and the start times out`,
          fix: `export RAY_EXPERIMENTAL_NOSET_ASCEND_RT_VISIBLE_DEVICES=1   # in ${view.name} and before ray start on every node`,
        });
      } else checked.push('RAY_EXPERIMENTAL_NOSET_ASCEND_RT_VISIBLE_DEVICES=1');
    }

    // ray start on an NPU node: the Ray tutorial exports the variable before it, whatever the backend flag says
    const rayStarts = view.script.commands.filter((c) => c.fields[0]?.text.replace(/^.*\//, '') === 'ray' && c.fields[1]?.text === 'start');
    if (rayStarts.length > 0 && layout?.backend !== 'ray') {
      const first = rayStarts[0]!;
      const set = view.script.assignments.some((a) => a.name === NOSET && a.line < first.line && a.value.known && a.value.text.trim() === '1' && (a.exported || a.commandPrefix))
        || ctx.host.env()[NOSET]?.trim() === '1';
      if (!set) {
        problems.push({
          level: 'fail',
          text: `ray start at line ${first.line} without ${NOSET}=1 exported before it: Ray hides the NPUs from its workers (tutorials/features/ray.md sets it on every node)`,
          fix: `${view.name} line ${first.line}: export ${NOSET}=1   # before ray start, on every node`,
        });
      } else checked.push(`${NOSET}=1 before ray start`);
    }

    // lines that change the host: they need privileges a container does not have
    // a note, not a problem: in a privileged container, or on the host, they work
    const hostLines = hostModifyingLines(view.input.text);
    const hostNote =
      hostLines.length > 0
        ? `${hostLines.length === 1 ? 'line' : 'lines'} ${hostLines.map((l) => l.line).join(', ')} change the host (${hostLines[0]!.text.slice(0, 50)}): ` +
          'they need a privileged container (else "Read-only file system"), or qprep tune on the host instead'
        : undefined;
    if (hostLines.length > 0) evidence.hostModifying = hostLines;

    // HCCL_CONNECT_TIMEOUT: [120, 7200] s
    const connect = view.env.get('HCCL_CONNECT_TIMEOUT');
    if (connect?.value.known) {
      const text = connect.value.text.trim();
      if (!/^\d+$/.test(text)) problems.push({ level: 'fail', text: `${describeVariable(view, connect)} is "${text}", not a number of seconds`, fix: `${where(view, connect)}: export HCCL_CONNECT_TIMEOUT=1200` });
      else if (Number(text) < 120 || Number(text) > 7200) {
        problems.push({ level: 'warn', text: `${describeVariable(view, connect)} is ${text} s, outside HCCL's range [120, 7200]`, fix: `${where(view, connect)}: export HCCL_CONNECT_TIMEOUT=${Math.min(7200, Math.max(120, Number(text)))}` });
      } else checked.push(`HCCL_CONNECT_TIMEOUT ${text}`);
    }

    // assigned, never exported
    const notExported = [...view.script.variables.values()].filter((v) => v.line !== null && !v.exported && RUNTIME_VARIABLE.test(v.name) && !view.env.has(v.name));
    for (const variable of notExported) {
      problems.push({ level: 'warn', text: `${variable.name} is set at line ${variable.line} but never exported: vllm does not see it`, fix: `${view.name} line ${variable.line}: export ${variable.name}=...` });
    }
    evidence.notExported = notExported.map((v) => v.name);

    evidence.problems = problems.map((p) => `${p.level}: ${p.text}`);
    if (problems.length === 0) {
      const judged = checked.length > 0 ? `${view.name}: ${summarizeList(checked, 4)}` : `${view.name} sets nothing qprep judges here (LD_PRELOAD, HCCL_BUFFSIZE, Ray, HCCL_CONNECT_TIMEOUT)`;
      return pass(hostNote ? `${judged}; note: ${hostNote}` : judged, { evidence });
    }
    const failing = problems.filter((p) => p.level === 'fail');
    const ordered = [...failing, ...problems.filter((p) => p.level === 'warn')];
    const details = {
      expected: 'every preloaded library present, HCCL_BUFFSIZE with expert parallelism, runtime variables exported',
      actual: summarizeList(ordered.map((p) => p.text), 2),
      remediation: [...new Set(ordered.map((p) => p.fix)), ...(hostNote ? [`note: ${hostNote}`] : [])].join('\n'),
      evidence,
    };
    const message = `${ordered[0]!.text}${ordered.length > 1 ? ` (and ${ordered.length - 1} more)` : ''}`;
    const outcome: Outcome = failing.length > 0 ? fail(message, details) : warn(message, details);
    return outcome;
  },
});
