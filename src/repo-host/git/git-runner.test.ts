// git-runner.ts: git started from the runner process answers exactly as git started directly
// (input, output, standard error, exit codes, failed starts, streams both ways); a runner that
// dies fails only the git it was running, the next git gets a new runner, and a runner that
// keeps dying, or one turned off, leaves git to be started directly.
import { execFileSync } from 'node:child_process';
import { chmodSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, test } from 'vitest';
import { git, makeRepo, tempDir } from '../../../test/support/git-fixture.ts';
import { LocalRepoHost } from '../local/local-repo-host.ts';
import {
  GitRunner,
  gitRunner,
  holdGitRunnerUntil,
  onGitRunnerTrouble,
  useGitRunner,
  type GitEnd,
  type RunnerTrouble,
} from './git-runner.ts';
import { GitError, runGit, startGit } from './run-git.ts';

let dir: { path: string; cleanup: () => void };
let gitDir: string;
beforeEach(() => {
  dir = tempDir('mv-git-runner-');
  const repo = join(dir.path, 'r');
  makeRepo(repo, [{ files: { 'a.md': '# A\n' }, message: 'First' }]);
  gitDir = join(repo, '.git');
});
afterEach(() => {
  useGitRunner(true);
  onGitRunnerTrouble(null);
  dir.cleanup();
});

/** A git process waiting on its standard input, started through the shared runner, and the runner's pid once git answered. */
async function waitingGit() {
  await gitRunner()!.whenReady();
  const out: Buffer[] = [];
  const process = startGit(['cat-file', '--batch'], { gitDir, onStdout: (chunk) => out.push(chunk) });
  process.write('HEAD\n');
  while (!Buffer.concat(out).includes('\n')) await new Promise((resolve) => setTimeout(resolve, 5));
  return process;
}

test('starts git from the runner process, with its input, output, errors and exit codes', async () => {
  await gitRunner()!.whenReady();
  const content = Buffer.from('bytes \0 and text\n'.repeat(200_000));
  const written = await runGit(['hash-object', '-w', '--stdin'], { gitDir, input: content });
  const oid = written.stdout.toString('utf8').trim();
  expect(oid).toBe(execFileSync('git', ['hash-object', '--stdin'], { input: content }).toString('utf8').trim());
  const runner = gitRunner()!.pid;
  expect(runner).not.toBeNull();
  expect(runner).not.toBe(process.pid);
  // Megabytes of output arrive whole and in order.
  expect((await runGit(['cat-file', 'blob', oid], { gitDir })).stdout.equals(content)).toBe(true);
  // An exit code that is no failure, and one that is.
  expect((await runGit(['rev-parse', '-q', '--verify', 'nothing'], { gitDir, okCodes: [0, 1] })).code).toBe(1);
  const failed = await runGit(['cat-file', '-t', 'nothing'], { gitDir }).catch((error: unknown) => error);
  expect(failed).toBeInstanceOf(GitError);
  expect((failed as GitError).code).toBe(128);
  expect((failed as GitError).stderr).toMatch(/nothing/);
  // Output larger than allowed is refused.
  await expect(runGit(['cat-file', 'blob', oid], { gitDir, maxBytes: 1000 })).rejects.toThrow(/larger than 1000 bytes/);
  // A start that fails (no such folder) rejects with the system's error, as a direct spawn does.
  await expect(runGit(['status'], { cwd: join(dir.path, 'absent') })).rejects.toMatchObject({ code: 'ENOENT' });
  expect(gitRunner()!.pid).toBe(runner);
});

test('streams to and from a git it keeps running, and stops it', async () => {
  const process = await waitingGit();
  process.holdOpen(false);
  process.holdOpen(true);
  process.end();
  await expect(process.done).resolves.toMatchObject({ code: 0, stopped: false });
  const stopped = await waitingGit();
  stopped.stop();
  await expect(stopped.done).resolves.toMatchObject({ stopped: true });
});

