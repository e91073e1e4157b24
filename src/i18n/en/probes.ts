import type { ConfigIssue } from '../../probes/model.js';
import type { PythonVia } from '../../probes/python.js';

/** Text of the shared probes (src/probes/), which several checks put into their messages. */
export const probes = {
  npu: {
    /** the logical device of an A3, a 310P or a renumbered card, and the card and chip it is on */
    deviceOfChip: (p: { device: number; card: number; chip: number }) => `device ${p.device} (NPU ${p.card} chip ${p.chip})`,
    card: (p: { card: number }) => `NPU ${p.card}`,
    /** a check that needs the NPU table cannot assess the node without it */
    inventoryUnavailable: (p: { what: string; problem: string }) => `cannot check ${p.what}: ${p.problem}`,
    sameCause: (p: { remediation: string }) => `${p.remediation} (npu.smi reports the same cause)`,
  },
  // the Python and model probes (src/probes/python.ts, src/probes/model.ts), alphabetical by key
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
};
