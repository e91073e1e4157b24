import { plural } from '../../util/text.js';

/** The error documents' message and hint, the usage errors, and the runner's own results (codes never change). */
export const errors = {
  /** a check that did not end within its watchdog */
  checkTimedOut: (p: { id: string; budgetMs: number }) => `${p.id} did not finish within ${p.budgetMs} ms`,
  largerTimeout: (p: { id: string }) =>
    `re-run with a larger --timeout; if it persists, capture the host with "qprep snapshot -o snap.json --only ${p.id}" and report it`,
  internalError: (p: { id: string; reason: string }) => `internal error in ${p.id}: ${p.reason}`,
  reportInternal: (p: { id: string }) => `please report this with "qprep snapshot -o snap.json --only ${p.id}" attached`,
  /** a check still running when a signal came */
  unfinished: (p: { signal: string }) => `did not finish: qprep was interrupted by ${p.signal}`,
  runAgain: "run qprep check again and let it finish (every probe is bounded by --timeout; give the caller's own timeout more than that)",
  interruptedChecks: (p: { signal: string; unfinished: number; total: number }) =>
    `interrupted by ${p.signal}: ${p.unfinished} of ${plural(p.total, 'check')} did not finish; no verdict`,
  interruptedReport: (p: { signal: string }) => `interrupted by ${p.signal} after the checks, before the report was complete; no verdict`,
  nothingAssessed: (p: { count: number }) =>
    `all ${p.count} selected ${p.count === 1 ? 'check was' : 'checks were'} skipped: nothing was assessed; no verdict`,
  nothingAssessedHint: 'select checks that apply to this host, or give the inputs they need (--launch, --cluster); each skip says why',
  /** the command line's own usage errors */
  positiveInteger: (p: { flag: string; value: string }) => `${p.flag} expects a positive integer, got "${p.value}"`,
  duration: (p: { flag: string; value: string }) => `${p.flag} expects a duration such as 10s, 500ms or 2m, got "${p.value}"`,
  /** a bare number: 10 ms or 10 s? the unit is asked for, never guessed */
  durationUnit: (p: { flag: string; value: string }) => `${p.flag} ${p.value}: a duration needs its unit (ms, s, m, h or d)`,
  durationMinimum: (p: { flag: string; value: string; minimum: string }) => `${p.flag} ${p.value} is shorter than the minimum of ${p.minimum}`,
  /** over 2^31-1 ms a Node timer fires at once: the maximum is exact, written as the option takes it */
  durationMaximum: (p: { flag: string; value: string; maximum: string }) => `${p.flag} ${p.value} is longer than the maximum of ${p.maximum} (2^31-1 ms), the longest a timer can wait`,
  /** -o json without -f: the name of a format given where a file name goes */
  outputIsAFormat: (p: { value: string }) => `-o ${p.value} would write to a file named "${p.value}": -o (--output) takes a file, -f (--format) the format (for a file of that name: -o ./${p.value})`,

  didYouMean: (p: { name: string }) => `did you mean "${p.name}"?`,
  seeHelp: 'run "qprep --help" (or "qprep COMMAND --help") for usage',
  unknownCheck: (p: { id: string }) => `unknown check "${p.id}"`,
  /** qprep explain ID: neither a check nor a rule of knowledge/ */
  unknownExplainable: (p: { id: string }) => `unknown check, rule or fault code "${p.id}"`,
  listShowsIdsAndRules: 'qprep list shows every check id; the rules are in knowledge/rules.json and knowledge/quantization.json, the fault codes in knowledge/fault-codes.json',
  listShowsIds: 'qprep list shows every check id',
  unknownProfile: (p: { name: string }) => `unknown profile "${p.name}"`,
  listShowsProfiles: 'qprep list --profiles shows the built-in profiles (or give a YAML/JSON file)',
  /** the path options, judged before anything runs; `kind` is one of pathKinds */
  pathKinds: { 'regular file': 'regular file', directory: 'directory', FIFO: 'FIFO', 'character device': 'character device', 'block device': 'block device', socket: 'socket', 'special file': 'special file' } as Record<string, string>,
  pathEmpty: (p: { flag: string }) => `${p.flag} expects a path, got an empty value`,
  pathNotFile: (p: { flag: string; value: string; kind: string }) => `${p.flag} ${p.value}: it is a ${p.kind}, not a regular file`,
  pathNoDirectory: (p: { flag: string; value: string }) => `${p.flag} ${p.value}: no such directory`,
  pathNotDirectory: (p: { flag: string; value: string; kind: string }) => `${p.flag} ${p.value}: it is a ${p.kind}, not a directory`,
  outputNotFile: (p: { flag: string; value: string; kind: string }) => `${p.flag} ${p.value}: it is a ${p.kind}, not a regular file (use - for standard output)`,
  outputNoParent: (p: { flag: string; value: string; dir: string }) => `${p.flag} ${p.value}: directory ${p.dir} does not exist`,
  outputParentNotDirectory: (p: { flag: string; value: string; dir: string }) => `${p.flag} ${p.value}: ${p.dir} is not a directory`,
  stdinTwice: (p: { flag: string }) => `${p.flag} - is given twice: standard input can be read once`,
  operandEmpty: 'aggregate: a report operand is an empty path',
  operandKind: (p: { operand: string; kind: string }) => `aggregate: ${p.operand}: it is a ${p.kind}, not a report file or a directory`,
  /** --only, --skip, --ignore: a token that names no check and no category */
  unknownSelector: (p: { flag: string; token: string }) => `${p.flag}: unknown check or category "${p.token}"`,
  selectorChoices: (p: { names: string }) => `the choices here: ${p.names}`,
  listShowsSelectors: (p: { categories: string }) => `qprep list shows every check id and category (${p.categories})`,
  /** an --output file whose reader will not see it under that name (a .prom file for node_exporter) */
  outputSuffix: (p: { reader: string; suffix: string }) => `${p.reader} reads only files named *${p.suffix}`,
};
