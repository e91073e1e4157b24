export interface Progress {
  start(total: number): void;
  update(done: number, total: number, id: string): void;
  stop(): void;
}

/** "checking 5/20 npu.smi" on one rewritten stderr line; nothing at all when stderr is not a terminal. */
export function createProgress(stream: NodeJS.WriteStream): Progress {
  if (!stream.isTTY) return { start() {}, update() {}, stop() {} };
  let shown = false;
  const draw = (text: string) => {
    stream.write(`\r\x1b[K${text}`);
    shown = true;
  };
  return {
    start(total) {
      draw(`qprep: checking 0/${total}`);
    },
    update(done, total, id) {
      draw(`qprep: checking ${done}/${total} (${id} done)`);
    },
    stop() {
      if (shown) stream.write('\r\x1b[K');
    },
  };
}
