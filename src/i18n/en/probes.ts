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
      libraryOnHost: (p: { library: string }) => `reinstall the NPU driver package (${p.library} belongs to it), then run ldconfig`,
      noNpuInContainer: 'pass the NPUs to the container (--device /dev/davinciN for each, and the control devices)',
      noNpuOnHost: 'the driver sees no NPU: check "lspci | grep -i d80" and dmesg, then reinstall the driver and firmware',
      unparseable: 'report it with the output attached ("qprep snapshot -o FILE --only npu" records it)',
    },
  },
};
