import type { FlagProblem } from '../../../parsers/vllm-args.js';
import { plural } from '../../../util/text.js';
import type { CheckEntries } from '../../types.js';

/** Text of src/probes/launch.ts that every launch check quotes (catalogue: probes.launch). */
export const launchProbes = {
  noScript: 'no launch script given (--launch SCRIPT)',
  /** the command stays as written; the comment after # is for the reader */
  remediation: 'qprep check --launch /path/to/run.sh   # the bash script that starts vllm serve on this node',
  /** "HCCL_IF_IP (run_p.sh:19, from local_ip at line 7)" */
  variableAt: (p: { name: string; at: string; from: string | null; fromLine: number | null }) =>
    `${p.name} (${p.at}${p.from !== null ? `, from ${p.from} at line ${p.fromLine}` : ''})`,
  inherited: (p: { name: string }) => `${p.name} (inherited from the environment)`,
  /**
   * the rule of knowledge/rules.json a finding comes from and the release it was judged for:
   * "rule eager.graph-config-ignored, vllm-ascend 0.18.0"; without a version, the assumption made
   */
  ruleJudged: (p: { rule: string; installed: string | null; release: string; assumption: 'newest' | 'in-force' | 'warn' | null }) =>
    p.installed !== null
      ? `rule ${p.rule}, vllm-ascend ${p.installed}`
      : p.assumption === 'in-force'
        ? `rule ${p.rule}; no vllm-ascend found in the launch's Python: taken as in force`
        : p.assumption === 'warn'
          ? `rule ${p.rule}; no vllm-ascend found in the launch's Python: a warning until its version is known`
          : `rule ${p.rule}; no vllm-ascend found in the launch's Python: judged as at ${p.release}`,
  /** why a server flag's value cannot be used (the parser's facts; its `reason` is this English) */
  flagProblemAt: (p: { reason: string; line: number }) => `${p.reason} (line ${p.line})`,
  flagProblem: (p: { flag: string; problem: FlagProblem }) => {
    const problem = p.problem;
    switch (problem.kind) {
      case 'no-value':
        return `${p.flag} has no value`;
      case 'unknown':
        return `${p.flag} is ${problem.text}, which only a run can tell`;
      case 'not-whole':
        return `${p.flag} is "${problem.text}", not a whole number`;
      case 'below':
        return `${p.flag} is ${problem.value}, below ${problem.min}`;
      case 'run-time':
        return `${p.flag} is built at run time (${problem.dynamic})`;
      case 'not-json':
        return `${p.flag} (line ${problem.line}) is not valid JSON: ${problem.detail}`;
    }
  },
};