test('a runner that dies fails the git it ran with a GitError; the next git gets a new runner', async () => {
  const waiting = await waitingGit();
  const runner = gitRunner()!.pid!;
  process.kill(runner, 'SIGKILL');
  await expect(waiting.done).rejects.toThrow(/runner process ended/);
  // What a tool's caller is told: a worker's failure, nothing changed, try again.
  const failed = await waiting.done.catch((error: unknown) => error);
  expect((failed as GitError).refusal).toMatchObject({
    code: 'worker_failed',
    message: expect.stringMatching(/nothing was changed.*Try the call again/),
  });
  const head = await runGit(['rev-parse', 'HEAD'], { gitDir });
  expect(head.stdout.toString('utf8').trim()).toMatch(/^[0-9a-f]{40}$/);
  expect(gitRunner()!.pid).not.toBe(runner);
  await gitRunner()!.whenReady();
  expect((await runGit(['rev-parse', 'HEAD'], { gitDir })).stdout.toString('utf8')).toBe(head.stdout.toString('utf8'));
});

test('the runner starts a while after the first git call; until it is ready, git is started directly', async () => {
  const runner = new GitRunner({ startDelayMs: 200 });
  const options = { cwd: undefined, env: { PATH: process.env['PATH'] ?? '' }, timeoutMs: 60_000 };
  const listeners = { onStdout: () => undefined, onStderr: () => undefined, onDone: () => undefined };
  expect(runner.spawn(['--version'], options, listeners)).toBeNull();
  expect(runner.pid).toBeNull();
  await new Promise((resolve) => setTimeout(resolve, 100));
  expect(runner.pid).toBeNull();
  await expect.poll(() => runner.pid, { timeout: 5_000 }).not.toBeNull();
  await runner.whenReady();
  let onDone: (end: GitEnd) => void = () => undefined;
  const ended = new Promise<GitEnd>((resolve) => (onDone = resolve));
  // Ready now: git goes through it.
  expect(runner.spawn(['--git-dir', gitDir, 'rev-parse', 'HEAD'], options, { ...listeners, onDone })).not.toBeNull();
  expect((await ended).code).toBe(0);
  process.kill(runner.pid!, 'SIGKILL');
});

test('a hold keeps the runner from starting until it ends; git is started directly meanwhile', async () => {
  let end: () => void = () => undefined;
  holdGitRunnerUntil(new Promise<void>((resolve) => (end = resolve)));
  const runner = new GitRunner({ startDelayMs: 50 });
  const options = { cwd: undefined, env: { PATH: process.env['PATH'] ?? '' }, timeoutMs: 60_000 };
  const listeners = { onStdout: () => undefined, onStderr: () => undefined, onDone: () => undefined };
  expect(runner.spawn(['--version'], options, listeners)).toBeNull();
  await new Promise((resolve) => setTimeout(resolve, 300));
  expect(runner.pid).toBeNull();
  expect(runner.spawn(['--version'], options, listeners)).toBeNull();
  end();
  await expect.poll(() => runner.pid, { timeout: 5_000 }).not.toBeNull();
  await runner.whenReady();
  process.kill(runner.pid!, 'SIGKILL');
});

test('git is started directly when the runner is turned off, or after it kept dying', async () => {
  useGitRunner(false);
  expect(gitRunner()).toBeNull();
  expect((await runGit(['rev-parse', 'HEAD'], { gitDir })).code).toBe(0);
  useGitRunner(true);

  const troubles: RunnerTrouble[] = [];
  onGitRunnerTrouble((trouble) => troubles.push(trouble));
  const runner = new GitRunner();
  const options = { cwd: undefined, env: { PATH: process.env['PATH'] ?? '' }, timeoutMs: 60_000 };
  for (let death = 0; death < 3; death++) {
    await runner.whenReady();
    const ended = new Promise<GitEnd>((resolve) => {
      const child = runner.spawn(['--git-dir', gitDir, 'cat-file', '--batch'], options, {
        onStdout: () => process.kill(runner.pid!, 'SIGKILL'),
        onStderr: () => undefined,
        onDone: resolve,
      });
      child!.write('HEAD\n');
    });
    expect((await ended).lost).toMatch(/runner process ended/);
  }
  expect(
    runner.spawn(['--version'], options, { onStdout: () => undefined, onStderr: () => undefined, onDone: () => undefined }),
  ).toBeNull();
  // Each end is logged, and so is giving up.
  expect(troubles.map((trouble) => trouble.event)).toEqual(['runner_ended', 'runner_ended', 'runner_ended', 'runner_given_up']);
  expect(troubles[0]!.message).toMatch(/ended while it ran 1 git process/);
});

