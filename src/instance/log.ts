// Where the server says what it does: one structured JSON line per event (pino), on standard
// error, never standard output (over stdio, standard output is the protocol channel).
import { pino, type DestinationStream, type Logger } from 'pino';
import { requestLogFields } from '../operations/request-context.ts';

export type { Logger };

/** The levels a logger can be set to, most severe first; `silent` logs nothing. */
export const logLevels = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

/** One of {@link logLevels}. */
export type LogLevel = (typeof logLevels)[number];

/**
 * What a line is about, in its `event` field (the README's "Logs" lists each with its fields):
 * - `folder_skipped`: a folder in the repositories folder that is not served (`folder`, `reason`);
 * - `write`: a commit made by a tool (`repo`, `tool`, `commit`, `person`, `files`: how many);
 * - `index_updated`: a repository re-indexed after a change (`repo`, `head`, `changed` and
 *   `removed` files, `durationMs`);
 * - `index_progress`: indexing progress, every few seconds when standard error is no terminal
 *   (`repo`, `done`, `total`);
 * - `call_refused`: a tool call answered with a refusal (`tool`, `code`, `repo`, `person`, `durationMs`);
 * - `call_failed`: a tool call that failed unexpectedly (`tool`, `code: "internal"`, `err`, `durationMs`);
 * - `call_slow`: a tool call that took longer than a second (`tool`, `repo`, `person`, `durationMs`);
 * - `call`: every tool call, at level debug (`tool`, `repo`, `person`, `durationMs`).
 */
export type LogEvent =
  'folder_skipped' | 'write' | 'index_updated' | 'index_progress' | 'call_refused' | 'call_failed' | 'call_slow' | 'call';

/** Whether `value` names a level of {@link logLevels}. */
export function isLogLevel(value: string): value is LogLevel {
  return (logLevels as readonly string[]).includes(value);
}

/**
 * A pino logger writing JSON lines at `level` (default `info`) to `destination`, by default
 * standard error, written synchronously so no line is lost when the process exits. Each line
 * has pino's `level` (a number: 30 info, 40 warn, 50 error), `time` (ms since the epoch),
 * `pid` and `msg`, plus the event's fields; an error is under `err` with its stack and causes.
 * A line written while a request runs carries its `requestId` and `installation`
 * (operations/request-context.ts), whatever logger wrote it.
 */
export function createLogger(options: { level?: LogLevel; destination?: DestinationStream } = {}): Logger {
  return pino(
    { level: options.level ?? 'info', base: { pid: process.pid }, mixin: (_line, _level, logger) => requestLogFields(logger) },
    options.destination ?? pino.destination({ fd: 2, sync: true }),
  );
}

/** A logger that writes nothing (tests, and callers that report otherwise). */
export function silentLogger(): Logger {
  return pino({ level: 'silent' });
}
