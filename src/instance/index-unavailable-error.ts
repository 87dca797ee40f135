// The answer to every tool call while the installation has no index.

/**
 * The answer to a tool call when the startup indexing failed as a whole (the database would
 * not open, the repositories folder went away): the message is for the model, the cause is
 * in the server's log.
 */
export class IndexUnavailableError extends Error {
  constructor(options?: { cause?: unknown }) {
    super(
      'Major Vault could not build its index of the repositories, so no tool can answer yet. The cause is in the server’s log; ask whoever runs Major Vault to fix it and restart it.',
      options,
    );
    this.name = 'IndexUnavailableError';
  }
}
