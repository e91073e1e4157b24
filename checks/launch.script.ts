import { fail, pass, skip, warn } from '../src/core/outcome.js';
import { defineCheck } from '../src/core/types.js';
import { at, describeInvocation, LAUNCH_REMEDIATION, launchView, NO_LAUNCH_SCRIPT, type LaunchView } from '../src/probes/launch.js';
import { plural, summarizeList } from '../src/util/text.js';

/**
 * Launchers that start no vLLM server themselves but belong to a deployment: the proxy of
 * vllm-ascend's prefill/decode examples (load_balance_proxy_server_example.py and its
 * layerwise variant) runs in front of the servers, and `ray start` joins a node to the Ray
 * cluster that a `vllm serve --distributed-executor-backend ray` on the head node uses.
 */
const KNOWN_LAUNCHERS: ReadonlyArray<{ name: string; matches(words: readonly string[]): boolean }> = [
  { name: "vllm-ascend's PD proxy", matches: (words) => words.slice(0, 3).some((word) => /(^|\/)load_balance_proxy\w*\.py$/.test(word)) },
  { name: 'ray start (a Ray cluster node)', matches: (words) => /(^|\/)ray$/.test(words[0] ?? '') && words[1] === 'start' },
];

function knownLauncher(commands: ReadonlyArray<{ line: number; fields: ReadonlyArray<{ text: string }> }>): { name: string; line: number } | undefined {
  for (const command of commands) {
    const words = command.fields.map((field) => field.text);
    const launcher = KNOWN_LAUNCHERS.find((known) => known.matches(words));
    if (launcher) return { name: launcher.name, line: command.line };
  }
  return undefined;
}

/** "; $1..$7 from launch.sh:3 (./run_dp_template.sh 0,1 9000 ...); 1 other invocation with other arguments judged only by ..." */
function argumentsRead(view: LaunchView): string {
  if (!view.arguments) return '';
  const { used, others } = view.arguments;
  const rest = others.length > 0 ? `; ${plural(others.length, 'other invocation')} with other arguments judged only by launch.devices and launch.ports (${summarizeList(others.map((o) => `${o.file}:${o.line}`), 3)})` : '';
  return `; $1..$${used.args.length} from ${describeInvocation(used)}${rest}`;
}

export default defineCheck({
  id: 'launch.script',
  title: 'Launch script readable, server command found',
  category: 'launch',
  level: 'required',
  why:
    'qprep reads the launch script instead of running it, and can only judge what it can read: a value built by ' +
    '$(hostname -I), a variable set inside an if, or a sourced file is only known when the script runs. This check ' +
    'says what the other launch checks could not see, and catches scripts bash itself would break on (Windows line ' +
    'ends, an unclosed quote) and the trailing backslash after the last flag that swallows the next line added below. ' +
    'A template whose values are its arguments ($1..$9) is read with the arguments of the first invocation found in ' +
    'the scripts given with it (a repeated --launch: `bash run_dp_template.sh 0,1,2,3 9000 4 0 ...`); the devices and ports of the others are judged too (launch.devices, launch.ports).',
  reads: ['the --launch script (never executed)'],
  fix: 'Write the values the script computes at run time literally, convert CRLF line ends (sed -i "s/\\r$//" SCRIPT), close the quote, remove the trailing backslash.',
  async run(ctx) {
    const view = await launchView(ctx);
    if (!view) return skip(NO_LAUNCH_SCRIPT, { remediation: LAUNCH_REMEDIATION });
    const { script, serve } = view;
    const notes = script.notes.map((n) => ({ line: n.line, severity: n.severity, construct: n.construct, message: n.message }));
    const evidence: Record<string, unknown> = {
      ...(view.arguments ? { arguments: { from: describeInvocation(view.arguments.used), notJudged: view.arguments.others.map(describeInvocation) } } : {}),
      script: view.input.file,
      from: view.input.from,
      lines: script.parsed.lines,
      serve: serve ? { line: serve.line, form: serve.form, model: serve.parsed.model?.text ?? null, flags: serve.parsed.flags.length } : null,
      notes,
    };
    const broken = script.notes.filter((n) => n.severity === 'error');
    if (broken.length > 0) {
      const first = broken[0]!;
      const fix =
        first.construct === 'crlf'
          ? `sed -i 's/\\r$//' ${view.input.file === '-' ? 'SCRIPT' : view.input.file}   # or: dos2unix`
          : `edit ${at(view, first.line)}: ${first.message}`;
      return fail(`${view.name} will not run as written: ${first.message}${broken.length > 1 ? ` (and ${plural(broken.length - 1, 'more problem')})` : ''}`, {
        expected: 'a script bash runs as written',
        actual: summarizeList(broken.map((n) => `line ${n.line}: ${n.construct}`), 3),
        remediation: fix,
        evidence,
      });
    }
    if (!serve) {
      const launcher = knownLauncher(script.commands);
      // a script given to judge that starts nothing qprep knows is the wrong script: judging
      // nothing in it must not read as a pass of the launch checks
      const verdict = launcher ? warn : fail;
      const what = launcher ? `runs ${launcher.name} (line ${launcher.line}), not a vLLM server` : 'starts no vLLM server';
      return verdict(`${view.name} ${what} (no "vllm serve" or "python -m vllm.entrypoints.openai.api_server"): its flags are not checked`, {
        expected: 'vllm serve MODEL --flag value ...',
        actual: `${plural(script.commands.length, 'command')}, none a vLLM server`,
        remediation: `give qprep the script that runs vllm serve on this node (qprep check --launch run.sh); a wrapper that builds the command at run time cannot be read`,
        evidence,
      });
    }
    const hazards = script.notes.filter((n) => n.severity === 'warning' && n.construct === 'trailing backslash');
    const unread = script.notes.filter((n) => n.severity === 'warning' && n.construct !== 'trailing backslash');
    if (hazards.length > 0 || unread.length > 0) {
      const parts: string[] = [];
      if (unread.length > 0) parts.push(`${plural(unread.length, 'part')} cannot be checked without running it (${summarizeList(unread.map((n) => `line ${n.line} ${n.construct}`), 3)})`);
      if (hazards.length > 0) parts.push(`${hazards.length === 1 ? `line ${hazards[0]!.line} ends` : `lines ${hazards.map((n) => n.line).join(', ')} end`} a command with a backslash before a blank line or the end of the file`);
      const lines = [
        ...unread.slice(0, 6).map((n) => `${at(view, n.line)}: ${n.message}`),
        ...hazards.map((n) => `${at(view, n.line)}: remove the backslash at the end of the line (a line added below it would become an argument of the command)`),
      ];
      if (unread.length > 6) lines.splice(6, 0, `... and ${unread.length - 6} more (see the evidence)`);
      return warn(`${view.name}: ${parts.join('; ')}`, {
        expected: 'values written literally, commands that end where they look like they end',
        actual: summarizeList([...unread, ...hazards].sort((a, b) => a.line - b.line).map((n) => `${n.construct} at line ${n.line}`), 4),
        remediation: lines.join('\n'),
        evidence,
      });
    }
    const model = serve.parsed.model ? ` ${serve.parsed.model.text}` : '';
    return pass(`${view.name}: ${serve.form}${model} at line ${serve.line} with ${plural(serve.parsed.flags.length, 'flag')}, ${plural(script.assignments.length, 'assignment')}; everything read${argumentsRead(view)}`, {
      evidence,
    });
  },
});
