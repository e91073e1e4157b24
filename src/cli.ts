import { Command, CommanderError, Option } from 'commander';
import { parseTimeout } from './util/duration.js';
import { closest } from './util/suggest.js';
import { validatePathOptions, validateReportOperands } from './app/path-options.js';
import { claimDocument, describeRun, holdSignals, routeSignals, runIdentity } from './app/signals.js';
import { VERSION } from './version.js';

/**
 * Commander wiring only: every action imports its implementation lazily, so that
 * `qprep --version` and `--help` load nothing but commander.
 */

export interface Exit {
  code: number;
}

function collect(value: string, previous: string[]): string[] {
  return [...previous, value];
}

function positiveInt(flag: string) {
  return (value: string): number => {
    if (!/^\d+$/.test(value) || Number(value) <= 0) {
      throw new CommanderError(2, 'qprep.usage', `${flag} expects a positive integer, got "${value}"`);
    }
    return Number(value);
  };
}

/** --timeout and the other durations: 10s, 500ms, 2m; a bare number is milliseconds, as it always was. */
function duration(flag: string) {
  return (value: string): number => {
    const ms = parseTimeout(value);
    if (ms === undefined) throw new CommanderError(2, 'qprep.usage', `${flag} expects a duration such as 10s, 500ms or 2m (a bare number is milliseconds), got "${value}"`);
    return ms;
  };
}

function formatOption(formats: string[]): Option {
  return new Option('-f, --format <format>', 'output format').choices(formats).default('human');
}

function addHostOptions(command: Command, { snapshot = true }: { snapshot?: boolean } = {}): Command {
  command
    .option('--profile <name|file>', 'built-in profile name or a YAML/JSON profile file (default: "default", or with --snapshot the profile it recorded)')
    .option('--root <dir>', "read the host's files under this prefix (e.g. /host in a container)");
  if (snapshot) command.option('--snapshot <file>', 'answer from a snapshot file instead of the live host');
  return command.option('--timeout <duration>', 'timeout of each probe: 10s, 500ms, 2m (a bare number is milliseconds)', duration('--timeout'), 10000);
}

function addClusterOptions(command: Command): Command {
  return command
    .option('--cluster <file>', 'the nodes of the deployment: a YAML/JSON cluster file or a JSON array of qprep facts documents')
    .option('--node <name>', "this host's node in the cluster file, when neither its addresses nor its hostname tell")
    .option('--hccn-concurrency <n>', 'hccn_tool calls at once on this host (default 1: the tool answers "busy" when run concurrently)', positiveInt('--hccn-concurrency'));
}

function addLaunchOption(command: Command): Command {
  return command.option(
    '--launch <script>',
    'judge this launch script (the bash that runs vllm serve; "-" reads it from stdin): read, never executed; repeatable: a further script that runs it with its arguments ($1..$9) gives their values',
    collect,
    [],
  );
}

function addSelectionOptions(command: Command): Command {
  return command
    .option('--only <ids>', 'run only these checks: ids, id prefixes (npu, hccn) or categories; comma-separated, repeatable', collect, [])
    .option('--skip <ids>', 'do not run these checks; same syntax as --only', collect, [])
    .option('--jobs <n>', 'checks run at once', positiveInt('--jobs'), 8);
}

