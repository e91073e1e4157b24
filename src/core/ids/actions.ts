/**
 * What an operator does about a finding: the closed list of the report's `action` field, mildest
 * first, so that the worst of several is the one furthest down. Every non-pass result carries one
 * (a skip: `none`); the report's summary carries the worst of the run (`worstAction`). Like the
 * other ids of this folder they are never translated: the catalogue says each in words
 * (`report.actions`).
 *
 * - `none`: nothing to do on the host (a check that does not apply, a note)
 * - `monitor`: keep serving and watch it (a finding that may grow: a flap, a single-bit ECC)
 * - `reconfigure`: change a setting, a file, a mount, a flag, a package (the remediation says which)
 * - `restart-workload`: stop or re-run the workload (a process holding an NPU, a fault whose
 *   handling is to re-run the job)
 * - `reset-npu`: reset the chip (`npu-smi set -t reset`), the workload stopped first
 * - `isolate-npu`: take the chip out of service until the cause is found
 * - `replace-part`: reseat or replace a module, a cable or the card
 */
export const ACTIONS = ['none', 'monitor', 'reconfigure', 'restart-workload', 'reset-npu', 'isolate-npu', 'replace-part'] as const;

export type Action = (typeof ACTIONS)[number];

/** The worst of some actions (their place in ACTIONS); `none` for none. */
export function worstAction(actions: Iterable<Action | undefined>): Action {
  let worst = 0;
  for (const action of actions) if (action !== undefined) worst = Math.max(worst, ACTIONS.indexOf(action));
  return ACTIONS[worst]!;
}
