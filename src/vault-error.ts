// The one error class of Major Vault: a code to branch on, and a message that says how to succeed.

/**
 * What went wrong, as a stable code. Code never branches on a message's text, only on this.
 * Families: access (`repo_not_found`, `forbidden`, `unauthorized`), paths (`invalid_path`,
 * `hidden_path`, `outside_folders`, `note_not_found`, `not_a_note`, `exists`), reading
 * (`heading_not_found`, `bad_arguments`, `invalid_regex`, `unknown_type`, `unknown_status`),
 * writing (`passage_not_found`, `ambiguous_passage`, `invalid_frontmatter`,
 * `schema_violation`, `guarded`, `conflict`, `summary_too_long`, `nothing_to_undo`), history
 * (`unknown_commit`, `commit_not_for_note`), bases (`unknown_view`, `invalid_base`),
 * `index_unavailable` when the index could not be built at all (the operator must act; logged
 * as a warning), `host_unavailable` when the repository host (GitHub) could not be reached or
 * did not answer as expected (nothing was written; trying again later may help; logged as a
 * warning), `worker_failed` when a worker thread doing a call's heavy work stopped under it
 * (a crash, out of memory: nothing was changed; trying again may help; logged as a warning),
 * and `internal` for anything unexpected (answered generically, logged with
 * its cause).
 */
export type VaultErrorCode =
  | 'repo_not_found'
  | 'forbidden'
  | 'unauthorized'
  | 'invalid_path'
  | 'hidden_path'
  | 'outside_folders'
  | 'note_not_found'
  | 'not_a_note'
  | 'exists'
  | 'heading_not_found'
  | 'bad_arguments'
  | 'invalid_regex'
  | 'unknown_type'
  | 'unknown_status'
  | 'passage_not_found'
  | 'ambiguous_passage'
  | 'invalid_frontmatter'
  | 'schema_violation'
  | 'guarded'
  | 'conflict'
  | 'summary_too_long'
  | 'nothing_to_undo'
  | 'unknown_commit'
  | 'commit_not_for_note'
  | 'unknown_view'
  | 'invalid_base'
  | 'index_unavailable'
  | 'host_unavailable'
  | 'worker_failed'
  | 'internal';

/**
 * A refusal the caller can act on. `message` is the whole text the model reads: what was
 * wrong and how to succeed (the allowed values, the open folders, the lines where a passage
 * occurs). `details` carries the same facts as data, for tests and logs; `options.cause`
 * what caused it, for the log only.
 * The MCP layer turns it into a tool result with `isError: true` (spec: "Answers").
 */
export class VaultError extends Error {
  readonly code: VaultErrorCode;
  readonly details?: Record<string, unknown>;

  constructor(code: VaultErrorCode, message: string, details?: Record<string, unknown>, options?: { cause?: unknown }) {
    super(message, options);
    this.code = code;
    this.details = details;
    this.name = 'VaultError';
  }
}

/** True when `error` is a {@link VaultError}, optionally of the given code. */
export function isVaultError(error: unknown, code?: VaultErrorCode): error is VaultError {
  return error instanceof VaultError && (code === undefined || error.code === code);
}

/**
 * The VaultError a caller is told for `error`: `error` itself when it is one, else the
 * `refusal` an error of the plumbing carries, on it or on its causes (such as git's runner
 * ending under a call: repo-host/git/run-git.ts), else null.
 */
export function carriedRefusal(error: unknown): VaultError | null {
  for (let at = error, depth = 0; at !== null && typeof at === 'object' && depth < 8; depth++) {
    if (at instanceof VaultError) return at;
    const refusal = (at as { refusal?: unknown }).refusal;
    if (refusal instanceof VaultError) return refusal;
    at = (at as { cause?: unknown }).cause;
  }
  return null;
}