test('a runner that stops answering is killed: the git it ran fails, the next git gets a new runner', async () => {
  const runner = new GitRunner({ silenceMs: 100, answerMs: 400 });
  const options = { cwd: undefined, env: { PATH: process.env['PATH'] ?? '' }, timeoutMs: 60_000 };
  let out = '';
  let onDone: (end: GitEnd) => void = () => undefined;
  await runner.whenReady();
  const first = runner.pid!;
  const waiting = runner.spawn(['--git-dir', gitDir, 'cat-file', '--batch'], options, {
    onStdout: (chunk) => (out += chunk.toString('utf8')),
    onStderr: () => undefined,
    onDone: (end) => onDone(end),
  })!;
  // A runner that answers stays, however long its git waits in silence.
  await new Promise((resolve) => setTimeout(resolve, 1_000));
  waiting.write('HEAD\n');
  await expect.poll(() => out, { timeout: 5_000 }).toMatch(/ commit \d+\n/);
  expect(runner.pid).toBe(first);
  // One that is stopped (as a wedged one would be) is killed, and its git fails; the log says so.
  const troubles: RunnerTrouble[] = [];
  onGitRunnerTrouble((trouble) => troubles.push(trouble));
  const lost = new Promise<GitEnd>((resolve) => (onDone = resolve));
  process.kill(first, 'SIGSTOP');
  expect((await lost).lost).toMatch(/runner process ended/);
  expect(troubles.map((trouble) => trouble.event)).toEqual(['runner_stuck', 'runner_ended']);
  await runner.whenReady();
  expect(runner.pid).not.toBe(first);
  const ran = await new Promise<GitEnd>((resolve) =>
    runner.spawn(['--git-dir', gitDir, 'rev-parse', 'HEAD'], options, {
      onStdout: () => undefined,
      onStderr: () => undefined,
      onDone: resolve,
    }),
  );
  expect(ran.code).toBe(0);
});

test('a commit whose update-ref moved the branch lands, even when the runner died before git answered', async () => {
  const repo = join(dir.path, 'notes');
  makeRepo(repo, [{ files: { 'a.md': '# A\n' }, message: 'First' }]);
  const host = new LocalRepoHost({ reposDir: dir.path });
  try {
    const before = await host.snapshot('notes');
    await gitRunner()!.whenReady();
    const runner = gitRunner()!.pid!;
    // Git runs this hook once the branch has moved; it ends the runner that started update-ref.
    const hook = join(repo, '.git', 'hooks', 'reference-transaction');
    writeFileSync(hook, `#!/bin/sh\n[ "$1" = committed ] && grep -q ' refs/heads/' && kill -9 ${runner}\nexit 0\n`);
    chmodSync(hook, 0o755);
    const result = await host.commit('notes', {
      parent: before.head,
      author: { login: 'ada', name: 'Ada', email: 'ada@example.com' },
      message: 'Edit',
      files: [{ path: 'a.md', content: Buffer.from('# A, edited\n') }],
    });
    expect(gitRunner()!.pid).not.toBe(runner);
    expect(result.ok).toBe(true);
    expect(git(repo, ['rev-parse', 'HEAD'])).toBe((result as { commit: string }).commit);
    expect(readFileSync(join(repo, 'a.md'), 'utf8')).toBe('# A, edited\n');
    expect(git(repo, ['status', '--porcelain'])).toBe('');
  } finally {
    await host.close();
  }
});
