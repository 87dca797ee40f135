// Turns what a tool handler gave (a result or a thrown error) into the MCP tool result:
// the one place a VaultError becomes `isError: true` (spec: "Answers").
import type { CallToolResult } from '@modelcontextprotocol/server';
import { isVaultError } from '../vault-error.ts';
import { boundedMessage } from './tools/answer-budget.ts';

/**
 * A handler's result as MCP sends it: `structuredContent` (validated by the SDK against the
 * tool's `outputSchema`) and the same JSON as one text block, for clients that read only
 * `content`.
 */
export function toolResult(result: Record<string, unknown>): CallToolResult {
  return { content: [{ type: 'text', text: JSON.stringify(result) }], structuredContent: result };
}

/** The text of the generic answer to an unexpected failure; the cause goes to the log only. */
export const internalErrorText = 'Major Vault failed to answer this call because of an internal error. It has been logged; try again, and if it keeps failing, tell the administrator.';

/**
 * A thrown error as a tool error. A VaultError's message is the whole answer (it already
 * says what was wrong and how to succeed), cut within 40,000 characters when it repeats an
 * overlong argument ({@link boundedMessage}); anything else is reported through `log` with its
 * cause and answered with {@link internalErrorText}, so no stack, path or query leaks.
 */
export function toolError(error: unknown, log: (message: string, error: unknown) => void, toolName: string): CallToolResult {
  if (isVaultError(error) && error.code !== 'internal') {
    return { content: [{ type: 'text', text: boundedMessage(error.message) }], isError: true };
  }
  log(`tool ${toolName} failed`, error);
  return { content: [{ type: 'text', text: internalErrorText }], isError: true };
}
