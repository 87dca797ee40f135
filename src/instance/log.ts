// Where the server reports what the caller is not told: unexpected errors with their cause.

/** Reports a message and, when there is one, the error behind it (with its cause chain). */
export type Log = (message: string, error?: unknown) => void;

/**
 * The default {@link Log}: standard error, never standard output (over stdio, standard
 * output is the protocol channel). Prints an error's stack and its `cause`s.
 */
export const stderrLog: Log = (message, error) => {
  if (error === undefined) {
    console.error(`major-vault: ${message}`);
    return;
  }
  const lines = [`major-vault: ${message}`];
  let cause: unknown = error;
  for (let depth = 0; cause !== undefined && cause !== null && depth < 5; depth++) {
    lines.push(`  ${depth === 0 ? '' : 'caused by: '}${cause instanceof Error ? (cause.stack ?? cause.message) : String(cause)}`);
    cause = cause instanceof Error ? cause.cause : undefined;
  }
  console.error(lines.join('\n'));
};
