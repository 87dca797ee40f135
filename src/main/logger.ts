// The logger of a process: chosen here, in a composition root, and handed to everything else.
// One of the modules that read the environment (MAJOR_VAULT_LOG_LEVEL).
import { createLogger, isLogLevel, logLevels, type Logger } from '../instance/log.ts';

/**
 * The process's logger: JSON lines on standard error (never standard output, which `stdio`
 * uses for the protocol) at `level`, else `$MAJOR_VAULT_LOG_LEVEL`, else `info`. Throws an
 * Error saying which levels exist when the level is not one of them.
 */
export function processLogger(level?: string): Logger {
  const chosen = level ?? process.env['MAJOR_VAULT_LOG_LEVEL'] ?? 'info';
  if (!isLogLevel(chosen)) throw new Error(`The log level ${JSON.stringify(chosen)} does not exist; use one of ${logLevels.join(', ')}.`);
  return createLogger({ level: chosen });
}
