import { fail, pass, warn } from '../src/core/outcome.js';
import type { CheckContext } from '../src/core/types.js';
import { defineCheck } from '../src/core/define-check.js';
import { ruleEvidence, type RuleJudgement } from '../src/knowledge/judge.js';
import { at, describeInvocation, launchView, noLaunchScript, type LaunchView } from '../src/probes/launch.js';
import { launchRule, ruleNote } from '../src/probes/launch-rules.js';
import { plural, summarizeList } from '../src/util/text.js';

/**
 * Launchers that start no vLLM server themselves but belong to a deployment: the proxy of
 * vllm-ascend's prefill/decode examples (load_balance_proxy_server_example.py and its
 * layerwise variant) runs in front of the servers, `ray start` joins a node to the Ray
 * cluster that a `vllm serve --distributed-executor-backend ray` on the head node uses, and
 * launch_online_dp.py (rule launcher.launch-online-dp) starts one run_dp_template.sh per local
 * data-parallel rank.
 */
const KNOWN_LAUNCHERS: ReadonlyArray<{ name: string; rule?: string; matches(words: readonly string[]): boolean }> = [
  { name: "vllm-ascend's PD proxy", matches: (words) => words.slice(0, 3).some((word) => /(^|\/)load_balance_proxy\w*\.py$/.test(word)) },
  { name: 'ray start (a Ray cluster node)', matches: (words) => /(^|\/)ray$/.test(words[0] ?? '') && words[1] === 'start' },
  // vllm-ascend's external data-parallel launcher: it runs ./run_dp_template.sh once per local DP rank
  { name: 'launch_online_dp.py', rule: 'launcher.launch-online-dp', matches: (words) => words.slice(0, 3).some((word) => /(^|\/)launch_online_dp\.py$/.test(word)) },
];

interface FoundLauncher {
  name: string;
  line: number;
  /** the rule that describes it, judged for the installed release */
  judged?: RuleJudgement;
}

async function knownLauncher(ctx: CheckContext, view: LaunchView): Promise<FoundLauncher | undefined> {
  for (const command of view.script.commands) {
    const words = command.fields.map((field) => field.text);
    const launcher = KNOWN_LAUNCHERS.find((known) => known.matches(words));
    if (!launcher) continue;
    if (!launcher.rule) return { name: launcher.name, line: command.line };
    const judged = await launchRule(ctx, launcher.rule);
    // a release the launcher did not exist in: an unknown command, as any other
    if (judged.verdict) return { name: launcher.name, line: command.line, judged };
  }
  return undefined;
}

/** "; $1..$7 from launch.sh:3 (./run_dp_template.sh 0,1 9000 ...)": where the template's arguments come from */
function argumentsRead(t: Text, view: LaunchView): string {
  if (!view.arguments) return '';
  const { used, others } = view.arguments;
  return t.argumentsFrom({ last: used.args.length, invocation: describeInvocation(used), others: others.length, where: summarizeList(others.map((o) => `${o.file}:${o.line}`), 3) });
}

type Text = CheckContext['text']['checks']['launch.script'];

/** Notes the evidence lists: a script of thousands of `$(...)` has a note for each; the evidence counts them all. */
const LISTED_NOTES = 100;

