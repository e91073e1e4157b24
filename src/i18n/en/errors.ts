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

  /**
   * The input files: a profile, a snapshot, a launch script, a cluster file, reports. `detail`
   * and `reason` are a parser's or the system's words, quoted as they are (English).
   */
  inputs: {
    /** what an input is, as the messages name it */
    names: {
      profile: 'profile',
      snapshot: 'snapshot',
      'launch script': 'launch script',
      'launch script from standard input': 'launch script from standard input',
      cluster: 'cluster',
      report: 'report',
      'standard input': 'standard input',
    },
    /** over the cap a reader names: "2000000 bytes, over the 1048576 bytes (1 MiB) qprep reads of a launch script" */
    overCap: (p: { bytes: number | null; max: number; size: string; of: string }) => `${p.bytes === null ? '' : `${p.bytes} bytes, `}over the ${p.max} bytes (${p.size}) qprep reads of a ${p.of}`,
    fromStandardInput: 'from standard input',
    elfExecutable: 'an ELF executable',
    binaryFile: 'a binary file (it holds NUL bytes)',
    cannotRead: (p: { what: string; path: string; reason: string }) => `cannot read ${p.what} ${p.path}: ${p.reason}`,
    cannotReadPath: (p: { path: string; reason: string }) => `cannot read ${p.path}: ${p.reason}`,
    cannotReadStream: (p: { what: string; reason: string }) => `cannot read ${p.what}: ${p.reason}`,
    cannotList: (p: { path: string; reason: string }) => `cannot list ${p.path}: ${p.reason}`,
    cannotExamine: (p: { path: string; reason: string }) => `cannot examine ${p.path}: ${p.reason}`,
    notRegularFile: (p: { kind: string }) => `it is a ${p.kind}, not a regular file`,
    notFileOrPipe: (p: { kind: string }) => `it is a ${p.kind}, not a regular file or a pipe`,
    largerThan: (p: { size: string }) => `larger than ${p.size}`,
    noSuchFile: 'no such file',
    noSuchFileOrDirectory: 'no such file or directory',
    permissionDenied: 'permission denied',
    isDirectory: 'it is a directory',
    wouldWait: 'no data can be read from it without waiting',

    invalidProfile: (p: { file: string; detail: string }) => `invalid profile ${p.file}: ${p.detail}`,
    profileNotYaml: (p: { file: string; reason: string }) => `invalid profile ${p.file}: not valid YAML or JSON: ${p.reason}`,
    profileNotMapping: (p: { file: string }) => `invalid profile ${p.file}: expected a mapping of profile fields at the top level`,
    profileExtends: (p: { file: string; reason: string }) => `invalid profile ${p.file}: extends: ${p.reason}`,
    profileCycle: (p: { name: string; through: string }) => `profile "${p.name}" extends itself through ${p.through}`,
    /** a profile's `extends` names a built-in profile only */
    listShowsBuiltinProfiles: 'qprep list --profiles shows the built-in profiles',
    invalidSnapshot: (p: { file: string; detail: string }) => `invalid snapshot ${p.file}: ${p.detail}`,
    snapshotNotJson: (p: { file: string; reason: string }) => `invalid snapshot ${p.file}: not JSON: ${p.reason}`,
    invalidCluster: (p: { file: string; detail: string }) => `invalid cluster ${p.file}: ${p.detail}`,
    invalidReport: (p: { source: string; detail: string }) => `invalid report ${p.source}: ${p.detail}`,
    launchFromTerminal: 'cannot read the launch script from standard input: it is a terminal (pipe the script in, or give its path)',
    launchOverBytes: (p: { name: string; bytes: number; max: number }) => `cannot read launch script ${p.name}: ${p.bytes} bytes, over the ${p.max} bytes (1 MiB) qprep reads of a launch script`,
    launchOverTokens: (p: { name: string; cap: string }) => `cannot read launch script ${p.name}: more than ${p.cap}, the most qprep reads of a launch script`,
    launchNotBash: (p: { name: string; what: string }) => `cannot read launch script ${p.name}: it is ${p.what}, not a bash script (give the script that runs vllm serve)`,
    noReportFiles: (p: { operand: string }) => `cannot read reports from ${p.operand}: no *.json file in it`,
    noReport: 'no report in the input',
  },
  /** usage errors of the commands themselves (the options' own are above) */
  usage: {
    verboseQuiet: '--verbose and --quiet contradict each other: give one',
    /** `flags`: "--only npu --skip npu" (may be empty); `profileSkip`: the profile's skip list, "" when it has none */
    noCheckSelected: (p: { flags: string; profileSkip: string }) => {
      const because = p.profileSkip !== '' ? `${p.flags} and the profile's skip list (${p.profileSkip})` : p.flags;
      const one = p.flags !== '' && p.flags.split(' --').length === 1 && p.profileSkip === '';
      return `no check selected: ${because || "the profile's skip list"} leave${one ? 's' : ''} nothing to run`;
    },
    onlyEmpty: 'no check selected: --only is empty',
    launchStdinTwice: '--launch - is given twice: standard input can be read once',
    rootAndSnapshot: '--root and --snapshot cannot be combined: a snapshot carries its own root',
    nodeNeedsCluster: '--node needs --cluster FILE',
    launchNeeded: 'the launch checks need a script: add --launch FILE (or --launch - to read it from standard input)',
    aggregateNeedsReports: 'aggregate needs reports: files, a directory of them, or - to read standard input',
    stdinOnce: '"-" (standard input) can be given once',
    unknownDocument: (p: { name: string }) => `unknown document "${p.name}"`,
    theSchemas: (p: { names: string }) => `the schemas: ${p.names}`,
    interruptedBeforeChecks: (p: { signal: string }) => `interrupted by ${p.signal} before the checks ran; no verdict`,
    interruptedBeforeRecording: (p: { signal: string }) => `interrupted by ${p.signal} before the checks ran; nothing was recorded`,
    /** a profile's levels, skip, ignore or waivers naming a check that does not exist */
    unknownProfileId: (p: { where: string; field: string; what: string; id: string; near: string | null }) =>
      `invalid profile ${p.where}: ${p.field}: unknown ${p.what} "${p.id}"${p.near !== null ? ` (did you mean "${p.near}"?)` : '; qprep list names every check'}`,
    builtinProfile: (p: { name: string }) => `built-in profile ${p.name}`,
    snapshotReadOnly: (p: { command: string }) => `a snapshot is read-only: add --dry-run to see what ${p.command} would do on the host it was taken on`,
    noTunableCheck: (p: { selection: string }) => `no check selected: ${p.selection} leave no check that tunes`,
    theProfileSkipList: "the profile's skip list",
    serveLaunchStdin: 'qprep serve cannot read --launch from standard input: it reads the script at every run; give its path',
    deepEveryWithDeep: '--deep-every runs deep now and then between runs at --depth quick or standard; with --depth deep every run is deep already',
    nfdFeaturesStdout: '--nfd-features takes the feature file to write, not standard output',
    annotateNotNode: (p: { value: string; problem: string }) => `--annotate ${p.value}: not a node name: ${p.problem}`,
    annotateOutsidePod: '--annotate needs the in-cluster API server: KUBERNETES_SERVICE_HOST and KUBERNETES_SERVICE_PORT are not set (run qprep serve in a pod with a ServiceAccount)',
    cannotListen: (p: { address: string; reason: string }) => `cannot listen on ${p.address}: ${p.reason}`,
    addressInUse: 'the address is already in use',
    addressNotHere: 'no interface of this host has that address',
    listenFormat: (p: { value: string }) => `--listen expects ADDRESS:PORT (127.0.0.1:9105, [::1]:9105, 0.0.0.0:9105), got "${p.value}"`,
    listenNotAddress: (p: { host: string }) => `--listen: "${p.host}" is not an IPv4 address or a bracketed IPv6 address ([::1]:9105); hostnames are not resolved`,
    allowHostInvalid: (p: { value: string }) => `--allow-host ${p.value}: not a host name or an address (node7, node7.example.com, 10.0.0.11, [fd00::1]), nor '*'`,
    allowHostEmpty: '--allow-host expects a host name or an address, got an empty value',
    budgetOverInterval: (p: { budget: string; interval: string }) => `--budget ${p.budget} is longer than --interval ${p.interval}: a run would still be going when the next one is due`,
  },
  /** the lock of tune and rollback (one at a time per host tree); `owner` is `"tune" (pid 41 on node7, since ...)` */
  lock: {
    needsRoot: ' (tune and rollback need root)',
    cannotCreateDir: (p: { dir: string; reason: string; asRoot: string }) => `cannot create ${p.dir}: ${p.reason}${p.asRoot}; nothing was changed`,
    cannotCreate: (p: { reason: string; asRoot: string }) => `cannot create the lock: ${p.reason}${p.asRoot}; nothing was changed`,
    heldHere: (p: { owner: string; path: string }) => `another qprep is changing this host: ${p.owner} holds ${p.path}; wait for it to finish`,
    heldElsewhere: (p: { owner: string; path: string }) => `${p.path} is held by ${p.owner}, another machine using this tree; remove the file if that run is gone`,
    takenWhileClearing: (p: { path: string }) => `another qprep took ${p.path} while a stale lock was being cleared; run again`,
    keepsChanging: (p: { path: string }) => `cannot take ${p.path}: it keeps changing; another qprep is running`,
  },
  /** an --output file (or -o) that cannot be written; `reason` is the system's words */
  output: {
    cannotWrite: (p: { file: string; reason: string }) => `cannot write ${p.file}: ${p.reason}`,
    notADirectory: (p: { dir: string }) => `${p.dir} is not a directory`,
    noDirectory: (p: { dir: string }) => `directory ${p.dir} does not exist`,
    isDirectory: 'it is a directory',
    isLink: (p: { target: string }) => `it is a symbolic link (to ${p.target}); qprep writes no output through a link: remove it, or name the file itself`,
  },
};
