import type { ConfigIssue, PythonVia } from '../types.js';

/** Text of the shared probes (src/probes/), which several checks put into their messages. */
export const probes = {
  /** a file probe that failed (describeProbeError) */
  file: {
    notFound: (p: { path: string }) => `${p.path}: no such file or directory`,
    denied: (p: { path: string }) => `${p.path}: permission denied`,
    notCaptured: (p: { path: string }) => `${p.path}: not captured in the snapshot`,
    exists: (p: { path: string }) => `${p.path}: already exists`,
    other: (p: { path: string; message: string }) => `${p.path}: ${p.message}`,
  },
  /** why a command gave no usable answer (commandProblem) */
  command: {
    timedOut: (p: { line: string; timeoutMs: number }) => `"${p.line}" did not finish within ${p.timeoutMs} ms and was killed with its child processes`,
    notFound: (p: { line: string }) => `"${p.line}": command not found`,
    /** `failure` is the operating system's reason (EACCES, ENOEXEC), as the host seam words it */
    failure: (p: { line: string; failure: string }) => `"${p.line}": ${p.failure}`,
    killed: (p: { line: string; signal: string }) => `"${p.line}" was killed by ${p.signal}`,
    exited: (p: { line: string; exitCode: number | null; detail: string | null }) => `"${p.line}" exited with code ${p.exitCode}${p.detail ? `: ${p.detail}` : ''}`,
  },
  npu: {
    /** the logical device of an A3, a 310P or a renumbered card, and the card and chip it is on */
    deviceOfChip: (p: { device: number; card: number; chip: number }) => `device ${p.device} (NPU ${p.card} chip ${p.chip})`,
    card: (p: { card: number }) => `NPU ${p.card}`,
    /** npu-smi info -t board needs a card id from the table */
    noEccCounters: (p: { line: string }) => `"${p.line}" printed no ECC counter`,
    eccNotCaptured: (p: { line: string }) => `"${p.line}" is not in the snapshot (recorded without it)`,
    noNpuToAsk: 'npu-smi gave no NPU to ask',
    /** a check that needs the NPU table cannot assess the node without it */
    inventoryUnavailable: (p: { what: string; problem: string }) => `cannot check ${p.what}: ${p.problem}`,
    sameCause: (p: { remediation: string }) => `${p.remediation} (npu.smi reports the same cause)`,
    /** what went wrong with npu-smi info; `line` is the quoted command */
    problems: {
      notFound: (p: { dirs: string }) => `npu-smi not found (not on PATH, not in ${p.dirs})`,
      dcmi: (p: { line: string; text: string; name: string; cause: string }) => `${p.line} failed: "${p.text}" (${p.name}: ${p.cause})`,
      libraryMissing: (p: { line: string; library: string; text: string }) => `${p.line} cannot start: ${p.library} is missing (${p.text})`,
      noNpu: (p: { line: string; text: string }) => `${p.line} says: ${p.text}`,
      killed: (p: { problem: string; output: string | null }) => `${p.problem}${p.output ? `: ${p.output}` : ' and printed nothing'}`,
      exited: (p: { line: string; exitCode: number | null; output: string | null }) => `${p.line} exited with code ${p.exitCode}${p.output ? `: ${p.output}` : ' and printed nothing'}`,
      unparseable: (p: { line: string; lineNumber: number; reason: string; text: string | null }) =>
        `cannot read the output of ${p.line}: line ${p.lineNumber}: ${p.reason}${p.text ? ` ("${p.text}")` : ''}`,
    },
    /** the one remediation for each npu-smi problem (npuSmiRemediation) */
    remediation: {
      notFoundInContainer: (p: { flag: string }) => `add ${p.flag} to docker run (some hosts have it in /usr/local/sbin: mount that path instead)`,
      notFoundOnHost: 'install the NPU driver package (npu-smi comes with it), or add its directory to PATH',
      timeout:
        'the driver may be wedged: look for stuck npu-smi processes (ps -ef | grep npu-smi) and davinci errors in dmesg; reset the NPU or reboot the node if it persists (or re-run with a larger --timeout)',
      notCaptured: 'record the snapshot again with "qprep snapshot -o FILE" on the host',
      flooded: 'npu-smi printed far more than its table: run "npu-smi info | head -50" by hand, and repair or reinstall the driver if that is garbage',
      notExecutable: 'make npu-smi executable for this user, or run qprep as root',
      killed: (p: { signal: string }) =>
        `npu-smi crashed (${p.signal}): run "npu-smi info" by hand, look for davinci or dcmi errors in dmesg, and reinstall the driver if it keeps crashing`,
      failed: 'run the command by hand and read its output; reinstall the driver if npu-smi itself is broken',
      libraryInContainer: (p: { mount: string }) => `add ${p.mount} to docker run`,
      underRoot: (p: { root: string; flags: string }) =>
        `with --root ${p.root} the commands run from qprep's own environment (its PATH, libraries and /dev), not from ${p.root}: bring the host's tools into qprep's container with ${p.flags} (in Kubernetes: read-only hostPath volumes at the same paths, as examples/kubernetes/qprep-daemonset.yaml mounts them), or run qprep on the host itself`,
      libraryUnderRoot: (p: { root: string; mount: string }) =>
        `with --root ${p.root} npu-smi runs from qprep's own environment, which lacks the driver's libraries: add ${p.mount} to qprep's container (in Kubernetes: a read-only hostPath volume at the same path)`,
      libraryOnHost: (p: { library: string }) => `reinstall the NPU driver package (${p.library} belongs to it), then run ldconfig`,
      noNpuInContainer: 'pass the NPUs to the container (--device /dev/davinciN for each, and the control devices)',
      noNpuOnHost: 'the driver sees no NPU: check "lspci | grep -i d80" and dmesg, then reinstall the driver and firmware',
      unparseable: 'report it with the output attached ("qprep snapshot -o FILE --only npu" records it)',
    },
  },
  // ---- hccn.* and net.* (src/probes/hccn-scope.ts, src/probes/nic-link.ts); keys alphabetical
  hccn: {
    /** busy, noPingResult, notA*, notFound, unparsable: why an hccn_tool call gave no answer; the evidence keeps the English */
    busy: (p: { command: string; attempts: number; seconds: string }) =>
      `"${p.command}" answered "hccn_tool is busy" ${p.attempts} times over ${p.seconds} s; another program is using hccn_tool on this host`,
    /** one of a check's hccn_tool questions failed on some devices; `what` is the check's own words */
    cannotRead: (p: { what: string; failed: number; total: number; devices: string; problem: string }) =>
      `cannot read ${p.what} of ${p.failed} of ${p.total} devices (${p.devices}): ${p.problem}`,
    noDeviceSelected: (p: { source: string; selection: string; listed: number }) =>
      `no NPU device to examine: ${p.source} ${p.selection} selects none of the ${p.listed} devices npu-smi lists`,
    noNpuNetwork310p: (p: { what: string }) =>
      `the 310P family has no NPU network (no RoCE ports, no hccn_tool): ${p.what} does not apply; nodes talk over the host network`,
    noNpuNetwork310pFix: 'nothing to do here; a multi-node 310P deployment depends on the host network (net.host-nic)',
    noPingResult: (p: { command: string; reason: string | null }) => `"${p.command}" printed no ping result${p.reason !== null ? `: ${p.reason}` : ''}`,
    notADevice: (p: { device: string }) => `refused to run hccn_tool for device "${p.device}": not a device id`,
    notAnAddress: (p: { address: string }) => `refused to ping "${p.address}": not an IPv4 address`,
    notFound: (p: { tool: string; searched: string }) => `${p.tool} not found (searched ${p.searched})`,
    selectionFix: (p: { source: string }) => `correct ${p.source} (ids count the visible devices from 0)`,
    /** a problem of the NPU network is only a warning on a single node: says why */
    singleNode: (p: { message: string }) =>
      `${p.message} (a warning on a single node: only traffic between nodes uses the NPU network; --cluster or a multi-node profile makes it blocking)`,
    toolBusyFix: 'another program keeps hccn_tool busy (an exporter, a monitoring loop): pause it while qprep runs, or raise hccn.busyRetries in the profile',
    toolExpiredFix: 'raise hccn.peersBudget in the profile, or ping fewer pairs (plan: ring or same-index in the cluster file)',
    toolFailedFix: (p: { command: string }) =>
      `run "${p.command}" by hand and read its answer; a driver that cannot answer needs "npu-smi info" and dmesg checked`,
    toolMissingInContainerFix: (p: { flag: string }) => `add ${p.flag} to docker run (npu.tools reports the same cause)`,
    toolMissingOnHostFix: 'install the NPU driver package (it ships hccn_tool in /usr/local/Ascend/driver/tools) (npu.tools reports the same cause)',
    toolRefusedFix: 'report this with "qprep snapshot -o snap.json --only hccn" attached',
    unparsable: (p: { command: string; reason: string }) => `"${p.command}": ${p.reason}`,
  },
  nicLink: {
    halfDuplex: (p: { nic: string }) => `${p.nic} runs half duplex`,
    notForwarding: (p: { nic: string; state: string }) => `${p.nic} is ${p.state} (operstate)`,
    slow: (p: { nic: string; speedMbps: number; minMbps: number }) =>
      `${p.nic} links at ${p.speedMbps} Mb/s, below the ${p.minMbps} Mb/s a multi-node deployment needs (host.nic.minSpeedMbps)`,
    /** "eth0 100000 Mb/s, MTU 9000" */
    summary: (p: { nic: string; speedMbps: number | null; halfDuplex: boolean; mtu: number | null }) =>
      `${p.nic} ${p.speedMbps === null ? 'speed not reported' : `${p.speedMbps} Mb/s`}${p.halfDuplex ? ' half duplex' : ''}, MTU ${p.mtu ?? 'unknown'}`,
  },
  /** the ping summary of hccn.peers (src/cluster/ping-summary.ts); the evidence keeps its English */
  pings: {
    allOk: (p: { total: number; skipped: number }) => `all ${p.total} pings ok${p.skipped > 0 ? ` (${p.skipped} skipped)` : ''}`,
    failed: (p: { failed: number; total: number; list: string }) => `${p.failed} of ${p.total} pings failed: ${p.list}`,
    localReachesNone: (p: { node: string; device: number; count: number }) =>
      `${p.node} dev${p.device} reached none of its ${p.count} peer devices: check its link, cable and address (hccn_tool -i ${p.device} -link -g; hccn_tool -i ${p.device} -ip -g)`,
    loss: (p: { loss: string }) => `${p.loss} loss`,
    nonePlannable: (p: { lines: string }) => `no ping could be planned: ${p.lines}`,
    nonePlanned: 'no ping planned',
    notAssessed: (p: { problem: string }) => `not assessed: ${p.problem}`,
    notAssessedCount: (p: { errors: number; total: number; list: string }) => `${p.errors} of ${p.total} could not be assessed: ${p.list}`,
    notPlanned: (p: { localNode: string; localDevice: number; peerNode: string; peerDevice: number | null; reason: string }) =>
      `${p.localNode} dev${p.localDevice} -> ${p.peerNode}${p.peerDevice === null ? '' : ` dev${p.peerDevice}`}: not planned: ${p.reason}`,
    ok: 'ok',
    /** "dev3 (100% loss)" */
    pairOutcome: (p: { pair: string; outcome: string }) => `${p.pair} (${p.outcome})`,
    /** joins the parts of a peer line or a headline */
    parts: (p: { parts: string[] }) => p.parts.join('; '),
    peerAnswersNone: (p: { peer: string; count: number }) =>
      `${p.peer} answered none of ${p.count} pings: the node is down or off the NPU network, or its device IPs in the cluster file are wrong`,
    peerDeviceAnswersNone: (p: { peer: string; device: number; count: number }) =>
      `${p.peer} dev${p.device} answered none of the ${p.count} local devices that pinged it: check that device on ${p.peer}`,
    peerFailing: (p: { pairs: string }) => `failing ${p.pairs}`,
    peerNotAssessed: (p: { pairs: string }) => `not assessed ${p.pairs}`,
    /** the parts of one peer's line: "node2: 14 of 16 ok; failing dev3 (100% loss); 2 skipped" */
    peerOk: (p: { peer: string; ok: number; total: number }) => `${p.peer}: ${p.ok} of ${p.total} ok`,
    peerSkipped: (p: { count: number }) => `${p.count} skipped`,
    /** "node1 dev3 -> node2 dev3 (198.18.2.3)", with "hccs" for an A3 HCCS ping */
    ping: (p: { localNode: string; localDevice: number; peerNode: string; peerDevice: number; address: string; hccs: boolean }) =>
      `${p.localNode} dev${p.localDevice} -> ${p.peerNode} dev${p.peerDevice} (${p.address}${p.hccs ? ', hccs' : ''})`,
    /** one report line: "node1 dev3 -> node2 dev3 (198.18.2.3): 100% loss" */
    result: (p: { ping: string; outcome: string }) => `${p.ping}: ${p.outcome}`,
    skipped: (p: { reason: string }) => `skipped: ${p.reason}`,
    unreachable: 'destination host unreachable',
  },
  // ---- end of hccn.* and net.*
  // the Python, model and kernel-value probes (src/probes/python.ts, model.ts, files.ts), alphabetical by key
  model: {
    /** why config.json cannot be used; an unreadable file's problem is the system's own words */
    configProblem: (p: ConfigIssue) =>
      p.kind === 'missing'
        ? 'no config.json'
        : p.kind === 'not-object'
          ? 'config.json is not a JSON object'
          : p.kind === 'not-json'
            ? `config.json is not valid JSON: ${p.error}`
            : p.problem,
    notDirectory: (p: { path: string; kind: string }) => `${p.path} is a ${p.kind}, not a directory`,
  },
  python: {
    /** how the interpreter was found: "the #! line of /usr/local/bin/vllm" */
    via: (p: PythonVia) =>
      p.kind === 'script-runs'
        ? `${p.python}, the interpreter the script runs`
        : p.kind === 'shebang'
          ? `the #! line of ${p.launcher}`
          : `the first python3 on PATH${p.missing === null ? '' : `, no ${p.missing} found`}`,
  },
  value: {
    /** a kernel file that should hold one integer */
    notInteger: (p: { path: string; got: string }) => `${p.path}: expected an integer, got "${p.got}"`,
  },
};
