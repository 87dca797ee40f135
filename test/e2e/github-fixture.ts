// Helpers of the GitHub end-to-end tests: the server of test/support/github-server.ts, and
// calls through the SDK's client that fail the test on a surprise.
import { execFileSync } from 'node:child_process';
import type { Client } from '@modelcontextprotocol/client';
import { expect } from 'vitest';

export { startGitHubE2e, testApp, testPeople, testRepos, type GitHubE2e } from '../support/github-server.ts';

/** Calls `tool` and returns its structured answer; fails the test on a tool error. */
export async function call(client: Client, tool: string, args: Record<string, unknown>): Promise<Record<string, unknown>> {
  const result = await client.callTool({ name: tool, arguments: args });
  expect(result.isError ?? false, JSON.stringify(result.content)).toBe(false);
  return result.structuredContent as Record<string, unknown>;
}

/** Calls `tool` expecting a refusal; returns its text. */
export async function refusal(client: Client, tool: string, args: Record<string, unknown>): Promise<string> {
  const result = await client.callTool({ name: tool, arguments: args });
  expect(result.isError, JSON.stringify(result.content)).toBe(true);
  return (result.content as Array<{ type: string; text?: string }>).map((block) => block.text ?? '').join('\n');
}

/** Polls `check` every 50 ms until it returns true, or fails after `ms`; returns the time taken in ms. */
export async function within(ms: number, check: () => Promise<boolean>, what: string): Promise<number> {
  const started = performance.now();
  for (;;) {
    if (await check()) return performance.now() - started;
    if (performance.now() - started > ms) throw new Error(`Not within ${ms} ms: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Whether searching `query` as `client` finds anything naming `path`. */
export async function finds(client: Client, query: string, path: string): Promise<boolean> {
  const result = await client.callTool({ name: 'search_notes', arguments: { query } });
  return !result.isError && JSON.stringify(result.structuredContent).includes(path);
}

/** Runs `git --git-dir <gitDir> …` (the stand-in's bare repositories) and gives its output, trimmed. */
export function gitIn(gitDir: string, args: string[]): string {
  return execFileSync('git', ['--git-dir', gitDir, ...args], { encoding: 'utf8' }).trim();
}
