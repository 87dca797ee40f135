// A server's write path in a child process, for crash.test.ts: starts as a server starts (recovery
// first), makes one write that must succeed at once, then writes in a burst until it is killed.
// Usage: node bin/run-ts.js test/writes/crash-writer.ts REPOS_DIR REPO ROUND
// Prints `ACK <commit> <path> <line>` for every write the host acknowledged, `READY` after the
// first one; waits for a line on stdin before the burst.
import { createInterface } from 'node:readline';
import { blobId } from '../../src/repo-host/git/blob-id.ts';
import { LocalRepoHost } from '../../src/repo-host/local/local-repo-host.ts';

const [reposDir, repo, round] = process.argv.slice(2) as [string, string, string];
const author = { login: 'crash', name: 'Crash Tester', email: 'crash@example.com' };
const host = new LocalRepoHost({ reposDir, as: author, onRecovery: (sentence) => process.stderr.write(`recovery: ${sentence}\n`) });
await host.recoverInterruptedCommits();

/** Appends `line` to `path` (creating it), prepared from what the host reads now; true when it landed first time. */
async function write(path: string, line: string): Promise<boolean> {
  const head = (await host.listRepos()).find((info) => info.name === repo)!.head;
  const current = await host.readFile(repo, path);
  const content = Buffer.concat([current ?? Buffer.from(`# ${path}\n`), Buffer.from(`${line}\n`)]);
  const result = await host.commit(
    repo,
    { parent: head, author, message: `Add ${line} to ${path}`, files: [{ path, content }] },
    new Map([[path, current === null ? null : blobId(current)]]),
  );
  if (!result.ok) return false;
  process.stdout.write(`ACK ${result.commit} ${path} ${line}\n`);
  return true;
}

if (!(await write('notes/a.md', `round ${round} first`))) {
  process.stderr.write('the first write after the start did not land at once\n');
  process.exit(3);
}
process.stdout.write('READY\n');
const input = createInterface({ input: process.stdin });
await new Promise<void>((resolve) => input.once('line', () => resolve()));
for (let i = 0; ; i++) {
  // Several notes and folders, so a crash can fall between the files of one commit too.
  const path = ['notes/a.md', 'notes/b.md', `notes/r${round}/c${i % 3}.md`][i % 3]!;
  await write(path, `round ${round} write ${i}`);
}
