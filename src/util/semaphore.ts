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
   * of habit, when it is done.
   */
  async hold(): Promise<() => void> {
    await this.acquire();
    let held = true;
    return () => {
      if (!held) return;
      held = false;
      this.release();
    };
  }

  private acquire(): Promise<void> {
    if (this.active < this.limit) {
      this.active++;
      return Promise.resolve();
    }
    return new Promise((resolve) => this.waiting.push(resolve));
  }

  private release(): void {
    const next = this.waiting.shift();
    if (next) next();
    else this.active--;
  }
}