// title, why, fix, reads and every message: src/i18n/*/checks/launch.ts
export default defineCheck({
  id: 'launch.script',
  category: 'launch',
  order: 10,
  level: 'required',
  depth: 'quick',
  action: 'reconfigure',
  async run(ctx) {
    const t = ctx.text.checks['launch.script'];
    const view = await launchView(ctx);
    if (!view) return noLaunchScript(ctx);
    const { script, serve } = view;
    const notes = script.notes.slice(0, LISTED_NOTES).map((n) => ({ line: n.line, severity: n.severity, construct: n.construct, message: n.message }));
    const evidence: Record<string, unknown> = {
      ...(view.arguments ? { arguments: { from: describeInvocation(view.arguments.used), notJudged: view.arguments.others.map(describeInvocation) } } : {}),
      script: view.input.file,
      from: view.input.from,
      lines: script.parsed.lines,
      serve: serve ? { line: serve.line, form: serve.form, model: serve.parsed.model?.text ?? null, flags: serve.parsed.flags.length } : null,
      notes,
      ...(script.notes.length > LISTED_NOTES ? { noteCount: script.notes.length } : {}),
    };
    const broken = script.notes.filter((n) => n.severity === 'error');
    if (broken.length > 0) {
      const first = broken[0]!;
      const fix =
        first.construct === 'crlf'
          ? `sed -i 's/\\r$//' ${view.input.file === '-' ? 'SCRIPT' : view.input.file}   # or: dos2unix`
          : t.brokenFix({ at: at(view, first.line), message: first.message });
      return fail(t.broken({ script: view.name, message: first.message, more: broken.length - 1 }), {
        expected: 'a script bash runs as written',
        actual: summarizeList(broken.map((n) => `line ${n.line}: ${n.construct}`), 3),
        remediation: fix,
        evidence,
      });
    }
    if (!serve) {
      const launcher = await knownLauncher(ctx, view);
      if (launcher?.judged) {
        // launch_online_dp.py: the server and its values are in the template it runs
        const judged = launcher.judged;
        return warn(t.runsDpLauncher({ script: view.name, line: launcher.line, rule: ruleNote(judged, ctx.text.probes.launch) }), {
          expected: 'vllm serve MODEL --flag value ...',
          actual: `${plural(script.commands.length, 'command')}, launch_online_dp.py at line ${launcher.line}`,
          remediation: t.dpLauncherFix,
          evidence: { ...evidence, ...ruleEvidence(judged) },
        });
      }
      // a script given to judge that starts nothing qprep knows is the wrong script: judging
      // nothing in it must not read as a pass of the launch checks
      const verdict = launcher ? warn : fail;
      const what = launcher ? t.runsLauncher({ launcher: launcher.name, line: launcher.line }) : t.startsNoServer;
      return verdict(t.noServer({ script: view.name, what }), {
        expected: 'vllm serve MODEL --flag value ...',
        actual: `${plural(script.commands.length, 'command')}, none a vLLM server`,
        remediation: t.noServerFix,
        evidence,
      });
    }
    const hazards = script.notes.filter((n) => n.severity === 'warning' && n.construct === 'trailing backslash');
    const unread = script.notes.filter((n) => n.severity === 'warning' && n.construct !== 'trailing backslash');
    if (hazards.length > 0 || unread.length > 0) {
      const parts: string[] = [];
      if (unread.length > 0) parts.push(t.unreadParts({ count: unread.length, parts: summarizeList(unread.map((n) => `line ${n.line} ${n.construct}`), 3, ctx.text.report.list) }));
      if (hazards.length > 0) parts.push(t.hazardLines({ lines: hazards.map((n) => n.line) }));
      const lines = [
        ...unread.slice(0, 6).map((n) => `${at(view, n.line)}: ${n.message}`),
        ...hazards.slice(0, 6).map((n) => t.removeBackslash({ at: at(view, n.line) })),
      ];
      if (unread.length > 6) lines.splice(6, 0, t.andMore({ count: unread.length - 6 }));
      if (hazards.length > 6) lines.push(t.andMore({ count: hazards.length - 6 }));
      return warn(t.unread({ script: view.name, parts: parts.join('; ') }), {
        expected: 'values written literally, commands that end where they look like they end',
        actual: summarizeList([...unread, ...hazards].sort((a, b) => a.line - b.line).map((n) => `${n.construct} at line ${n.line}`), 4),
        remediation: lines.join('\n'),
        evidence,
      });
    }
    return pass(
      t.allRead({ script: view.name, form: serve.form, model: serve.parsed.model?.text ?? '', line: serve.line, flags: serve.parsed.flags.length, assignments: script.assignments.length, arguments: argumentsRead(t, view) }),
      { evidence },
    );
  },
});
