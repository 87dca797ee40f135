// A real pino logger whose JSON lines a test reads back, one object per line.
import { createLogger, type Logger, type LogLevel } from '../../src/instance/log.ts';

/** The logger, every line it wrote (parsed), and the lines of one `event`. */
export interface CapturedLog {
  log: Logger;
  lines: Record<string, unknown>[];
  events(event: string): Record<string, unknown>[];
}

/** A logger at `level` (default `debug`) writing into memory through pino's own serialisation. */
export function capturedLog(level: LogLevel = 'debug'): CapturedLog {
  const lines: Record<string, unknown>[] = [];
  const log = createLogger({
    level,
    destination: { write: (line: string) => void lines.push(JSON.parse(line) as Record<string, unknown>) },
  });
  return { log, lines, events: (event) => lines.filter((line) => line['event'] === event) };
}