export function buildProgram(exit: Exit): Command {
  const program = new Command();
  program
    .name('qprep')
    .description('Preflight and tuning for Huawei Ascend NPU hosts about to serve LLMs with vllm-ascend.')
    .version(VERSION, '-V, --version', 'print the version')
    .addOption(new Option('--color <when>', 'colors in human output: auto (on a terminal), always, never; FORCE_COLOR and NO_COLOR are honoured').choices(['auto', 'always', 'never']))
    .option('--no-color', 'no colors in human output, as --color=never')
    .configureOutput({ outputError: () => undefined })
    .exitOverride()
    .addHelpText(
      'after',
      `
Examples:
  qprep check                                  check this host: the problems with their fixes, one line for the rest
  qprep check -v                               every check, one line each
  qprep check -q                               the verdict line alone
  qprep check --format json --output r.json    the readiness JSON for Ansible or an orchestrator
  qprep check --only npu,hccn --strict         NPU and HCCN checks only; warnings block too
  qprep check --ignore net.proxy               report a failing check as a warning (recorded)
  qprep facts > node1.json                     this node's NPUs, versions and addresses as JSON
  qprep snapshot -o host.json                  record everything qprep reads, for support
  qprep check --snapshot host.json             replay it anywhere
  qprep check --cluster cluster.yaml           this node as one of a cluster (ping plans, peers)
  qprep check --launch run_p.sh                the launch script against this host: placeholders, NIC, NPUs, ports, weights
  qprep aggregate reports/ --cluster c.json    the cluster verdict from every node's report
  qprep serve --interval 5m                    stay on the node: /readyz, /report and /metrics on 127.0.0.1:9105
  qprep explain cpu.governor                   what a check looks at and how to fix it
  qprep list --profiles                        the deployment profiles: NPUs, minimum driver, ports, what they promote
  qprep tune --dry-run                         what tune would change, with the old values
  sudo qprep tune --persist                    apply the tuning, journaled, and keep it across reboots
  sudo qprep rollback                          put back every old value from the journal
  source <(qprep env)                          the launch environment of this host (LD_PRELOAD, HCCL_IF_IP, ...)

Exit codes: 0 ready, 1 not ready, 2 no verdict (bad usage or input).`,
    );

  const check = program
    .command('check')
    .description('run the checks, print the report, exit 0 ready / 1 not ready / 2 no verdict')
    .addOption(formatOption(['human', 'json', 'junit', 'prometheus']))
    .option('-o, --output <file>', 'write the report to this file (atomically) instead of stdout')
    .option('--ignore <ids>', 'report these failing checks as warnings (recorded in the report); "all" for every check', collect, [])
    .option('--strict', 'warnings and errors of recommended checks make the node not ready too', false)
    .option('-v, --verbose', 'human report: every check, passes included')
    .option('-q, --quiet', 'human report: the verdict line alone');
  addHostOptions(check);
  addSelectionOptions(check);
  addClusterOptions(check);
  addLaunchOption(check);
  check.action(async (options, command: Command) => {
    const { runCheckCommand } = await import('./app/commands.js');
    exit.code = await runCheckCommand({ ...options, ...command.optsWithGlobals() });
  });

  const serve = program
    .command('serve')
    .description('stay on the node: run the checks at start and every --interval, serve /healthz, /readyz, /report and /metrics over HTTP; read-only, never tunes')
    .option('--listen <address:port>', 'where to listen (a non-loopback address only when given)', '127.0.0.1:9105')
    .option('--interval <duration>', 'time between runs, e.g. 30s, 5m, 1h (each run is jittered by ±10 %)', '5m')
    .option('--budget <duration>', 'longest a run may take before its probes are killed and it ends without a verdict (default 80 % of --interval)')
    .option('--allow-trigger', 'allow POST /run to start a run at once', false)
    .option('--ignore <ids>', 'report these failing checks as warnings (recorded in the report); "all" for every check', collect, [])
    .option('--strict', 'warnings and errors of recommended checks make the node not ready too', false);
  addHostOptions(serve);
  addSelectionOptions(serve);
  addClusterOptions(serve);
  addLaunchOption(serve);
  serve.action(async (options, command: Command) => {
    // serve's signals are its lifecycle (stop with exit 0, reload), never an interruption
    holdSignals();
    const { runServeCommand } = await import('./app/serve.js');
    exit.code = await runServeCommand({ ...options, ...command.optsWithGlobals() });
  });

  const snapshot = program
    .command('snapshot')
    .description('record every command output and file the checks read into one JSON file, for replay with check --snapshot')
    .requiredOption('-o, --output <file>', 'snapshot file to write (atomically)');
  addHostOptions(snapshot, { snapshot: false });
  addSelectionOptions(snapshot);
  addClusterOptions(snapshot);
  addLaunchOption(snapshot);
  snapshot.action(async (options, command: Command) => {
    const { runSnapshotCommand } = await import('./app/commands.js');
    exit.code = await runSnapshotCommand({ ...options, ...command.optsWithGlobals() });
  });

  const facts = program
    .command('facts')
    .description("this node's identity and inventory as JSON (hostname, addresses, NPUs, versions, server model, CPUs, NICs), for Ansible and cluster files")
    .addOption(formatOption(['json']).default('json'))
    .option('-o, --output <file>', 'write the document to this file (atomically) instead of stdout')
    .option('--include-serial', "show the server's serial number (DMI product_serial) in the inventory", false)
    .option('--include-mac', "show the NICs' MAC addresses in the inventory", false);
  addHostOptions(facts);
  facts.action(async (options, command: Command) => {
    const { runFactsCommand } = await import('./app/commands.js');
    exit.code = await runFactsCommand({ ...options, ...command.optsWithGlobals() });
  });

  const tune = program
    .command('tune')
    .description('apply the tuning the profile asks for, journaled and verified; exit 0 applied or nothing to change / 1 failed and rolled back / 2 no verdict')
    .addOption(formatOption(['human', 'json']))
    .option('--dry-run', 'show the plan and the old values; write nothing', false)
    .option('--persist', 'also make the settings survive reboot (/etc/sysctl.d/90-qprep.conf, /etc/tmpfiles.d/qprep.conf)', false)
    .option('--force', 'tune even inside a container (the settings belong to the host OS)', false);
  addHostOptions(tune);
  tune
    .option('--only <ids>', 'tune only these checks: ids, prefixes or categories; comma-separated, repeatable', collect, [])
    .option('--skip <ids>', 'do not tune these checks; same syntax as --only', collect, []);
  tune.action(async (options, command: Command) => {
    const { runTuneCommand } = await import('./app/tune.js');
    exit.code = await runTuneCommand({ ...options, ...command.optsWithGlobals() });
  });

  const rollback = program
    .command('rollback')
    .description('restore the old values from the tune journal (also after an interrupted tune), then retire the journal')
    .addOption(formatOption(['human', 'json']))
    .option('--dry-run', 'show what would be restored; write nothing', false)
    .option('--force', 'restore values changed since tune wrote them, accept vanished files, run inside a container', false)
    .option('--root <dir>', "the host's files under this prefix (e.g. /host in a container)")
    .option('--snapshot <file>', 'with --dry-run: what rollback would do on the host of a snapshot')
    .option('--timeout <duration>', 'timeout of each probe: 10s, 500ms, 2m (a bare number is milliseconds)', duration('--timeout'), 10000);
  rollback.action(async (options, command: Command) => {
    const { runRollbackCommand } = await import('./app/tune.js');
    exit.code = await runRollbackCommand({ ...options, ...command.optsWithGlobals() });
  });

  const env = program
    .command('env')
    .description('print the export lines a launch script needs on this host: LD_PRELOAD, HCCL_IF_IP, *_SOCKET_IFNAME, the profile\'s variables')
    .addOption(new Option('-f, --format <format>', 'output format').choices(['sh', 'json']).default('sh'))
    .option('--ip <address>', "this node's address for HCCL_IF_IP (default: the address of the default-route interface)")
    .option('--nic <name>', 'the interface for the *_SOCKET_IFNAME variables (default: the one carrying --ip, or the default route)')
    .option('--cluster <file>', "take this node's address (HCCL_IF_IP) and ifname from the cluster file; --ip and --nic override it")
    .option('--node <name>', "this host's node in the cluster file, when neither its addresses nor its hostname tell");
  addHostOptions(env);
  env.action(async (options, command: Command) => {
    const { runEnvCommand } = await import('./app/env.js');
    exit.code = await runEnvCommand({ ...options, ...command.optsWithGlobals() });
  });

  const aggregate = program
    .command('aggregate')
    .description('the cluster verdict from many nodes\' reports (qprep check --format json): readiness per node, what differs across nodes, colliding device IPs, missing and stale reports; exit 0 ready / 1 not ready / 2 unreadable input')
    .argument('<reports...>', 'report files, directories of *.json reports, or - for standard input (a JSON array, or documents one after another)')
    .addOption(formatOption(['human', 'json']))
    .option('-o, --output <file>', 'write the verdict to this file (atomically) instead of stdout')
    .option('--cluster <file>', 'the nodes that should have reported: a cluster file or a JSON array of qprep facts documents')
    .option('--profile <name|file>', "the deployment's profile: fewer reports than its deployment.nodes make the cluster not ready (without it, the reports' profiles say)")
    .option('--max-age <duration>', 'reports that started longer ago than this (e.g. 30m, 2h, 1d) make the cluster not ready')
    .option('--strict', 'warnings (kernel, sysctl or profile differences, nodes not in the cluster file) make the cluster not ready too', false);
  aggregate.action(async (reports: string[], options, command: Command) => {
    const { runAggregateCommand } = await import('./app/aggregate.js');
    exit.code = await runAggregateCommand(reports, { ...options, ...command.optsWithGlobals() });
  });

  program
    .command('list')
    .description('the check catalogue: id, level, category, title; with --profiles, the deployment profiles')
    .addOption(formatOption(['human', 'json']))
    .option('--profiles', 'list the built-in profiles instead: family, NPUs, minimum driver, nodes, ports, shm, disk, tuning, what each promotes')
    .option('--profile <name|file>', 'levels as this profile sets them; with --profiles, describe only this profile (a file resolved over the built-in it extends)')
    .action(async (options, command: Command) => {
      const { runListCommand } = await import('./app/commands.js');
      exit.code = await runListCommand({ ...options, ...command.optsWithGlobals() });
    });

  program
    .command('explain')
    .description("one check's purpose, what it reads, and how to fix it")
    .argument('<id>', 'check id, e.g. cpu.governor')
    .addOption(formatOption(['human', 'json']))
    .action(async (id: string, options, command: Command) => {
      const { runExplainCommand } = await import('./app/commands.js');
      exit.code = await runExplainCommand(id, { ...options, ...command.optsWithGlobals() });
    });

  program
    .command('version')
    .description('print the version (as --version does)')
    .action(() => {
      process.stdout.write(`${VERSION}\n`);
    });

  program
    .command('schema')
    .description('print the JSON Schema of a document, generated from the code')
    .argument('[document]', 'report, profile, snapshot, cluster, facts, tune, rollback, env or aggregate', 'report')
    .action(async (document: string) => {
      const { runSchemaCommand } = await import('./app/commands.js');
      exit.code = await runSchemaCommand(document);
    });

  return program;
}

