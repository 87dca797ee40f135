// Issue 9, item 1: a server killed (SIGKILL) at random moments of a write burst never leaves a
// repository that the next write corrupts. Each round starts the write path in a child process
// (crash-writer.ts), which recovers as a server does at start and makes one write that must
// land at once; then the repository is checked, a burst starts, and the child is killed.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { afterAll, describe, expect, it } from 'vitest';
import { git, makeRepo, tempDir } from '../support/git-fixture.ts';

const ROUNDS = 12;
const runTs = join(import.meta.dirname, '..', '..', 'bin', 'run-ts.js');
const writer = join(import.meta.dirname, 'crash-writer.ts');

interface Child {
  process: ChildProcess;
  /** Resolves at `READY` (true) or when the child exits first (false). */
  ready: Promise<boolean>;
  exited: Promise<number | null>;
  stderr: string[];
}

function startWriter(reposDir: string, round: number, acks: Set<string>): Child {
  const child = spawn(process.execPath, [runTs, writer, reposDir, 'vault', String(round)], { stdio: ['pipe', 'pipe', 'pipe'] });
  const stderr: string[] = [];
  child.stderr!.on('data', (chunk: Buffer) => stderr.push(chunk.toString('utf8')));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const ready = new Promise<boolean>((resolve) => {
    createInterface({ input: child.stdout! }).on('line', (line) => {
      if (line === 'READY') resolve(true);
      const ack = /^ACK ([0-9a-f]{40}) /.exec(line);
      if (ack) acks.add(ack[1]!);
    });
    void exited.then(() => resolve(false));
  });
  return { process: child, ready, exited, stderr };
}

/** Every property the issue lists, on the repository as the child left it idle after its first write. */
function checkRepository(repo: string, acks: ReadonlySet<string>): void {
  expect(git(repo, ['status', '--porcelain', '--untracked-files=all'])).toBe('');
  expect(git(repo, ['fsck', '--strict', '--no-dangling', '--no-progress'])).toBe('');
  expect(existsSync(join(repo, '.git', 'index.lock'))).toBe(false);
  expect(readdirSync(join(repo, '.git')).filter((name) => name.startsWith('index.mv-'))).toEqual([]);
  const history = new Set(git(repo, ['rev-list', 'HEAD']).split('\n'));
  for (const ack of acks) expect(history.has(ack), `acknowledged commit ${ack} is in the history`).toBe(true);
  // Every change any commit made (each adds one line to one note) is still in that note.
  const files = new Map<string, string>();
  for (const subject of git(repo, ['log', '--format=%s']).split('\n')) {
    const added = /^Add (.+) to (\S+)$/.exec(subject);
    if (added === null) continue;
    const [, line, path] = added as unknown as [string, string, string];
    if (!files.has(path)) files.set(path, readFileSync(join(repo, path), 'utf8'));
    expect(files.get(path)!.split('\n'), `"${line}" is still in ${path}`).toContain(line);
  }
}

describe('a server killed during a burst of writes', () => {
  const dir = tempDir('mv-crash-');
  afterAll(() => dir.cleanup());

  it(`recovers each time: ${ROUNDS} rounds of kill -9 at random moments`, async () => {
    const reposDir = join(dir.path, 'repos');
    const repo = join(reposDir, 'vault');
    makeRepo(repo, [{ message: 'Start', files: { 'notes/a.md': '# notes/a.md\n' } }]);
    const acks = new Set<string>();
    let recoveries = 0;
    for (let round = 1; round <= ROUNDS + 1; round++) {
      const child = startWriter(reposDir, round, acks);
      const ready = await child.ready;
      expect(ready, `round ${round}: the first write after the start landed at once (${child.stderr.join('')})`).toBe(true);
      recoveries += child.stderr.join('').split('recovery: ').length - 1;
      checkRepository(repo, acks);
      if (round > ROUNDS) {
        child.process.kill('SIGKILL');
        await child.exited;
        break;
      }
      child.process.stdin!.write('go\n');
      await new Promise((resolve) => setTimeout(resolve, Math.random() * 1500));
      child.process.kill('SIGKILL');
      await child.exited;
    }
    // Not a timing: a sanity check that the kills did land inside commits now and then.
    expect(recoveries).toBeGreaterThan(0);
  }, 300_000);
});
