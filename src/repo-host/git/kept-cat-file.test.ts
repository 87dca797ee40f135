// kept-cat-file.ts: a kept `cat-file --batch` answers exactly as a fresh one, also for objects
// written after it started, for names it must not answer itself, and after it was ended.
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, test } from 'vitest';
import { git, makeRepo, tempDir } from '../../../test/support/git-fixture.ts';
import { catFileBatch } from './cat-file-batch.ts';
import { KeptCatFiles } from './kept-cat-file.ts';

let dir: { path: string; cleanup: () => void };
let kept: KeptCatFiles;
let repo: string;
let gitDir: string;
beforeEach(() => {
  dir = tempDir('mv-kept-cat-file-');
  repo = join(dir.path, 'r');
  makeRepo(repo, [{ files: { 'a.md': '# A\n', 'folder/b.md': '# B\n' }, message: 'First' }]);
  gitDir = join(repo, '.git');
  kept = new KeptCatFiles();
});
afterEach(() => {
  kept.close();
  dir.cleanup();
});

const text = (answer: { content: Buffer } | null | undefined) => answer?.content.toString('utf8') ?? null;

test('answers blobs by id and files at a commit, in the order asked, missing ones as null', async () => {
  const head = git(repo, ['rev-parse', 'HEAD']);
  const a = git(repo, ['rev-parse', 'HEAD:a.md']);
  const answers = await kept.objects(gitDir, [`${head}:folder/b.md`, a, 'f'.repeat(40), `${head}:nothing.md`, `${head}^{tree}`]);
  expect(answers.map((answer) => answer?.type ?? null)).toEqual(['blob', 'blob', null, null, 'tree']);
  expect(text(answers[0])).toBe('# B\n');
  expect(text(answers[1])).toBe('# A\n');
  expect(answers[1]!.oid).toBe(a);
  // Asked at once from two places: each gets its own answers.
  const [one, two] = await Promise.all([kept.objects(gitDir, [a]), kept.objects(gitDir, [`${head}:folder/b.md`, a])]);
  expect(text(one[0])).toBe('# A\n');
  expect(two.map(text)).toEqual(['# B\n', '# A\n']);
});

test('finds an object written after the kept process started, and answers HEAD and the index as they are now', async () => {
  const before = git(repo, ['rev-parse', 'HEAD']);
  expect(text((await kept.objects(gitDir, [`${before}:a.md`]))[0])).toBe('# A\n');
  const written = execFileSync('git', ['hash-object', '-w', '--stdin'], { cwd: repo, input: 'new content\n' }).toString().trim();
  expect(text((await kept.objects(gitDir, [written]))[0])).toBe('new content\n');
  // Packed since (and the loose copy pruned): still found.
  git(repo, ['add', '-A']);
  git(repo, ['-c', 'user.name=T', '-c', 'user.email=t@example.com', 'commit', '-q', '--allow-empty', '-m', 'Second']);
  git(repo, ['gc', '-q', '--prune=now']);
  expect(text((await kept.objects(gitDir, [`${before}:folder/b.md`]))[0])).toBe('# B\n');
  // Names whose answer changes go to a fresh process: what git answers now.
  const [head] = await kept.objects(gitDir, ['HEAD']);
  expect(head?.oid).toBe(git(repo, ['rev-parse', 'HEAD']));
  expect(await kept.objects(gitDir, [':0:a.md'])).toEqual(await catFileBatch(gitDir, [git(repo, ['rev-parse', ':0:a.md'])]));
});

test('a large batch and reads after close give what a fresh cat-file gives', async () => {
  const a = git(repo, ['rev-parse', 'HEAD:a.md']);
  const many = Array.from({ length: 1000 }, () => a);
  expect((await kept.objects(gitDir, many)).every((answer) => text(answer) === '# A\n')).toBe(true);
  kept.close();
  expect(text((await kept.objects(gitDir, [a]))[0])).toBe('# A\n');
});
