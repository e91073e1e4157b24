import { LIBRARY_CALLS, pickFields, type AnswerLine, type LibraryCall } from './inventory-process.js';

/*
 * The inventory process (inventory-process.ts says why there is one): qprep started again with
 * INVENTORY_PROCESS_ARG. It asks systeminformation, prints one line per answer as soon as it
 * has it, and exits. It reads nothing but what the library reads and writes nothing but its
 * standard output; the qprep that started it bounds it, kills it and sweeps its helpers.
 */

/** The part of systeminformation the inventory calls. */
interface SystemInformationApi {
  system(): Promise<unknown>;
  bios(): Promise<unknown>;
  cpu(): Promise<unknown>;
  mem(): Promise<unknown>;
  osInfo(): Promise<unknown>;
}

/**
 * The next call starts when the one before has answered, or after this long. One at a time,
 * because a helper run with execSync blocks the whole process: the calls whose helpers rarely
 * hang (mem, osInfo, cpu) answer and are printed before those that run dmidecode and dmesg
 * (bios, system) start. Not waiting longer than this, because a helper run asynchronously that
 * hangs leaves its call pending for ever: the next call must not wait for it.
 */
const NEXT_CALL_AFTER_MS = 300;

function print(line: AnswerLine): void {
  // standard output is a pipe, written synchronously on Linux: the line is out before the next call can block
  process.stdout.write(`${JSON.stringify(line)}\n`);
}

function messageOf(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).split('\n')[0] ?? '';
}

async function ask(library: SystemInformationApi, call: LibraryCall): Promise<void> {
  try {
    print({ call, value: pickFields(call, await library[call]()) });
  } catch (error) {
    print({ call, error: messageOf(error) });
  }
}

/** Asks every call, printing each answer, then exits; the caller kills it at its budget. */
export async function runInventoryWorker(): Promise<never> {
  let library: SystemInformationApi;
  try {
    const loaded = (await import('systeminformation')) as unknown as { default?: SystemInformationApi } & SystemInformationApi;
    library = loaded.default ?? loaded;
  } catch (error) {
    print({ load: messageOf(error) });
    process.exit(0);
  }
  const asked: Array<Promise<void>> = [];
  for (const call of LIBRARY_CALLS) {
    const answered = ask(library, call);
    asked.push(answered);
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([answered, new Promise<void>((resolve) => (timer = setTimeout(resolve, NEXT_CALL_AFTER_MS)))]);
    clearTimeout(timer);
  }
  await Promise.all(asked);
  process.exit(0);
}
