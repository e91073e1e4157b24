import type { Action } from '../../core/ids/actions.js';
import type { Category } from '../../core/ids/categories.js';
import { plural } from '../../util/text.js';

/** The human report and the words the formatters share. */
export const report = {
  /** a list in a one-line message (summarizeList): "a, b, c and 4 more" */
  list: {
    separator: ', ',
    andMore: (p: { list: string; more: number }) => `${p.list} and ${p.more} more`,
  },
  /** between the clauses of one message: "a: 1 free; b: 2 free" */
  clauseSeparator: '; ',
  /** a remark after a message: " (x)"; Chinese puts it in full-width parentheses */
  aside: (p: { text: string }) => ` (${p.text})`,
  /** between the counts of the summary line */
  countSeparator: ', ',
  /** the headings of the report's groups (their ids and their order: src/core/ids/categories.ts) */
  categories: {
    tuning: 'Host tuning',
    host: 'Host resources',
    network: 'Host network',
    npu: 'NPU and driver',
    hccn: 'HCCN network and cluster',
    launch: 'Launch and model',
  } satisfies Record<Category, string>,
  /** the status column of the human report; the JSON keeps pass, warn, fail, skip, error */
  statuses: { pass: 'pass', warn: 'warn', fail: 'fail', skip: 'skip', error: 'error' },
  levels: { required: 'required', recommended: 'recommended' },
  /** what each action asks of the operator; the JSON keeps the action's id (none, monitor, ...) */
  actions: {
    none: 'nothing to do on the host',
    monitor: 'keep serving and watch it',
    reconfigure: 'change what the fix names',
    'restart-workload': 'stop or re-run the workload',
    'reset-npu': 'reset the chip, the workload stopped first',
    'isolate-npu': 'take the chip out of service',
    'replace-part': 'reseat or replace the part',
  } satisfies Record<Action, string>,
  /** the label of a result's action line, as wide as fix: and or: allow */
  actionLabel: 'action:',
  actionLine: (p: { action: string; meaning: string }) => `${p.action} (${p.meaning})`,
  /** after the counts of the summary line, when a result asks for an action */
  worstAction: (p: { action: string }) => ` · worst action: ${p.action}`,
  /** the labels of a remediation's lines: the first command, then each alternative */
  fixLabel: 'fix:',
  orLabel: 'or:',
  moreDetails: (p: { more: number }) => `... and ${p.more} more (--format json has them all)`,
  waived: (p: { reason: string; expires: string | null }) => `waived: ${p.reason}${p.expires ? `, until ${p.expires}` : ''}`,
  ignoredWithFlag: 'ignored with --ignore',
  waiverExpired: (p: { reason: string }) => `the waiver "${p.reason}" no longer applies`,
  /** qprep serve: a result carried from the last deep run */
  observedAt: (p: { at: string }) => `observed by the last deep run, ${p.at}`,
  waiverRefused: 'waiver not applied: error means could not assess; use --skip',
  waiverExpiredMessage: (p: { message: string; expires: string }) => `${p.message} (waiver expired ${p.expires})`,
  waivedFailures: (p: { count: number; how: string; ids: string }) =>
    ` with ${p.count} required ${p.count === 1 ? 'failure' : 'failures'} waived (${p.how}): ${p.ids}`,
  waiverSources: { ignore: '--ignore', profile: 'profile waivers' },
  causedBy: (p: { id: string }) => ` (caused by ${p.id})`,
  couldNotRun: 'could not run',
  followFromIt: 'follow from it',
  dependants: (p: { count: number; how: string; ids: string }) => `${plural(p.count, 'check')} ${p.how} because of it: ${p.ids}`,
  elsewhereCount: (p: { count: number; how: string }) => `${p.count} ${p.how}`,
  elsewhereCause: (p: { cause: string; ids: string }) => `because of ${p.cause}: ${p.ids}`,
  passed: (p: { count: number }) => `${p.count} passed:`,
  skipped: (p: { count: number }) => `${p.count} skipped:`,
  header: {
    kernel: (p: { kernel: string }) => `kernel ${p.kernel}`,
    inContainer: (p: { runtime: string | null }) => `in a container (${p.runtime ?? 'unknown runtime'})`,
    notInContainer: 'not in a container',
    snapshot: (p: { file: string; createdAt: string }) => `snapshot ${p.file} (recorded ${p.createdAt})`,
    liveHost: 'live host',
    liveHostUnder: (p: { root: string }) => `live host, files under ${p.root}; commands (npu-smi, hccn_tool) run from qprep's own environment, not from ${p.root}`,
    profile: (p: { name: string; source: string; where: string }) => `profile ${p.name} (${p.source}) · ${p.where}`,
    cluster: (p: { file: string; self: string; nodes: number; evidence: string; plan: string }) =>
      `cluster ${p.file}: ${p.self}, one of ${plural(p.nodes, 'node')} (found by ${p.evidence}) · plan ${p.plan}`,
    note: 'note:',
    serve: (p: { form: string; model: string | null; line: number }) => `${p.form}${p.model ? ` ${p.model}` : ''} at line ${p.line}`,
    noServe: 'no vLLM server command',
    launch: (p: { file: string | null; recorded: boolean; serve: string }) =>
      `launch script ${p.file === null ? 'from stdin' : p.file}${p.recorded ? ' (recorded in the snapshot)' : ''}: ${p.serve}`,
    /** the installed stack (report.stack): product names and versions as read, joined by partSeparator */
    stack: (p: { parts: string }) => `stack ${p.parts}`,
    stackParts: {
      partSeparator: ' · ',
      builtFor: (p: { version: string; type: string }) => `${p.version} (built for ${p.type})`,
      notFound: (p: { name: string }) => `${p.name} not found`,
      withComponents: (p: { version: string; components: string }) => `${p.version} (${p.components})`,
      componentSeparator: ', ',
    },
  },
  summary: (p: { checks: number; counts: string; duration: string }) => `${plural(p.checks, 'check')}: ${p.counts} · ${p.duration}`,
  summaryCount: (p: { count: number; status: string }) => `${p.count} ${p.status}`,
  seconds: (p: { seconds: string }) => `${p.seconds} s`,
  verboseHint: ' · -v shows every check',
  couldNotAssess: ' (could not assess)',
  blockingUnderStrict: ' (a warning, blocking under --strict)',
  rootWithDependants: (p: { root: string; count: number; how: string }) => `${p.root}: ${plural(p.count, 'check')} ${p.how}`,
  leftProcesses: (p: { tool: string; processes: number; calls: number; first: string }) =>
    `${p.tool} left ${p.processes} ${p.processes === 1 ? 'process' : 'processes'} running outside its process group after ${plural(p.calls, 'call')} ("${p.first}" first); qprep killed them`,
  noVerdict: 'NO VERDICT',
  allSkipped: (p: { count: number }) => `all ${plural(p.count, 'selected check')} ${p.count === 1 ? 'was' : 'were'} skipped`,
  interruptedBy: (p: { signal: string }) => `interrupted by ${p.signal}`,
  ready: 'READY',
  npdReady: (p: { checks: number; warnings: number }) => `${plural(p.checks, 'check')}, none blocking${p.warnings > 0 ? `, ${plural(p.warnings, 'warning')}` : ''}`,
  notReady: 'NOT READY',
  warningsNote: (p: { count: number }) => ` (${plural(p.count, 'warning')}; --strict would refuse them)`,
  problems: (p: { count: number; list: string }) => `${plural(p.count, 'problem')} (${p.list})`,
};
