import { LIBRARY_CALLS, type LibraryAnswers } from './inventory-process.js';

/** How long a resident agent keeps the inventory process's answer: it asks again after this. */
export const LIBRARY_ANSWER_MAX_AGE_MS = 60 * 60 * 1000;

/**
 * What the inventory process answered (the server model, BIOS, CPU, memory size, OS release),
 * kept from one run of `qprep serve` to the next. Starting that process is a second Node start
 * and systeminformation's helpers, about half a CPU-second on a node: every 5 minutes, for facts
 * that change with a reboot, a hardware change or an OS upgrade. An answer is kept only when
 * every call answered, for at most an hour, and never across a reboot (the kernel's boot id);
 * the reads from sysfs (DMI strings, NUMA nodes, NICs) are made by every run.
 */
export class LibraryAnswerCache {
  private kept: { answers: LibraryAnswers; atMs: number; bootId: string } | undefined;

  constructor(
    private readonly maxAgeMs: number = LIBRARY_ANSWER_MAX_AGE_MS,
    private readonly now: () => number = Date.now,
  ) {}

  /** The kept answer when it is still good for this boot, else `ask()`'s (kept when complete). */
  async answers(bootId: string | undefined, ask: () => Promise<LibraryAnswers>): Promise<LibraryAnswers> {
    const kept = this.kept;
    if (kept && bootId !== undefined && kept.bootId === bootId && this.now() - kept.atMs < this.maxAgeMs) return kept.answers;
    const answers = await ask();
    const complete = LIBRARY_CALLS.every((call) => answers[call].ok);
    this.kept = complete && bootId !== undefined ? { answers, atMs: this.now(), bootId } : undefined;
    return answers;
  }
}
