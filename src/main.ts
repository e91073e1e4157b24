import { earlyCallPlan } from './app/early-plan.js';
import { catchSignals, holdSignals } from './app/signals.js';

/**
 * The first lines of the qprep process, before the command line is parsed: the signals caught,
 * so that one in the first moments ends the run with its document; and, for a check of the live
 * host, the first tool calls started (`npu-smi info` and the first `hccn_tool` question), so that
 * they run while the rest of qprep loads. In the single file this is the only code Node parses
 * with the file; the start-up part (commander, the catalogues) and the implementation are
 * compiled after it.
 */
export async function start(argv: readonly string[]): Promise<never> {
  catchSignals();
  const plan = earlyCallPlan(argv, process.env, process.cwd());
  if (plan) {
    // the check's tools run from now on: a signal is the check's to handle, as once it has
    // started (its partial report, its probes killed), kept for it until it takes the signals
    holdSignals();
    (await import('./host/early-calls.js')).startEarlyCalls(plan);
  }
  return (await import('./cli.js')).main(argv);
}