/** The checks launch.*: the launch script. One entry per check id. */
export const launch = {
  'launch.script': {
    title: 'Launch script readable, server command found',
    why:
      'qprep reads the launch script instead of running it, and can only judge what it can read: a value built by ' +
      '$(hostname -I), a variable set inside an if, or a sourced file is only known when the script runs. This check ' +
      'says what the other launch checks could not see, and catches scripts bash itself would break on (Windows line ' +
      'ends, an unclosed quote) and the trailing backslash after the last flag that swallows the next line added below. ' +
      'A template whose values are its arguments ($1..$9) is read with the arguments of the first invocation found in ' +
      'the scripts given with it (a repeated --launch: `bash run_dp_template.sh 0,1,2,3 9000 4 0 ...`); the devices and ports of the others are judged too (launch.devices, launch.ports).',
    reads: ['the --launch script (never executed)'],
    fix: 'Write the values the script computes at run time literally, convert CRLF line ends (sed -i "s/\\r$//" SCRIPT), close the quote, remove the trailing backslash.',
    brokenFix: (p: { at: string; message: string }) => `edit ${p.at}: ${p.message}`,
    broken: (p: { script: string; message: string; more: number }) =>
      `${p.script} will not run as written: ${p.message}${p.more > 0 ? ` (and ${plural(p.more, 'more problem')})` : ''}`,
    runsLauncher: (p: { launcher: string; line: number }) => `runs ${p.launcher} (line ${p.line}), not a vLLM server`,
    startsNoServer: 'starts no vLLM server',
    runsDpLauncher: (p: { script: string; line: number; rule: string }) =>
      `${p.script} runs launch_online_dp.py (line ${p.line}), which starts no server itself: it runs ./run_dp_template.sh once per local data-parallel rank ` +
      `($1 the devices, $2 the port, $3 the DP size, $4 the DP rank, $5 the DP address, $6 the RPC port, $7 the TP size); the vllm serve command and its flags are in that template (${p.rule})`,
    dpLauncherFix: 'qprep check --launch ./run_dp_template.sh   # the template launch_online_dp.py runs, in the directory it is started from',
    noServer: (p: { script: string; what: string }) =>
      `${p.script} ${p.what} (no "vllm serve" or "python -m vllm.entrypoints.openai.api_server"): its flags are not checked`,
    noServerFix: 'give qprep the script that runs vllm serve on this node (qprep check --launch run.sh); a wrapper that builds the command at run time cannot be read',
    unreadParts: (p: { count: number; parts: string }) => `${plural(p.count, 'part')} cannot be checked without running it (${p.parts})`,
    hazardLines: (p: { lines: number[] }) =>
      `${p.lines.length === 1 ? `line ${p.lines[0]} ends` : `lines ${p.lines.join(', ')} end`} a command with a backslash before a blank line or the end of the file`,
    removeBackslash: (p: { at: string }) => `${p.at}: remove the backslash at the end of the line (a line added below it would become an argument of the command)`,
    andMore: (p: { count: number }) => `... and ${p.count} more (see the evidence)`,
    unread: (p: { script: string; parts: string }) => `${p.script}: ${p.parts}`,
    allRead: (p: { script: string; form: string; model: string; line: number; flags: number; assignments: number; arguments: string }) =>
      `${p.script}: ${p.form}${p.model ? ` ${p.model}` : ''} at line ${p.line} with ${plural(p.flags, 'flag')}, ${plural(p.assignments, 'assignment')}; everything read${p.arguments}`,
    argumentsFrom: (p: { last: number; invocation: string; others: number; where: string }) =>
      `; $1..$${p.last} from ${p.invocation}${p.others > 0 ? `; ${plural(p.others, 'other invocation')} with other arguments judged only by launch.devices and launch.ports (${p.where})` : ''}`,
  },
  'launch.devices': {
    title: 'Launch script fits the visible NPUs',
    why:
      'vLLM starts tensor-parallel x pipeline-parallel x local data-parallel workers, one per NPU, taken from ' +
      'ASCEND_RT_VISIBLE_DEVICES. An id that does not exist fails with "set ASCEND_RT_VISIBLE_DEVICES:4 error, input ' +
      'data rang[0-2)" (inside a container the ids are renumbered from 0), and a layout larger than the NPUs there are ' +
      'fails after the model is loaded.',
    reads: ['the --launch script (never executed)', 'npu-smi info'],
    fix: 'List devices that exist here in ASCEND_RT_VISIBLE_DEVICES (0..n-1 inside a container), or lower --tensor-parallel-size / --data-parallel-size-local.',
    noInventory: (p: { script: string; problem: string }) => `cannot list the NPUs to check ${p.script} against: ${p.problem}`,
    fixNpuSmi: 'fix npu-smi first (qprep explain npu.smi), then re-run',
    allSeen: (p: { count: number; inContainer: boolean }) => `all ${plural(p.count, 'NPU')} this ${p.inContainer ? 'container' : 'host'} sees`,
    fromArgument: (p: { where: string; argument: string }) =>
      `${p.where} is the script's argument ${p.argument}: the caller picks the devices, so they are judged where the values are written in`,
    checkLauncher: (p: { script: string }) => `check the launcher's command line, or a copy of ${p.script} with the devices written in`,
    computed: (p: { where: string; dynamic: string }) => `${p.where} is computed at run time (${p.dynamic}): the devices cannot be checked`,
    writeLiterally: (p: { ids: string }) => `write the ids literally: export ASCEND_RT_VISIBLE_DEVICES=${p.ids}`,
    placeholder: (p: { where: string; placeholder: string }) => `${p.where} is the placeholder ${p.placeholder}: the devices are judged once it is filled in (launch.placeholders names it)`,
    placeholderFix: 'fill in the placeholder as launch.placeholders says, then run the check again',
    notAList: (p: { where: string; value: string }) => `${p.where} is "${p.value}", not a list of device ids such as 0,1,4-7`,
    missing: (p: { where: string; missing: string; inContainer: boolean; count: number; present: string }) =>
      `${p.where} lists ${p.missing}, which this ${p.inContainer ? 'container' : 'host'} does not have: it sees ${plural(p.count, 'NPU')} (ids ${p.present || 'none'})` +
      (p.inContainer ? ' (inside a container the ids are renumbered from 0: use 0..n-1, not the host ids)' : ''),
    /** the command stays as written; the comment after # is for the reader */
    exportDevices: (p: { prefix: string; ids: string; inContainer: boolean }) =>
      `${p.prefix}export ASCEND_RT_VISIBLE_DEVICES=${p.ids}${p.inContainer ? '   # and map the devices with docker run --device /dev/davinciN for each host id' : ''}`,
    atLine: (p: { script: string; line: number }) => `${p.script} line ${p.line}: `,
    ofVariable: (p: { count: number; value: string }) => `${plural(p.count, 'NPU')} of ASCEND_RT_VISIBLE_DEVICES (${p.value})`,
    noServer: (p: { script: string; source: string }) => `the devices of ${p.script} exist here (${p.source}); no server command to size`,
    sizesFromCaller: (p: { script: string; values: string }) => `cannot size the server of ${p.script}: ${p.values} come from the caller (launch.flags says so)`,
    checkCopy: (p: { script: string }) => `check a copy of ${p.script} with the sizes written in`,
    badSize: (p: { script: string; problem: string }) => `cannot size the server of ${p.script}: ${p.problem} (launch.flags reports it)`,
    correctFlag: (p: { at: string }) => `correct the flag at ${p.at} (qprep explain launch.flags)`,
    overRay: (p: { layout: string; count: number; source: string }) => `${p.layout} = ${plural(p.count, 'NPU')} over the Ray cluster; this node contributes ${p.source}`,
    lowerLocal: (p: { local: number; script: string; line: number }) => `--data-parallel-size-local ${p.local}   # in ${p.script} at line ${p.line}`,
    lowerTp: (p: { tp: number }) => `--tensor-parallel-size ${p.tp} or more NPUs (docker run --device /dev/davinciN)`,
    tooMany: (p: { script: string; layout: string; count: number; source: string }) =>
      `${p.script} needs ${p.layout} = ${plural(p.count, 'NPU')} on this node, but it gets ${p.source}`,
    fits: (p: { layout: string; count: number; source: string; spare: number }) =>
      `${p.layout} = ${plural(p.count, 'NPU')} fit${p.count === 1 ? 's' : ''} ${p.source}${p.spare > 0 ? `; ${p.spare} more visible and unused` : ''}`,
  },
  'launch.ports': {
    title: "Launch script's ports free",
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
    vllmDefault: (p: { label: string }) => `${p.label} (vLLM default)`,
    kvPorts: (p: { connector: string }) => `kv ports of ${p.connector}`,
    kvPort: (p: { connector: string }) => `kv_port of ${p.connector}`,
    hcclDefault: (p: { count: number }) => `HCCL listen ${p.count === 1 ? 'port' : 'ports'} (default base 60000)`,
    hcclBase: (p: { count: number; base: number }) => `HCCL listen ${p.count === 1 ? 'port' : 'ports'} (HCCL_IF_BASE_PORT ${p.base})`,
    badFlag: (p: { reason: string; at: string }) => `${p.reason} (${p.at})`,
    badFlagFix: (p: { script: string; line: number; flag: string }) => `${p.script} line ${p.line}: ${p.flag} <port>   # a number from 1 to 65535`,
    above: (p: { flag: string; value: number; at: string }) => `${p.flag} ${p.value} (${p.at}) is above 65535`,
    aboveFix: (p: { script: string; line: number; flag: string }) => `${p.script} line ${p.line}: ${p.flag} <a port below 65536>`,
    kvNotPort: (p: { value: string; at: string }) => `kv_port "${p.value}" of --kv-transfer-config (${p.at}) is not a port`,
    kvNotPortFix: (p: { script: string; line: number }) => `${p.script} line ${p.line}: "kv_port": "<a free port>"`,
    kvReserved: (p: { base: number; connector: string; at: string; first: number; last: number; npus: number; guide: string }) =>
      `kv_port ${p.base} of ${p.connector} (${p.at}) is inside ${p.first}-${p.last}, the ports Mooncake's AscendDirectTransport allocates at random on a node of ${plural(p.npus, 'NPU')} (${p.guide}): the server fails now and then with "Address already in use"`,
    kvReservedFix: (p: { script: string; line: number; next: number; npus: number }) =>
      `${p.script} line ${p.line}: "kv_port": "${p.next}"   # at or above ${p.next}, as the guide's table recommends for ${plural(p.npus, 'NPU')} per node; the same on every node of the role`,
    baseComputed: (p: { dynamic: string }) => `HCCL_IF_BASE_PORT is computed at run time (${p.dynamic})`,
    baseComputedFix: 'export HCCL_IF_BASE_PORT=<port>   # written literally, so it can be checked',
    baseNotPort: (p: { value: string }) => `HCCL_IF_BASE_PORT is "${p.value}", not a port`,
    basePast: (p: { base: number; devices: number; last: number }) => `HCCL_IF_BASE_PORT ${p.base} + ${plural(p.devices, 'device')} runs past 65535 (to ${p.last})`,
    basePastFix: (p: { port: number }) => `export HCCL_IF_BASE_PORT=${p.port}   # base + devices must stay <= 65535`,
    bothRoles: (p: { port: number; first: string; second: string }) => `port ${p.port} is both ${p.first} and ${p.second}`,
    moveOne: (p: { at: string | null }) => `move one of them${p.at !== null ? ` (${p.at})` : ''}`,
    noSockets: (p: { problem: string }) => `cannot read listening sockets: ${p.problem}`,
    noSocketsFix: 'make /proc/net readable (mount /proc) and re-run',
    busyPort: (p: { port: number; what: string; holder: string | null }) => `${p.port} (${p.what}; ${p.holder ?? 'owner not visible'})`,
    inUse: (p: { count: number; script: string; ports: string }) => `${plural(p.count, 'port')} of ${p.script} ${p.count === 1 ? 'is' : 'are'} in use: ${p.ports}`,
    killFix: (p: { pid: number; name: string; script: string }) => `kill ${p.pid}   # ${p.name}, if it is a leftover; or move the port in ${p.script}`,
    ssFix: (p: { ports: string; script: string }) => `sudo ss -ltnp | grep -E ':(${p.ports})\\b'   # find the owner and stop it, or move the port in ${p.script}`,
    noPorts: (p: { script: string }) => `${p.script} binds no port qprep knows of`,
    free: (p: { script: string; ports: string }) => `ports of ${p.script} are free: ${p.ports}`,
    npuPortClash: (p: { first: string; second: string; devices: string; rule: string }) =>
      `${p.first} and ${p.second} both start a server on NPU ${p.devices}: HCCL listens on port 16666 of each NPU it uses, so the second fails ` +
      `("listen on ip[...] and specific port[16666] fail") (${p.rule})`,
    npuPortClashFix: (p: { first: string; second: string }) =>
      `give each server its own NPUs (ASCEND_RT_VISIBLE_DEVICES), or export HCCL_NPU_SOCKET_PORT_RANGE="auto" before each of ${p.first} and ${p.second}   # the OS then picks HCCL's NPU ports`,
    andMore: (p: { first: string; more: number }) => `${p.first}${p.more > 0 ? ` (and ${p.more} more)` : ''}`,
  },
  'launch.env': {
    title: "Launch script's environment variables",
    why:
      'A few variables decide whether the server starts at all: LD_PRELOAD entries that do not exist for this ' +
      'architecture (ld.so prints "cannot be preloaded" in every process), HCCL_BUFFSIZE too small for expert-parallel ' +
      'dispatch ("HCCL_BUFFSIZE is too SMALL ... NEEDED_HCCL_BUFFSIZE"), RAY_EXPERIMENTAL_NOSET_ASCEND_RT_VISIBLE_DEVICES ' +
      'missing with the Ray backend (workers see no NPU; DistStoreError after 30 minutes), HCCL_CONNECT_TIMEOUT outside ' +
      '[120, 7200], and HCCL or vLLM variables assigned without export, which never reach vllm. ray start on an NPU ' +
      'node needs RAY_EXPERIMENTAL_NOSET_ASCEND_RT_VISIBLE_DEVICES=1 before it (tutorials/features/ray.md), whatever the ' +
      'server flags say; lines that write /sys or /proc/sys (echo | tee, sysctl -w) need a privileged container, or ' +
      'qprep tune on the host.',
    reads: ['the --launch script (never executed)', 'LD_PRELOAD paths', 'libjemalloc.so.2 locations'],
    fix: 'Apply the export line the check prints in the launch script.',
    /** where a fix goes: "run.sh line 7" or the environment qprep runs in */
    inEnvironment: 'in the environment qprep runs in',
    atLine: (p: { script: string; line: number }) => `${p.script} line ${p.line}`,
    preloadComputed: (p: { entry: string }) => `LD_PRELOAD entry ${p.entry} is computed at run time`,
    preloadComputedFix: (p: { where: string; path: string | null }) => `${p.where}: export LD_PRELOAD=${p.path ?? '<path>'}:$LD_PRELOAD   # written literally, so it can be checked`,
    preloadFix: (p: { where: string; path: string | null; file: string; library: string; arch: string }) =>
      `${p.where}: export LD_PRELOAD=${p.path ?? `<the ${p.file} of this host>`}:$LD_PRELOAD${p.path ? `   # ${p.library} on this ${p.arch} host` : ''}`,
    preloadForeign: (p: { entry: string; foreign: string; arch: string }) => `LD_PRELOAD entry ${p.entry} is for ${p.foreign}, this host is ${p.arch}: ld.so skips it`,
    preloadNotCaptured: (p: { entry: string }) => `LD_PRELOAD entry ${p.entry} was not captured in the snapshot: whether it exists is unknown`,
    recordAgain: (p: { script: string }) => `record the snapshot with this script (qprep snapshot --launch ${p.script})`,
    preloadMissing: (p: { entry: string }) => `LD_PRELOAD entry ${p.entry} does not exist on this host: ld.so prints "cannot be preloaded" and runs without it`,
    computed: (p: { variable: string }) => `${p.variable} is computed at run time`,
    buffsizeLiteral: (p: { where: string }) => `${p.where}: export HCCL_BUFFSIZE=1024   # written literally`,
    buffsizeBad: (p: { variable: string; value: string }) => `${p.variable} is "${p.value}": HCCL needs a whole number of MB, at least 1`,
    buffsizeRefused: (p: { value: number; needed: number; maxBs: number; ep: number; local: number; set: boolean }) =>
      `HCCL_BUFFSIZE is ${p.value} MB${p.set ? '' : ' (unset: HCCL\'s default)'}, but MC2 dispatch of this model needs ${p.needed} MB (maxBs ${p.maxBs}, ${p.ep} EP ranks, ${p.local} experts each): ` +
      `on A3 CANN refuses it at the first MoE layer ("HCCL_BUFFSIZE is too SMALL ... NEEDED_HCCL_BUFFSIZE")`,
    buffsizeBelowNeed: (p: { value: number; needed: number; maxBs: number; ep: number; local: number; set: boolean }) =>
      `HCCL_BUFFSIZE is ${p.value} MB${p.set ? '' : ' (unset: HCCL\'s default)'}, but MC2 dispatch of this model needs ${p.needed} MB (maxBs ${p.maxBs}, ${p.ep} EP ranks, ${p.local} experts each): ` +
      `the A2 operator does not check it and fails inside ("The DDR address of the MTE instruction is out of range")`,
    buffsizeNeedFix: (p: { script: string; line: string }) => `${p.line}   # before vllm serve in ${p.script}; at least what MC2 dispatch needs`,
    buffsizeMissing: '--enable-expert-parallel without HCCL_BUFFSIZE: HCCL uses 200 MB, and MoE dispatch/combine fails with "HCCL_BUFFSIZE is too SMALL" when it needs more',
    buffsizeMissingFix: (p: { script: string }) => `export HCCL_BUFFSIZE=1024   # before vllm serve in ${p.script}; the guides use 512-2048 with expert parallelism`,
    rayNoset: (p: { value: string | null }) =>
      `--distributed-executor-backend ray without RAY_EXPERIMENTAL_NOSET_ASCEND_RT_VISIBLE_DEVICES=1${p.value !== null ? ` (it is "${p.value}")` : ''}: Ray workers see no NPU and the start times out`,
    rayNosetFix: (p: { script: string }) => `export RAY_EXPERIMENTAL_NOSET_ASCEND_RT_VISIBLE_DEVICES=1   # in ${p.script} and before ray start on every node`,
    rayStart: (p: { line: number; name: string }) =>
      `ray start at line ${p.line} without ${p.name}=1 exported before it: Ray hides the NPUs from its workers (tutorials/features/ray.md sets it on every node)`,
    rayStartFix: (p: { script: string; line: number; name: string }) => `${p.script} line ${p.line}: export ${p.name}=1   # before ray start, on every node`,
    hostLines: (p: { lines: number[]; first: string }) =>
      `${p.lines.length === 1 ? 'line' : 'lines'} ${p.lines.join(', ')} change the host (${p.first}): they need a privileged container (else "Read-only file system"), or qprep tune on the host instead`,
    connectBad: (p: { variable: string; value: string }) => `${p.variable} is "${p.value}", not a number of seconds`,
    connectRange: (p: { variable: string; value: string }) => `${p.variable} is ${p.value} s, outside HCCL's range [120, 7200]`,
    /** the export line as the fix, led by where it goes */
    exportAt: (p: { where: string; line: string }) => `${p.where}: ${p.line}`,
    notExported: (p: { name: string; line: number }) => `${p.name} is set at line ${p.line} but never exported: vllm does not see it`,
    notExportedFix: (p: { script: string; line: number; name: string }) => `${p.script} line ${p.line}: export ${p.name}=...`,
    judged: (p: { script: string; checked: string }) => `${p.script}: ${p.checked}`,
    nothing: (p: { script: string }) => `${p.script} sets nothing qprep judges here (LD_PRELOAD, HCCL_BUFFSIZE, Ray, HCCL_CONNECT_TIMEOUT)`,
    withNote: (p: { judged: string; note: string }) => `${p.judged}; note: ${p.note}`,
    noteLine: (p: { note: string }) => `note: ${p.note}`,
    aivOn310p: (p: { variable: string; rule: string }) =>
      `${p.variable} is AIV, which the Atlas 300I Duo does not support (CANN lists AI_CPU and HOST for it): HCCL ignores the value and uses its default, HOST (${p.rule})`,
    aivOn310pFix: (p: { script: string; line: number }) => `${p.script} line ${p.line}: remove the HCCL_OP_EXPANSION_MODE=AIV line   # on the 300I Duo: AI_CPU or HOST, HOST by default`,
    aivOn310pInheritedFix: 'unset HCCL_OP_EXPANSION_MODE before the launch   # on the 300I Duo: AI_CPU or HOST, HOST by default',
    andMore: (p: { first: string; more: number }) => `${p.first}${p.more > 0 ? ` (and ${p.more} more)` : ''}`,
  },
  'launch.placeholders': {
    title: 'No placeholder left in the launch script',
    why:
      'The deployment guides publish scripts with values to fill in: nic_name="xxx", local_ip="xxx", node0_ip="xxxx", ' +
      '141.xx.xx.1 in the proxy. A copied script that still carries one fails only after minutes of weight loading, ' +
      'when HCCL or Gloo cannot bind "xxx", or hangs waiting for a master that is not there.',
    reads: ['the --launch script (never executed)', 'network interfaces (for the suggested values)'],
    fix: 'Fill in every value the check names, on the line it names; the suggested address and interface are those of this host.',
    none: (p: { script: string; assignments: number }) => `no placeholder in ${p.script} (${plural(p.assignments, 'assignment')} and the server flags read)`,
    empty: (p: { name: string; line: number; unset: string | null }) => `${p.name} empty (line ${p.line}${p.unset !== null ? `: $${p.unset} is set nowhere` : ''})`,
    setNowhere: (p: { name: string; placeholder: string; line: number }) => `${p.name} ${p.placeholder} (line ${p.line}: set nowhere in the script or the environment)`,
    /** `written` is the value as quoted (="xxx") or `holds "<token>"` for a long one */
    found: (p: { name: string; written: string; line: number; redirection: string | null }) =>
      `${p.name}${p.written} (line ${p.line}${p.redirection !== null ? `; unquoted, bash reads ${p.redirection} as a redirection` : ''})`,
    holds: (p: { placeholder: string }) => ` holds "${p.placeholder}"`,
    left: (p: { count: number; script: string; list: string }) => `${plural(p.count, 'placeholder')} left in ${p.script}: ${p.list}`,
    fixLine: (p: { script: string; line: number; suggestion: string; usedBy: string | null }) =>
      `${p.script} line ${p.line}: ${p.suggestion}${p.usedBy !== null ? `; used by ${p.usedBy}` : ''}`,
    nic: (p: { literal: string; ip: string }) => `${p.literal}   # the interface carrying ${p.ip}`,
    nicUnknown: (p: { literal: string }) => `${p.literal}   # the interface that carries this node's address (ip -br addr)`,
    masterSelf: (p: { literal: string }) => `${p.literal}   # this node is node 0 (data-parallel start rank 0): its own address`,
    masterOther: (p: { literal: string }) => `${p.literal}   # the local_ip set in node 0's (the master's) script`,
    nodeZero: '<address of node 0>',
    localIp: (p: { literal: string; nic: string }) => `${p.literal}   # this host's address on ${p.nic}`,
    localIpUnknown: (p: { literal: string }) => `${p.literal}   # the address HCCL and vLLM should use (ip -br addr)`,
    thisHost: '<this host address>',
    emptyValue: (p: { literal: string }) => `${p.literal}   # it is empty`,
    model: (p: { value: string }) => `vllm serve <the weights directory or hub id>   # instead of ${p.value}`,
    replaceIn: (p: { placeholder: string; name: string; variable: boolean }) =>
      `replace ${p.placeholder} in ${p.variable ? p.name : `the value of ${p.name}`} with the real value`,
  },
  'launch.flags': {
    title: 'vllm serve flags consistent',
    why:
      'vLLM refuses a JSON flag that does not parse; a Mooncake kv_connector_extra_config whose prefill/decode sizes ' +
      'disagree with the instance breaks the KV transfer; a node serves ranks --data-parallel-start-rank .. + ' +
      '--data-parallel-size-local - 1 of --data-parallel-size, so those must fit (qprep aggregate checks the nodes ' +
      'together); on Atlas 300I Duo / 200I Pro the guide allows at most two capture sizes with TP > 1; ' +
      'with MTP the capture sizes should be multiples of num_speculative_tokens + 1; ' +
      '--max-num-seqs x --data-parallel-size below the expected concurrency (profile deployment.expectedConcurrency) ' +
      'queues requests; a script whose kv_role is not the role the profile gives this node is the wrong script. ' +
      'Sizes that come from the caller ($1..$7 of a template such as examples/external_online_dp/run_dp_template.sh) are ' +
      'named once and nothing is derived from them. ' +
      '--tensor-parallel-size must divide the attention heads and fit the KV heads (vLLM ModelConfig.' +
      'verify_with_parallel_config), read from the weights\' config.json or, without them, from a table of the ' +
      'tutorials\' models (src/data/model-heads.ts, from each model\'s config.json on Hugging Face). msModelSlim ' +
      'weights (quant_model_description.json) need --quantization ascend (user_guide/feature_guide/quantization.md). ' +
      'The rules of a model or an NPU by release (310P float16 and npugraph_ex, Qwen3.5 prefix caching, TorchAir) are ' +
      'launch.model-rules\'.',
    reads: ['the --launch script (never executed)', 'npu-smi info (the NPU family)'],
    fix: 'Change the flag on the line the check names, as it prints it.',
    noServer: (p: { script: string }) => `${p.script} starts no vLLM server: no flag to check (launch.script says why)`,
    /** a parser's reason, quoted as it is */
    reason: (p: { reason: string }) => p.reason,
    jsonComputedFix: (p: { script: string; line: number; flag: string }) => `${p.script} line ${p.line}: write ${p.flag} as literal JSON in single quotes`,
    jsonInvalidFix: (p: { script: string; line: number; flag: string }) =>
      `${p.script} line ${p.line}: ${p.flag} '{...}'   # valid JSON in single quotes; check it with: python3 -m json.tool`,
    noKvConfig: (p: { profile: string; role: string; script: string }) =>
      `profile ${p.profile} is a ${p.role} node of a disaggregated deployment, but ${p.script} has no --kv-transfer-config: it starts a plain server`,
    noKvConfigFix: (p: { script: string; line: number; kvRole: string; guideScript: string }) =>
      `${p.script} line ${p.line}: --kv-transfer-config '{"kv_connector": "MooncakeLayerwiseConnector", "kv_role": "${p.kvRole}", ...}'   # as the guide's ${p.guideScript}; or use a profile without deployment.role`,
    wrongRole: (p: { profile: string; role: string; at: string; kvRole: string | null; other: string }) =>
      `profile ${p.profile} is a ${p.role} node, but ${p.at} sets kv_role ${p.kvRole ?? 'to nothing'}: the ${p.other} script, or the wrong profile?`,
    wrongRoleFix: (p: { role: string; kvRole: string }) => `run the ${p.role} script here (kv_role "${p.kvRole}"), or check this node with the profile of its role`,
    sizeMismatch: (p: { side: string; key: string; declared: string; flag: string; actual: number; kvRole: string; at: string }) =>
      `--kv-transfer-config says ${p.side}.${p.key} ${p.declared} but this ${p.side} instance runs ${p.flag} ${p.actual} (${p.kvRole}, ${p.at})`,
    sizeMismatchFix: (p: { script: string; line: number; key: string; actual: number; side: string; flag: string }) =>
      `${p.script} line ${p.line}: "${p.key}": ${p.actual}   # in the ${p.side} block, on every node of the deployment; or change ${p.flag}`,
    localAbove: (p: { local: number; at: string; dp: number }) =>
      `--data-parallel-size-local ${p.local} (${p.at}) is more than --data-parallel-size ${p.dp}: a node cannot serve more ranks than the instance has`,
    localAboveFix: (p: { script: string; line: number; dp: number }) =>
      `${p.script} line ${p.line}: --data-parallel-size-local ${p.dp}   # or raise --data-parallel-size to the ranks of every node together`,
    pastLast: (p: { start: number; last: number; dp: number; at: string }) =>
      `this node would serve ranks ${p.start}-${p.last}, past the last rank ${p.dp - 1} of --data-parallel-size ${p.dp} (--data-parallel-start-rank ${p.start} at ${p.at})`,
    pastLastFix: (p: { script: string; line: number; start: number }) =>
      `${p.script} line ${p.line}: --data-parallel-start-rank ${p.start}   # the ranks of the nodes before this one together; or raise --data-parallel-size`,
    startNotMultiple: (p: { start: number; at: string; local: number }) =>
      `--data-parallel-start-rank ${p.start} (${p.at}) is not a multiple of --data-parallel-size-local ${p.local}: with ${p.local} ranks per node the nodes start at 0, ${p.local}, ${p.local * 2}, ...`,
    startNotMultipleFix: (p: { script: string; line: number; below: number; above: number }) =>
      `${p.script} line ${p.line}: --data-parallel-start-rank ${p.below}   # or ${p.above}; the ranks of the nodes before this one together`,
    noMaxSeqs: (p: { script: string; profile: string; expected: number; dp: number; needed: number }) =>
      `no --max-num-seqs in ${p.script}: vLLM picks its default, and profile ${p.profile} expects ${p.expected} requests at once (${p.dp} DP ${p.dp === 1 ? 'group' : 'groups'} need ${p.needed} each)`,
    noMaxSeqsFix: (p: { script: string; line: number; needed: number; dp: number; expected: number }) =>
      `${p.script} line ${p.line}: --max-num-seqs ${p.needed}   # x --data-parallel-size ${p.dp} >= ${p.expected}`,
    lowCapacity: (p: { seqs: number; dp: number; capacity: number; expected: number; profile: string }) =>
      `--max-num-seqs ${p.seqs} x --data-parallel-size ${p.dp} = ${p.capacity} requests at once, below the ${p.expected} profile ${p.profile} expects: the rest wait in the queue, and TTFT counts the wait`,
    lowCapacityFix: (p: { script: string; line: number; flag: string; needed: number; dp: number; expected: number }) =>
      `${p.script} line ${p.line}: ${p.flag} ${p.needed}   # x --data-parallel-size ${p.dp} >= ${p.expected}; or lower deployment.expectedConcurrency`,
    weightsConfig: "the weights' config.json",
    tableConfig: (p: { id: string }) => `${p.id}'s config.json (qprep's table)`,
    divisorOf: (p: { flag: string; heads: number }) => `${p.flag} <a divisor of ${p.heads}>`,
    headsNotDivided: (p: { flag: string; tp: number; at: string; heads: number; model: string; source: string }) =>
      `${p.flag} ${p.tp} (${p.at}) does not divide the ${p.heads} attention heads of ${p.model} (${p.source}): vLLM refuses to start`,
    kvHeadsNotFit: (p: { flag: string; tp: number; at: string; kvHeads: number; model: string; source: string }) =>
      `${p.flag} ${p.tp} (${p.at}) does not fit the ${p.kvHeads} KV heads of ${p.model} (${p.source}): the KV heads are neither split evenly nor replicated`,
    headsFix: (p: { script: string; line: number; suggestion: string; fits: string }) => `${p.script} line ${p.line}: ${p.suggestion}   # TP sizes that fit: ${p.fits}`,
    msModelSlim: (p: { model: string; description: string; quantization: string | null }) =>
      `${p.model} is quantized by msModelSlim (${p.description}) but ${p.quantization !== null ? `--quantization is ${p.quantization}` : 'the server has no --quantization ascend'}: the quantized weights do not load`,
    quantizationFix: (p: { script: string; line: number }) => `${p.script} line ${p.line}: --quantization ascend`,
    looksQuantized: (p: { model: string }) =>
      `${p.model} looks W8A8/W4A8-quantized and the server has no --quantization ascend: msModelSlim weights need it (LLM-Compressor weights do not); the weights are not on this host to tell`,
    looksQuantizedFix: (p: { script: string; line: number }) =>
      `${p.script} line ${p.line}: --quantization ascend   # if the weights come from msModelSlim (they carry quant_model_description.json)`,
    captureSizes310pRule: (p: { tp: number; count: number; sizes: string; given: boolean; rule: string }) =>
      `with TP ${p.tp} on 310P the hardware event ids allow at most two cudagraph capture sizes; ` +
      (p.given ? `--compilation-config lists ${p.count} (${p.sizes})` : `none is given, so vLLM captures its default list of ${p.count} (${p.sizes})`) +
      ` (${p.rule})`,
    captureSizesFix: (p: { script: string; line: number; sizes: string }) => `${p.script} line ${p.line}: "cudagraph_capture_sizes": [${p.sizes}]`,
    captureSizesDefaultFix: (p: { script: string; line: number; sizes: string; mode: string | null }) =>
      `${p.script} line ${p.line}: --compilation-config '{"cudagraph_mode": "${p.mode ?? 'FULL_DECODE_ONLY'}", "cudagraph_capture_sizes": [${p.sizes}]}'   # two sizes, as the 310P guides do; or --enforce-eager`,
    eagerIgnoresGraphs: (p: { eagerAt: string; configAt: string; keys: string; rule: string }) =>
      `--enforce-eager (${p.eagerAt}) turns compilation off, so the graph settings of --compilation-config (${p.configAt}: ${p.keys}) are ignored: no graph is captured (${p.rule})`,
    eagerIgnoresGraphsFix: (p: { script: string; eagerLine: number; configLine: number }) =>
      `${p.script}: remove --enforce-eager (line ${p.eagerLine}) to capture the graphs, or the graph keys of --compilation-config (line ${p.configLine}) to run eager`,
    missingValue: (p: { flag: string; at: string }) => `${p.flag} (${p.at}) has no value: vllm refuses to start`,
    missingValueFix: (p: { script: string; line: number; flag: string }) => `${p.script} line ${p.line}: ${p.flag} <value>`,
    noModel: (p: { form: string; at: string }) => `${p.form} at ${p.at} names no model`,
    noModelFix: (p: { script: string; line: number }) => `${p.script} line ${p.line}: vllm serve /path/to/weights ...`,
    extraPositional: (p: { text: string; at: string }) => `"${p.text}" (${p.at}) is a second positional argument: vllm takes only the model (a flag lost its "--"?)`,
    extraPositionalFix: (p: { script: string; line: number }) => `${p.script} line ${p.line}: remove it or add the flag it belongs to`,
    wholeNumberFix: (p: { script: string }) => `${p.script}: write the size as a whole number`,
    fromInvocation: (p: { values: string; invocation: string; count: number }) =>
      `sizes come from the caller: ${p.values}; ${p.invocation} passes ${p.count === 1 ? 'it' : 'them'} computed at run time, and nothing is derived from ${p.count === 1 ? 'it' : 'them'} here`,
    fromTemplate: (p: { values: string; script: string; positional: boolean }) =>
      `sizes come from the caller: ${p.values}; ${p.script} is a template filled in by ${p.positional ? "the script's arguments (a launcher runs it, as examples/external_online_dp/launch_online_dp.py runs run_dp_template.sh)" : 'variables the script does not set (the caller exports them)'}, and nothing is derived from them here`,
    fromCallerFix: (p: { script: string }) => `check the script that runs ${p.script} with its arguments (qprep check --launch on a copy with the values written in)`,
    givenTwice: (p: { flag: string; before: string; after: string; line: number }) =>
      `--${p.flag} is given twice with different values (${p.before}, then ${p.after} at line ${p.line}): vllm keeps the last`,
    givenTwiceFix: (p: { script: string; flag: string }) => `${p.script}: keep one --${p.flag}`,
    mtpSizes: (p: { tokens: number; step: number; odd: number[] }) =>
      `with MTP (num_speculative_tokens ${p.tokens}) capture sizes should be multiples of ${p.step}; ${p.odd.join(', ')} ${p.odd.length === 1 ? 'is' : 'are'} not`,
    mtpSizesFix: (p: { script: string; line: number; sizes: string }) => `${p.script} line ${p.line}: "cudagraph_capture_sizes": [${p.sizes}]`,
    allRead: (p: { count: number; form: string; json: string | null }) => `${p.count} flags of ${p.form} read${p.json !== null ? `; ${p.json} valid JSON` : ''}`,
    andMore: (p: { first: string; more: number }) => `${p.first}${p.more > 0 ? ` (and ${p.more} more)` : ''}`,
    moreFixes: (p: { count: number; listed: number }) => `... and ${p.count} more fixes (the evidence lists the first ${p.listed} problems and counts them all)`,
  },
  'launch.network': {
    title: "Launch script's addresses and interfaces belong to this host",
    why:
      'HCCL_IF_IP must be an address of this host and the *_SOCKET_IFNAME interface must be up and carry it, or HCCL ' +
      'root-info, Gloo and the TP sockets bind elsewhere or nowhere ("Connection closed by peer", link-establish ' +
      'timeouts after the weights are loaded). The master address (--data-parallel-address, node0_ip) must be an IP the ' +
      'other nodes reach, and proxy variables left set send internal requests to the proxy.',
    reads: ['the --launch script (never executed)', 'network interfaces', 'TCP connect to the master (with --data-parallel-rpc-port)'],
    fix: "Set HCCL_IF_IP / local_ip to an address of this host, the interface variables to the interface that carries it, and the master address to node 0's local_ip; unset the proxy variables at the top of the script.",
    noInterfaces: (p: { problem: string }) => `cannot list the network interfaces: ${p.problem}`,
    noInterfacesFix: 'run qprep where it sees the host network (docker run --net=host), then re-run',
    /** the assignment stays as written; the comment after # is for the reader */
    fixExport: (p: { name: string; value: string; comment: string }) => `export ${p.name}="${p.value}"   # ${p.comment}`,
    fixAt: (p: { script: string; line: number; name: string; value: string; comment: string }) => `${p.script} line ${p.line}: ${p.name}="${p.value}"   # ${p.comment}`,
    computed: (p: { variable: string; dynamic: string }) => `${p.variable} is computed at run time (${p.dynamic})`,
    writtenLiterally: 'written literally, so it can be checked',
    thisHostAddress: '<this host address>',
    hostAddressOn: (p: { nic: string | null }) => `this host's address${p.nic !== null ? ` on ${p.nic}` : ''}`,
    empty: (p: { variable: string }) => `${p.variable} is empty`,
    notIp: (p: { variable: string; value: string }) => `${p.variable} is "${p.value}", not an IP address`,
    notLocal: (p: { variable: string; ip: string; local: string }) => `${p.variable} is ${p.ip}, which is not an address of this host (it has ${p.local})`,
    noIpv4: 'no IPv4 address',
    addressDown: (p: { variable: string; ip: string; nic: string }) => `${p.variable} ${p.ip} is on ${p.nic}, which is down`,
    addressUpFix: (p: { nic: string }) => `sudo ip link set ${p.nic} up   # or use the address of an interface that is up`,
    unreachableLocal: (p: { variable: string; ip: string; nodes: number }) =>
      `${p.variable} is ${p.ip}, which other nodes cannot reach (data parallel spans ${p.nodes} nodes)`,
    reachableAddress: 'an address the other nodes reach',
    checkedAddress: (p: { name: string; ip: string; nic: string }) => `${p.name} ${p.ip} on ${p.nic}`,
    interfaceOf: (p: { ip: string | null }) => (p.ip !== null ? `the interface carrying ${p.ip}` : "the interface of this node's address"),
    checkedExcludes: (p: { name: string; excluded: string }) => `${p.name} excludes ${p.excluded}`,
    noMatch: (p: { variable: string; value: string; interfaces: string }) =>
      `${p.variable} is "${p.value}", and no interface of this host matches it (interfaces: ${p.interfaces})`,
    manyMatch: (p: { variable: string; value: string; count: number; matched: string }) =>
      `${p.variable} "${p.value}" matches ${p.count} interfaces (${p.matched}) and HCCL takes the first one`,
    exactName: 'an exact name ("=" prefix) leaves HCCL no choice',
    noSuchInterface: (p: { variable: string; name: string; interfaces: string }) => `${p.variable} names ${p.name}, which does not exist here (interfaces: ${p.interfaces})`,
    interfaceDown: (p: { variable: string; name: string }) => `${p.variable} names ${p.name}, which is down`,
    interfaceUpFix: (p: { name: string; suggestion: string }) => `sudo ip link set ${p.name} up   # or name an interface that is up (${p.suggestion})`,
    otherInterface: (p: { variable: string; name: string; ip: string; actual: string | null }) =>
      `${p.variable} names ${p.name}, but HCCL_IF_IP ${p.ip} is on ${p.actual ?? 'another interface'}: they must name one interface`,
    checkedUp: (p: { name: string; nic: string }) => `${p.name} ${p.nic} up`,
    addressFlag: (p: { at: string }) => `--data-parallel-address (${p.at})`,
    addressFlagFix: (p: { script: string; line: number; value: string; comment: string }) => `${p.script} line ${p.line}: --data-parallel-address ${p.value}   # ${p.comment}`,
    noAddressFlag: (p: { script: string; local: number; dp: number }) =>
      `${p.script} serves ${p.local} of ${p.dp} data-parallel ranks (the rest on other nodes) without --data-parallel-address: vLLM then uses 127.0.0.1, which the other nodes cannot reach`,
    noAddressFlagFix: (p: { script: string; line: number; address: string | null; starts: boolean }) =>
      `${p.script} line ${p.line}: --data-parallel-address ${p.address ?? '<address of the node that starts rank 0>'}   # ${p.starts ? 'this node starts rank 0: its own address' : "node 0's local_ip"}, the same on every node of the instance`,
    nodeZeroAddress: '<address of node 0>',
    ownAddressNodeZero: 'this node is node 0 (start rank 0): its own address',
    nodeZeroLocalIp: "node 0's local_ip",
    masterNotLocal: (p: { master: string; value: string }) => `this node starts data-parallel rank 0 (the master) but ${p.master} ${p.value} is not one of its addresses`,
    masterIsThis: 'the master is this node: its own address',
    notMaster: (p: { master: string; value: string; start: number; headless: boolean }) =>
      `${p.master} ${p.value} is this host, but this node is not the master (start rank ${p.start}${p.headless ? ', --headless' : ''})`,
    accepts: (p: { address: string; port: number }) => `${p.address}:${p.port} accepts connections`,
    notCaptured: (p: { address: string; port: number }) => `whether ${p.address}:${p.port} answers was not captured in the snapshot`,
    refused: (p: { address: string; port: number }) => `${p.address} answers (port ${p.port} refused: nothing listens yet)`,
    noAnswer: (p: { address: string; port: number; error: string | null }) => `${p.address}:${p.port} does not answer (${p.error ?? 'no answer'})`,
    reachDetail: (p: { master: string; detail: string }) => `${p.master}: ${p.detail}`,
    recordAgainFix: (p: { file: string }) => `record the snapshot with this script (qprep snapshot --launch ${p.file})`,
    routeFix: (p: { address: string; port: number }) =>
      `check the route and firewall from this node to ${p.address} (ping ${p.address}; nc -vz ${p.address} ${p.port}), or correct the address`,
    checkedMaster: (p: { value: string; local: boolean }) => `master ${p.value}${p.local ? ' (this host)' : ''}`,
    proxyAt: (p: { name: string; line: number | null }) => (p.line === null ? `${p.name} (inherited)` : `${p.name} (line ${p.line})`),
    proxies: (p: { where: string }) => `proxy variables reach vllm: ${p.where}`,
    proxiesFix: (p: { names: string; script: string }) => `unset ${p.names}   # at the top of ${p.script}, as the guides do`,
    noneSet: (p: { script: string }) =>
      `${p.script} sets no HCCL_IF_IP, socket interface or master address: HCCL and Gloo pick an interface themselves (fine on one node)`,
    allGood: (p: { script: string; checked: string }) => `${p.script}: ${p.checked}`,
    masterAddrOneNode: (p: { flag: string; value: string; at: string; rule: string }) =>
      `${p.flag} ${p.value} (${p.at}) names the master of a multi-node launch (with --nnodes and --node-rank), but this server runs on one node: ` +
      `it does not set the address the API server listens on, which is --host (${p.rule})`,
    masterAddrOneNodeFix: (p: { script: string; line: number; flag: string; value: string; hostGiven: boolean }) =>
      p.hostGiven
        ? `${p.script} line ${p.line}: remove ${p.flag} ${p.value}   # one node: --host already sets the listening address`
        : `${p.script} line ${p.line}: --host ${p.value} instead of ${p.flag} ${p.value}   # or add --nnodes N --node-rank R for a launch over N nodes`,
    andMore: (p: { first: string; more: number }) => `${p.first}${p.more > 0 ? ` (and ${p.more} more)` : ''}`,
  },
  'launch.mooncake': {
    title: "Mooncake's Ascend transport: CANN, timeouts, libraries",
    why:
      "A Mooncake KV connector (prefill/decode disaggregation, the KV pool) moves the KV cache with Mooncake's Ascend direct transport, " +
      'which the vllm-ascend guides set up with rules of their own: a CANN newer than 8.3.RC1, ASCEND_TRANSFER_TIMEOUT above the RDMA ' +
      'retransmission time (4.096 us x 2^HCCL_RDMA_TIMEOUT x 7 retries), ASCEND_CONNECT_TIMEOUT about 500 ms per decode card, and the ' +
      'directory of its libraries on LD_LIBRARY_PATH. Each miss surfaces only at the first transfer, as a timeout or a failed import. ' +
      'Each rule is judged for the installed vllm-ascend release (knowledge/rules.json).',
    reads: ['the --launch script (never executed): --kv-transfer-config, its environment', 'the CANN install record', "the launch's Python site-packages (mooncake)"],
    fix: 'Install a CANN newer than 8.3.RC1, set the timeouts the guides give, and put the Mooncake library directory on LD_LIBRARY_PATH.',
    noServer: (p: { script: string }) => `${p.script} starts no vLLM server: no KV connector to check (launch.script says why)`,
    noMooncake: (p: { script: string }) => `${p.script} uses no Mooncake KV connector`,
    noMooncakeFix: 'nothing to do: the rules of Mooncake apply to a --kv-transfer-config with a Mooncake connector',
    cannAbove: (p: { version: string; above: string }) => `CANN ${p.version} (newer than ${p.above})`,
    cannTooOld: (p: { version: string; above: string; rule: string }) =>
      `CANN ${p.version} is not newer than ${p.above}, which Mooncake's Ascend direct transport needs (${p.rule})`,
    cannFix: (p: { above: string }) => `use a CANN newer than ${p.above} (the vllm-ascend image of the release, or its installation page)`,
    transferAbove: (p: { transfer: number; need: string; rdma: number }) => `ASCEND_TRANSFER_TIMEOUT ${p.transfer} ms above ${p.need} s (HCCL_RDMA_TIMEOUT ${p.rdma})`,
    transferShort: (p: { transfer: number; transferSet: boolean; rdma: number; rdmaSet: boolean; need: string; retries: number; rule: string }) =>
      `ASCEND_TRANSFER_TIMEOUT is ${p.transfer} ms${p.transferSet ? '' : ' (unset: the default the guides name)'}, not above the RDMA retransmission time ` +
      `4.096 us x 2^${p.rdma} x ${p.retries} = ${p.need} s (HCCL_RDMA_TIMEOUT ${p.rdma}${p.rdmaSet ? '' : ", CANN's default"}): a KV transfer gives up while RDMA still retries (${p.rule})`,
    transferFix: (p: { script: string; enough: number }) =>
      `export ASCEND_TRANSFER_TIMEOUT=${p.enough}   # before vllm serve in ${p.script}; or lower HCCL_RDMA_TIMEOUT (kv_pool.md sets 17 with 10000 ms), which collectives read too`,
    transferDefaults: "HCCL_RDMA_TIMEOUT and ASCEND_TRANSFER_TIMEOUT left to their defaults (Mooncake's own, which its releases changed: not judged)",
    connectDefault: (p: { cards: number }) => `ASCEND_CONNECT_TIMEOUT left to Mooncake's default for ${p.cards} decode cards (not judged: its releases changed it)`,
    connectEnough: (p: { connect: number; cards: number }) => `ASCEND_CONNECT_TIMEOUT ${p.connect} ms for ${p.cards} decode cards`,
    connectShort: (p: { connect: number; set: boolean; cards: number; perCard: number; need: number; rule: string }) =>
      `ASCEND_CONNECT_TIMEOUT is ${p.connect} ms${p.set ? '' : ' (unset: the default the guides name)'}, below ${p.perCard} ms x ${p.cards} decode cards = ${p.need} ms: ` +
      `when every decode card connects to the same prefill card at once, the last ones time out (${p.rule})`,
    connectFix: (p: { script: string; need: number }) => `export ASCEND_CONNECT_TIMEOUT=${p.need}   # before vllm serve in ${p.script}`,
    libraryPathHolds: (p: { dirs: string }) => `LD_LIBRARY_PATH holds ${p.dirs}`,
    libraryPathMissing: (p: { value: string | null; dir: string; rule: string }) =>
      `LD_LIBRARY_PATH ${p.value === null || p.value === '' ? 'is not set' : `(${p.value}) holds neither /usr/local/lib, /usr/local/lib64 nor ${p.dir}`}: ` +
      `the guides put the directory of Mooncake's libraries there for the connector to load them (${p.rule})`,
    libraryPathFix: (p: { script: string; dir: string }) => `export LD_LIBRARY_PATH=${p.dir}:/usr/local/lib:/usr/local/lib64:$LD_LIBRARY_PATH   # before vllm serve in ${p.script}`,
    noPackage: "no mooncake package for the launch's Python here, LD_LIBRARY_PATH not judged (run qprep in the serving container)",
    passed: (p: { script: string; connectors: string; checked: string | null }) =>
      `${p.script}: ${p.connectors}${p.checked !== null ? `: ${p.checked}` : ''}`,
    andMore: (p: { first: string; more: number }) => `${p.first}${p.more > 0 ? ` (and ${p.more} more)` : ''}`,
  },
  'launch.cpu-binding': {
    title: 'CPU binding ready: CPUs per NPU, OMP_PROC_BIND',
    why:
      'From v0.18.0rc1 vllm-ascend binds each worker, its ACL and release threads and the NPU interrupts to CPUs of its own on ARM ' +
      'servers. It slices the allowed CPUs (Cpus_allowed_list: the container cpuset) over every NPU of the node and needs 5 per NPU; with fewer it ' +
      'logs "Insufficient CPUs for binding" and runs unbound, and a worker then competes for CPUs with the others. OMP_PROC_BIND other than false ' +
      "lets PyTorch's libgomp pin the process to one CPU before the binding runs, which then fails. Each rule is judged for the installed release.",
    reads: ['/proc/self/status (Cpus_allowed_list)', 'npu-smi info (the NPUs of the node)', 'the --launch script (never executed): --additional-config, OMP_PROC_BIND'],
    fix: 'Give the container at least 5 CPUs per NPU of the node (or fewer visible NPUs), and export OMP_PROC_BIND=false.',
    noServer: (p: { script: string }) => `${p.script} starts no vLLM server: nothing to bind (launch.script says why)`,
    tooFewCpus: (p: { cpus: number; npus: number; perNpu: number; minimum: number; rule: string }) =>
      `the cpuset allows ${p.cpus} CPUs for the ${p.npus} NPUs of this node: ${p.perNpu} per NPU, below the ${p.minimum} vllm-ascend's CPU binding needs; ` +
      `it logs "Insufficient CPUs for binding" and the workers run unbound (${p.rule})`,
    tooFewCpusFix: (p: { need: number }) =>
      `give the container at least ${p.need} CPUs (docker run --cpuset-cpus, the pod's CPU request), or turn the binding off: --additional-config '{"enable_cpu_binding": false}'`,
    ompProcBind: (p: { value: string; line: number | null; script: string; rule: string }) =>
      `OMP_PROC_BIND=${p.value}${p.line !== null ? ` (${p.script}:${p.line})` : ' (inherited)'}: PyTorch's libgomp pins the process to one CPU at import, ` +
      `before vllm-ascend binds it, and the binding then finds no CPU of its NPU ("conflict with NUMA affinity"); the guides export false (${p.rule})`,
    ompProcBindFix: (p: { script: string; line: number }) => `${p.script} line ${p.line}: export OMP_PROC_BIND=false`,
    ompProcBindInheritedFix: 'export OMP_PROC_BIND=false   # in the launch script, before vllm serve',
    notRead: (p: { script: string; path: string }) =>
      `${p.script}: the cpuset (Cpus_allowed_list of ${p.path}) or the NPUs of this node could not be read: the CPUs per NPU of vllm-ascend's binding are not judged`,
    notReadFix: 'run qprep check in the container that serves, where npu-smi and /proc/self/status show what vLLM will see',
    separator: '; ',
    ready: (p: { script: string; arch: string; perNpu: number | null; npus: number | null; disabled: boolean; omp: string | null; outside: { rule: string; from: string; installed: string } | null }) =>
      `${p.script}: ` +
      (p.disabled
        ? 'CPU binding turned off (enable_cpu_binding false)'
        : p.arch !== 'aarch64'
          ? `no CPU binding on ${p.arch} (vllm-ascend binds on ARM only)`
          : p.outside !== null
            ? `the CPUs per NPU are not judged for vllm-ascend ${p.outside.installed} (rule ${p.outside.rule} holds from ${p.outside.from})`
            : p.perNpu !== null
            ? `${p.perNpu} CPUs of the cpuset per NPU (${p.npus} NPUs)`
            : 'the cpuset or the NPUs could not be read: the CPUs per NPU are not judged') +
      (p.omp !== null ? `; OMP_PROC_BIND=${p.omp}` : ''),
  },
} satisfies CheckEntries;
