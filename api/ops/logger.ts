import pino, { type DestinationStream, type Logger } from 'pino';

export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

/**
 * The server's log: one JSON object a line on standard output (time as ISO text, level as a word),
 * for a log collector to read. Never a body, a token, a password, a query string or a patient value:
 * callers log events and request summaries only (request-log.ts). The audit log is separate.
 */
export function createLogger(level: LogLevel = 'info', destination?: DestinationStream): Logger {
  return pino(
    {
      level,
      base: undefined, // no pid or hostname on every line: the collector knows where it read it
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }) },
    },
    destination ?? pino.destination({ dest: 1, sync: true }),
  );
}

/** A logger that writes nothing (tests and tools that do not log). */
export const silentLogger = (): Logger => pino({ level: 'silent' });
