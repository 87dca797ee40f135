// What is not a note never reaches an answer of the history tools: symbolic links (committed or
// only on disk, to a file or a folder, inside the repository or out of it) and binary files.
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { noteHistory } from '../../src/instance/tools/note-history.ts';
import { searchHistory } from '../../src/instance/tools/search-history.ts';
import type { ToolContext } from '../../src/instance/tool.ts';
import { cloneBare, commit, git, makeRepo } from '../support/git-fixture.ts';
import { callTool, openHistoryFixture, refusalOf, type HistoryFixture } from './history-fixture.ts';

process.env.TZ = 'Europe/Berlin';

const OUTSIDE_SECRET = 'TOP SECRET, outside every repository';
const PASSWD_SECRET = 'root:x:0:0:root:/root:/bin/bash';
const OTHER_REPO_SECRET = 'Only for readers of secretrepo';
const binaryOne = Buffer.from([0x23, 0x20, 0x00, 0x01, 0x02, 0x0a, 0xff, 0xfe, 0x00, 0x0a]);
const binaryTwo = Buffer.from([0x23, 0x20, 0x00, 0x09, 0x08, 0x0a, 0xff, 0xfe, 0x00, 0x0a, 0x41]);

let fixture: HistoryFixture;
let ctx: ToolContext;
let commits: { create: string; links: string; edit: string };

/**
 * `links` (work tree): notes/plan.md and notes/binary.md (01-10); committed symbolic links
 * notes/tmpdir → the outside folder, notes/link-out.md → a file there, notes/alias.md →
 * plan.md and notes/leak → ../../secretrepo, with an edit of plan.md (01-11); plan.md and
 * binary.md edited (01-12); then, uncommitted, notes/passwd.md → a file outside.
 * `links-bare` is its bare clone; `secretrepo` is another repository the reader may not read.
 */
function build(reposDir: string): void {
  const outside = join(reposDir, '..', 'outside');
  mkdirSync(outside, { recursive: true });
  writeFileSync(join(outside, 'secret.md'), `${OUTSIDE_SECRET}\n`);
  writeFileSync(join(outside, 'passwd'), `${PASSWD_SECRET}\n`);
  makeRepo(join(reposDir, 'secretrepo'), [
    { message: 'Secret', date: '2026-01-09T10:00:00+01:00', files: { 'n.md': `${OTHER_REPO_SECRET}\n` } },
  ]);

  const dir = join(reposDir, 'links');
  const [create = ''] = makeRepo(dir, [
    { message: 'Create', date: '2026-01-10T10:00:00+01:00', files: { 'notes/plan.md': 'one\ntwo\n', 'notes/binary.md': binaryOne } },
  ]);
  symlinkSync(outside, join(dir, 'notes', 'tmpdir'));
  symlinkSync(join(outside, 'secret.md'), join(dir, 'notes', 'link-out.md'));
  symlinkSync('plan.md', join(dir, 'notes', 'alias.md'));
  symlinkSync('../../secretrepo', join(dir, 'notes', 'leak'));
  git(dir, ['add', '--', 'notes/tmpdir', 'notes/link-out.md', 'notes/alias.md', 'notes/leak']);
  const links = commit(dir, { message: 'Links', date: '2026-01-11T10:00:00+01:00', files: { 'notes/plan.md': 'one\ntwo\nthree\n' } });
  const edit = commit(dir, {
    message: 'Edit',
    date: '2026-01-12T10:00:00+01:00',
    files: { 'notes/plan.md': 'one\ntwo\nthree\nfour\n', 'notes/binary.md': binaryTwo },
  });
  symlinkSync(join(outside, 'passwd'), join(dir, 'notes', 'passwd.md'));
  cloneBare(dir, join(reposDir, 'links-bare'));
  commits = { create, links, edit };
}

beforeAll(async () => {
  fixture = await openHistoryFixture(build);
  ctx = await fixture.context(['links', 'links-bare']);
});

afterAll(async () => {
  await fixture?.close();
});

/** Every mode of note_history on `path` is refused like a missing note, and no refusal names a secret. */
async function refusedInEveryMode(repo: string, path: string): Promise<void> {
  for (const mode of [
    {},
    { blame: true },
    { since: '2020-01-01', diff: true },
    { since: '2026-01-11', diff: true },
    { at: commits.links },
  ]) {
    const message = await refusalOf(noteHistory, ctx, { repo, path, ...mode }, 'note_not_found');
    expect(message, JSON.stringify(mode)).toContain(`no note ${path}`);
    for (const secret of [OUTSIDE_SECRET, PASSWD_SECRET, OTHER_REPO_SECRET]) expect(message).not.toContain(secret);
  }
}

describe('note_history: symbolic links are not notes', () => {
  it('refuses an uncommitted link to a file outside the repository', async () => {
    await refusedInEveryMode('links', 'notes/passwd.md');
  });

  it('refuses a path through a committed link to a folder outside', async () => {
    await refusedInEveryMode('links', 'notes/tmpdir/secret.md');
    await refusedInEveryMode('links-bare', 'notes/tmpdir/secret.md');
  });

  it('refuses a committed link to a file outside, and never gives its target as a version', async () => {
    await refusedInEveryMode('links', 'notes/link-out.md');
    await refusedInEveryMode('links-bare', 'notes/link-out.md');
  });

  it('refuses a path through a link into a repository the person may not read', async () => {
    await refusedInEveryMode('links', 'notes/leak/n.md');
  });

  it('refuses a link to another note of the same repository', async () => {
    await refusedInEveryMode('links', 'notes/alias.md');
    await refusedInEveryMode('links-bare', 'notes/alias.md');
  });

  it('still answers for the real note beside the links', async () => {
    const list = await callTool(noteHistory, ctx, { repo: 'links', path: 'notes/plan.md' });
    expect(list.commits.map((c) => c.commit)).toEqual([commits.edit, commits.links, commits.create]);
    const blame = await callTool(noteHistory, ctx, { repo: 'links', path: 'notes/plan.md', blame: true });
    expect(blame.blame?.map((run) => [run.from_line, run.to_line, run.commit])).toEqual([
      [1, 2, commits.create],
      [3, 3, commits.links],
      [4, 4, commits.edit],
    ]);
  });
});

describe('search_history: symbolic links are not files of the vault', () => {
  it('lists the commit that added links with its notes only', async () => {
    for (const repo of ['links', 'links-bare']) {
      const answer = await callTool(searchHistory, ctx, { repo });
      const added = answer.commits.find((c) => c.commit === commits.links);
      expect(added?.files.map((f) => f.path)).toEqual(['notes/plan.md']);
      expect(added?.files_total).toBe(1);
    }
  });
});

describe('note_history: a binary file is not a text note', () => {
  const sentence = 'notes/binary.md is not a text note';

  it('lists its commits', async () => {
    const list = await callTool(noteHistory, ctx, { repo: 'links', path: 'notes/binary.md' });
    expect(list.commits.map((c) => c.commit)).toEqual([commits.edit, commits.create]);
  });

  it.each([
    ['diff', { since: '2026-01-11', diff: true }],
    ['diff from nothing', { since: '2020-01-01', diff: true }],
    ['at', { at: 'create' }],
    ['blame', { blame: true }],
  ])('refuses %s with the same sentence', async (_mode, args) => {
    for (const repo of ['links', 'links-bare']) {
      const resolved = 'at' in args ? { at: commits.create } : args;
      const message = await refusalOf(noteHistory, ctx, { repo, path: 'notes/binary.md', ...resolved }, 'not_a_note');
      expect(message).toContain(sentence);
      expect(message).not.toContain('\u0000');
    }
  });
});
