// Calls a tool the way the server does: arguments parsed by its input schema, answer checked by its output schema.
import { z } from 'zod';
import type { ToolContext, Tool } from '../../src/instance/tool.ts';
import { isVaultError, type VaultError } from '../../src/vault-error.ts';

/** Parses `args` with the tool's input schema, runs the handler, and validates the answer. */
export async function callTool<I extends z.ZodRawShape, O extends z.ZodRawShape>(
  tool: Tool<I, O>,
  args: Record<string, unknown>,
  ctx: ToolContext,
): Promise<z.output<z.ZodObject<O>>> {
  const input = tool.input(z.string()).parse(args);
  const output = await tool.handler(input, ctx);
  return tool.output.strict().parse(output) as z.output<z.ZodObject<O>>;
}

/** The VaultError a call is refused with; fails the test when it succeeds. */
export async function refusalOf(promise: Promise<unknown>): Promise<VaultError> {
  try {
    await promise;
  } catch (error) {
    if (isVaultError(error)) return error;
    throw error;
  }
  throw new Error('expected the call to be refused');
}
