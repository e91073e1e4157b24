/** A counting semaphore: at most `limit` holders at once, served in arrival order. */
export class Semaphore {
  private active = 0;
  private readonly waiting: Array<() => void> = [];

  constructor(readonly limit: number) {
    if (!Number.isInteger(limit) || limit < 1) throw new RangeError(`semaphore limit must be a positive integer, got ${limit}`);
  }

  async use<T>(task: () => Promise<T>): Promise<T> {
    const release = await this.hold();
    try {
      return await task();
    } finally {
      release();
    }
  }

  /**
   * Waits for a slot and returns what gives it back. Calling that more than once gives back one
   * slot: a holder may free its slot early (a command whose process has ended) and again, out
   * of habit, when it is done. A slot free now is taken before this returns (synchronously).
   */
  hold(): Promise<() => void>;
  /** The same, or undefined when `cancel` aborts first: the wait is given up and no slot is taken. */
  hold(cancel: AbortSignal): Promise<(() => void) | undefined>;
  async hold(cancel?: AbortSignal): Promise<(() => void) | undefined> {
    if (!(await this.acquire(cancel))) return undefined;
    let held = true;
    return () => {
      if (!held) return;
      held = false;
      this.release();
    };
  }

  private acquire(cancel: AbortSignal | undefined): Promise<boolean> {
    if (cancel?.aborted) return Promise.resolve(false);
    if (this.active < this.limit) {
      this.active++;
      return Promise.resolve(true);
    }
    return new Promise((resolve) => {
      const grant = () => {
        cancel?.removeEventListener('abort', giveUp);
        resolve(true);
      };
      const giveUp = () => {
        const at = this.waiting.indexOf(grant);
        if (at >= 0) this.waiting.splice(at, 1);
        resolve(false);
      };
      cancel?.addEventListener('abort', giveUp, { once: true });
      this.waiting.push(grant);
    });
  }

  private release(): void {
    const next = this.waiting.shift();
    if (next) next();
    else this.active--;
  }
}
