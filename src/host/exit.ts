/**
 * Ending the process when a file operation may be stuck in the kernel.
 *
 * Host files are opened and written on libuv's thread pool. A call that never returns (a write
 * to a wedged driver's sysfs attribute, a FIFO where a tunable should be) keeps its thread, and
 * Node joins those threads when the process exits: process.exit() would then wait forever, and
 * qprep would hang after its report or after SIGTERM. So the operations are counted, and an
 * exit waits a moment for them; what is still running then is stuck, and the process ends with
 * SIGKILL, saying so, rather than never.
 */

const STUCK_AFTER_MS = 1000;

let pending = 0;

/** Counts an operation on host files until it settles (if it ever does). */
export function trackFileOperation<T>(operation: Promise<T>): Promise<T> {
  pending++;
  operation.then(
    () => pending--,
    () => pending--,
  );
  return operation;
}

/** process.exit(code), unless a file operation is stuck: then SIGKILL, after one line on stderr. */
export async function exitProcess(code: number): Promise<never> {
  const deadline = Date.now() + STUCK_AFTER_MS;
  while (pending > 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
  if (pending > 0) {
    process.stderr.write(
      `qprep: error: ${pending === 1 ? 'a file operation is' : `${pending} file operations are`} stuck in the kernel ` +
        '(a wedged driver, or a FIFO where a file should be); Node cannot exit past it: ending with SIGKILL\n',
    );
    process.kill(process.pid, 'SIGKILL');
  }
  process.exit(code);
}
