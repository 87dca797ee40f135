// The lint rules that keep the design (DESIGN.md "Code layout"): each fires on a bad line
// added to a real file, through ESLint's own API and the project's eslint.config.js.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';
import { describe, expect, test } from 'vitest';

const root = fileURLToPath(new URL('../../', import.meta.url));
const eslint = new ESLint({ cwd: root });

/** The rule ids ESLint reports for `file` (relative to the root) with `line` added at its end. */
async function rulesFiredWith(file: string, line: string): Promise<string[]> {
  const text = `${readFileSync(new URL(file, `file://${root}`), 'utf8')}\n${line}\n`;
  const [result] = await eslint.lintText(text, { filePath: `${root}${file}` });
  return result!.messages.map((message) => message.ruleId ?? message.message);
}

describe('lint', { timeout: 180_000 }, () => {
  test('a file as it is passes', async () => {
    expect(await rulesFiredWith('src/front/access-cache.ts', '')).toEqual([]);
  });

  test.each([
    ['the front importing the instance', 'src/front/access-cache.ts', "export { createVaultServer } from '../instance/create-server.ts';"],
    ['the catalogue importing the instance', 'src/catalogue/instructions.ts', "export type { ToolContext } from '../instance/tool.ts';"],
    ['a tool definition importing the instance', 'src/tools/tree.ts', "export { implementedTools } from '../instance/all-tools.ts';"],
    ['the notes model importing the git plumbing', 'src/notes/slug.ts', "export { runGit } from '../repo-host/git/run-git.ts';"],
    [
      'the instance importing the local adapter',
      'src/instance/log.ts',
      "export { LocalRepoHost } from '../repo-host/local/local-repo-host.ts';",
    ],
    ['a port importing main', 'src/repo-host/person.ts', "export { serveLocal } from '../main/local.ts';"],
    [
      'an adapter importing a queue rather than the port',
      'src/repo-host/person.ts',
      "export { InProcessQueue } from '../jobs/in-process-queue.ts';",
    ],
  ])('the import boundary refuses %s', async (_what, file, line) => {
    expect(await rulesFiredWith(file, line)).toContain('import-x/no-restricted-paths');
  });

  test('an adapter may take the Queue port', async () => {
    expect(await rulesFiredWith('src/repo-host/person.ts', "export type { Queue } from '../jobs/queue.ts';")).toEqual([]);
  });

  test('a promise left floating is refused', async () => {
    expect(await rulesFiredWith('src/front/access-cache.ts', 'Promise.resolve(1);')).toContain('@typescript-eslint/no-floating-promises');
  });

  test('a promise where a void callback is expected is refused', async () => {
    expect(await rulesFiredWith('src/front/access-cache.ts', 'setTimeout(async () => {}, 1);')).toContain(
      '@typescript-eslint/no-misused-promises',
    );
  });
});
