import { visibleLine } from '../util/text.js';

/**
 * The log of `qprep serve`: one JSON object per line on stderr (journald and kubectl logs keep
 * the lines; Loki, Vector or jq read them). A line carries check ids, verdicts, counts, file
 * names and error messages, never a report's evidence, environment or a launch script: the
 * log must be safe to ship anywhere.
 */
export type LogLevel = 'info' | 'warn' | 'error';

export type LogFields = Record<string, unknown>;

export interface Logger {
  log(level: LogLevel, event: string, fields?: LogFields): void;
}

export function jsonLogLine(level: LogLevel, event: string, fields: LogFields, now: Date): string {
  const clean = Object.fromEntries(
    Object.entries(fields)
      .filter(([, value]) => value !== undefined)
      .map(([key, value]) => [key, typeof value === 'string' ? visibleLine(value, 500) : value]),
  );
  return `${JSON.stringify({ time: now.toISOString(), level, event, ...clean })}\n`;
}

export function streamLogger(stream: NodeJS.WritableStream, now: () => Date = () => new Date()): Logger {
  return {
    log(level, event, fields = {}) {
      stream.write(jsonLogLine(level, event, fields, now()));
    },
  };
}

/**
 * A log line for something a client can make happen at will (a refused connection, a refused
 * Host): the first at once, then at most one line a period, counting what came since, so that
 * a flood of requests cannot flood the journal.
 */
export function throttledLog(logger: Logger, level: LogLevel, event: string, periodMs: number, now: () => number = Date.now): (fields?: LogFields) => void {
  let lastMs = -Infinity;
  let count = 0;
  return (fields = {}) => {
    count++;
    const at = now();
    if (at - lastMs < periodMs) return;
    logger.log(level, event, { ...fields, count });
    lastMs = at;
    count = 0;
  };
}
