// Turns what a tool handler gave (a result or a thrown error) into the MCP tool result:
// the one place a VaultError becomes `isError: true` (spec: "Answers").
import type { CallToolResult } from '@modelcontextprotocol/server';
import { noteToolFailure } from '../operations/request-context.ts';
import { carriedRefusal, isVaultError } from '../vault-error.ts';
import { boundedMessage } from './tools/answer-budget.ts';
import type { Logger } from './log.ts';

/**
 * A handler's result as MCP sends it: `structuredContent` (validated by the SDK against the
 * tool's `outputSchema`) and the same JSON as one text block, for clients that read only
 * `content`.
 */
export function toolResult(result: Record<string, unknown>): CallToolResult {
  return { content: [{ type: 'text', text: JSON.stringify(result) }], structuredContent: result };
}

/** The text of the generic answer to an unexpected failure; the cause goes to the log only. */
export const internalErrorText =
  'Major Vault failed to answer this call because of an internal error. It has been logged; try again, and if it keeps failing, tell the administrator.';

/** What a call's log line says about it besides the outcome: the tool, and when known the repository and person. */
export interface CallFields {
  tool: string;
  repo?: string;
  person?: string;
  /** How long the call took, in milliseconds. */
  durationMs: number;
}

/**
 * A thrown error as a tool error, logged as one line. A VaultError's message is the whole
 * answer (it already says what was wrong and how to succeed), cut within 40,000 characters
 * when it repeats an overlong argument ({@link boundedMessage}), logged at info as
 * `call_refused` with its code; anything else is logged at error as `call_failed` (code
 * `internal`) with its cause and answered with {@link internalErrorText}, so no stack, path
 * or query leaks; the request then counts as an error in the metrics ({@link noteToolFailure}).
 */
export function toolError(thrown: unknown, log: Logger, call: CallFields): CallToolResult {
  // A failure of the plumbing may carry what the caller is told (carriedRefusal); its cause is logged.
  const error = carriedRefusal(thrown) ?? thrown;
  if (isVaultError(error) && error.code !== 'internal') {
    // An index that could not be built, or a host that is down, needs the operator, not the caller: a warning.
    const operator = error.code === 'index_unavailable' || error.code === 'host_unavailable' || error.code === 'worker_failed';
    const level = operator ? 'warn' : 'info';
    // A host's or a thread's failure keeps its cause for the operator; the caller reads only the message.
    const cause = error.code === 'host_unavailable' || error.code === 'worker_failed' ? { err: thrown } : {};
    log[level]({ event: 'call_refused', ...call, code: error.code, ...cause }, `${call.tool} refused: ${error.code}`);
    return { content: [{ type: 'text', text: boundedMessage(error.message) }], isError: true };
  }
  log.error({ event: 'call_failed', ...call, code: 'internal', err: thrown }, `tool ${call.tool} failed`);
  noteToolFailure();
  return { content: [{ type: 'text', text: internalErrorText }], isError: true };
}
