// The answer to every tool call while the installation has no index.
import { VaultError } from '../vault-error.ts';

/**
 * The refusal of a tool call when the startup indexing failed as a whole (the database would
 * not open, the repositories folder went away): VaultError `index_unavailable`, whose message
 * is for the model; the `cause` is for the server's log.
 */
export function indexUnavailable(cause: unknown): VaultError {
  return new VaultError(
    'index_unavailable',
    'Major Vault could not build its index of the repositories, so no tool can answer yet. The cause is in the server’s log; ask whoever runs Major Vault to fix it and restart it.',
    undefined,
    { cause },
  );
}