const COMMANDS = ['check', 'snapshot', 'facts', 'tune', 'rollback', 'env', 'aggregate', 'list', 'explain', 'schema'];
/** The commands whose --output is a verdict or a document that an interruption must replace. */
const DOCUMENT_OUTPUTS = new Set(['check', 'facts', 'aggregate']);

/** The command named on the command line, known even when parsing failed. */
function requestedCommand(argv: readonly string[]): string | null {
  const word = argv.slice(2).find((arg) => !arg.startsWith('-'));
  return word !== undefined && COMMANDS.includes(word) ? word : null;
}

/** The value of an option on the raw command line (`--output F`, `--output=F`, `-o F`, `-oF`). */
function rawOption(argv: readonly string[], long: string, short?: string): string | undefined {
  let found: string | undefined;
  for (let i = 2; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === '--') break;
    if (arg === long || (short !== undefined && arg === short)) found = argv[++i];
    else if (arg.startsWith(`${long}=`)) found = arg.slice(long.length + 1);
    else if (short !== undefined && arg.startsWith(short) && !arg.startsWith('--')) found = arg.slice(short.length);
  }
  return found;
}

/**
 * The --format the user asked for, known even when parsing failed. facts prints JSON only, so
 * its failures print the error document without being asked, as its interruptions do.
 */
