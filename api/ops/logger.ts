import pino, { type DestinationStream, type Logger } from 'pino';

export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

/**
 * The server's log: one JSON object a line on standard output (time as ISO text, level as a word),
 * for a log collector to read. Never a body, a token, a password, a query string or a patient value:
 * callers log events and request summaries only (request-log.ts). The audit log is separate.
 *
 * Written asynchronously (pino's sonic-boom, `sync: false`), in blocks: once 4 KiB are waiting or 100 ms
 * after a line, whichever comes first. A synchronous write per line was a fifth of the server's CPU per
 * request (BENCHMARKS.md, "The cost of a request"). Call `flushLogs` before `process.exit`, so that the
 * last lines are not lost.
 */
/** Lines are written once this much is waiting, and at least every LOG_FLUSH_MS. */
const LOG_BUFFER_BYTES = 4096;
const LOG_FLUSH_MS = 100;

export function createLogger(level: LogLevel = 'info', destination?: DestinationStream): Logger {
  return pino(
    {
      level,
      base: undefined, // no pid or hostname on every line: the collector knows where it read it
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }) },
    },
    destination ?? pino.destination({ dest: 1, sync: false, minLength: LOG_BUFFER_BYTES, periodicFlush: LOG_FLUSH_MS }),
  );
}

/** Resolves once every line logged so far is written (at most `timeoutMs` later: never holds an exit back). */
export function flushLogs(logger: Logger, timeoutMs = 1_000): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, timeoutMs);
    timer.unref();
    try {
      logger.flush(() => {
        clearTimeout(timer);
        resolve();
      });
    } catch {
      clearTimeout(timer);
      resolve();
    }
  });
}

/** A logger that writes nothing (tests and tools that do not log). */
export const silentLogger = (): Logger => pino({ level: 'silent' });
