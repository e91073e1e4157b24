import { readFileSync } from 'node:fs';

/** One line of the simulated node's call log (bench/lib/sim-node.mjs): `START END OUTCOME ARGV...`. */
export interface LoggedCall {
  startS: number;
  endS: number;
  outcome: string;
  command: string;
}

/** The calls the fake npu-smi and hccn_tool logged, in the order of the log; none before the first call. */
export function loggedCalls(logFile: string): LoggedCall[] {
  let text = '';
  try {
    text = readFileSync(logFile, 'utf8');
  } catch {
    return [];
  }
  return text
    .split('\n')
    .filter(Boolean)
    .map((line) => {
      const [start, end, outcome, ...command] = line.split(' ');
      return { startS: Number(start), endS: Number(end), outcome: outcome!, command: command.join(' ').trim() };
    });
}