function requestedFormat(argv: readonly string[]): string {
  return rawOption(argv, '--format', '-f') ?? (requestedCommand(argv) === 'facts' ? 'json' : 'human');
}

/** What an interruption says before the options are parsed: read from the raw command line. */
function identityFromArgv(argv: readonly string[]): Parameters<typeof describeRun>[0] {
  const command = requestedCommand(argv);
  const output = command !== null && DOCUMENT_OUTPUTS.has(command) ? rawOption(argv, '--output', '-o') : undefined;
  return { command, format: requestedFormat(argv), ...(output && output !== '-' ? { output } : {}) };
}

/**
 * Commander's error as qprep prints it: the error first, then one hint: its "(Did you mean X?)"
 * as one suggestion, the closest of the allowed choices of an option, or where the usage is.
 */
function usageMessage(error: CommanderError): { message: string; hints: string[] } {
  const [first = '', ...rest] = error.message.replace(/^error: /, '').split('\n');
  const suggestion = rest.map((line) => /^\(Did you mean (?:one of )?([^,?]+)/.exec(line)?.[1]).find(Boolean);
  if (suggestion) return { message: first, hints: [`did you mean "${suggestion}"?`] };
  const choices = /argument '(.*)' is invalid\. Allowed choices are (.*)\.$/.exec(first);
  if (choices) {
    const match = closest(choices[1]!, choices[2]!.split(', '));
    if (match) return { message: first, hints: [`did you mean "${match}"?`] };
  }
  // qprep's own messages say what the value must be; commander's generic ones point at the help
  if (error.code === 'qprep.usage') return { message: first, hints: [] };
  return { message: first, hints: ['run "qprep --help" (or "qprep COMMAND --help") for usage'] };
}

/**
 * Set when a command's action starts: only then can a host file operation be pending at exit.
 * Without one (--version, --help, a usage error) exit.js is not imported: in the single-file
 * build it lives in the implementation part, whose load would cost --version some 300 ms.
 */
let actionStarted = false;

async function flushAndExit(code: number): Promise<never> {
  // an interruption owns the end of the run: its document is the one this run prints
  if (interruption) return interruption;
  await new Promise<void>((resolve) => process.stdout.write('', () => resolve()));
  await new Promise<void>((resolve) => process.stderr.write('', () => resolve()));
  if (!actionStarted) process.exit(code);
  const { exitProcess } = await import('./host/exit.js');
  return exitProcess(code);
}

/**
 * Standard output carries the verdict's document: when it cannot be written (stdout redirected
 * to a full disk, EIO), one line on stderr says so and the exit code is 2, never the crash of an
 * unhandled stream error (exit 1 would read as "not ready"). A reader that went away (EPIPE, as
 * with `| head`) is not an error: the exit code still gives the verdict.
 */
function guardStandardStreams(): void {
  let broken = false;
  process.stdout.on('error', (error: NodeJS.ErrnoException) => {
    if (broken || error.code === 'EPIPE') {
      broken = true;
      return;
    }
    broken = true;
    const reason = error.code === 'ENOSPC' ? 'no space left on device (ENOSPC)' : error.message;
    process.stderr.write(`qprep: error: cannot write the standard output: ${reason}\n`);
    process.exit(2);
  });
  process.stderr.on('error', () => undefined);
}

/**
 * A signal before a command took the signals over (while commander parses, while the command's
 * code loads), or during a command without a partial result to give: the error document of an
 * interrupted run, exit code 2. A second signal ends qprep at once.
 */
let ending = false;
let interruption: Promise<never> | undefined;
function onSignalBeforeCommand(signal: NodeJS.Signals): void {
  if (ending) {
    process.stderr.write(`\nqprep: error: ${signal} again: exiting without a report\n`);
    process.exit(2);
  }
  ending = true;
  if (!claimDocument()) {
    // the run's document is out already: it is the truth of the run, which ends on its own
    process.stderr.write(`\nqprep: note: ${signal} after the result was written; ending with it\n`);
    return;
  }
  const run = runIdentity();
  // only the commands that examine a host start probes
  const probing = actionStarted && !['aggregate', 'list', 'explain', 'schema'].includes(run.command ?? '');
  interruption = import('./app/failure.js').then(({ endInterrupted }) => endInterrupted(signal, run, probing));
}

export async function main(argv: readonly string[]): Promise<never> {
  // before anything else: a signal in the first moments must end the run like any other
  routeSignals(onSignalBeforeCommand);
  describeRun(identityFromArgv(argv));
  guardStandardStreams();
  const exit: Exit = { code: 0 };
  const program = buildProgram(exit);
  program.hook('preAction', (_program, actionCommand) => {
    const options = actionCommand.opts();
    for (const [key, value] of Object.entries(validatePathOptions(options))) actionCommand.setOptionValue(key, value);
    if (actionCommand.name() === 'aggregate') validateReportOperands(actionCommand.args);
    const output = DOCUMENT_OUTPUTS.has(actionCommand.name()) ? (actionCommand.opts().output as string | undefined) : undefined;
    describeRun({ command: actionCommand.name(), format: (options.format as string | undefined) ?? 'human', ...(output ? { output } : { output: undefined }) });
    actionStarted = true;
  });
  if (argv.length <= 2) {
    // no arguments asks what qprep does: the help, on stdout, and no error
    process.stdout.write(program.helpInformation());
    return flushAndExit(0);
  }
  try {
    await program.parseAsync([...argv]);
  } catch (error) {
    if (error instanceof CommanderError) {
      if (error.code === 'commander.helpDisplayed' || error.code === 'commander.version' || error.code === 'commander.help') {
        return flushAndExit(0);
      }
      const { reportFailure } = await import('./app/failure.js');
      const { message, hints } = usageMessage(error);
      exit.code = reportFailure('usage', message, requestedFormat(argv), requestedCommand(argv), hints);
    } else {
      const { reportError } = await import('./app/failure.js');
      exit.code = reportError(error, runIdentity().format, runIdentity().command);
    }
  }
  return flushAndExit(exit.code);
}
