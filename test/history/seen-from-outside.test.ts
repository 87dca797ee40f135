// The history tools as a person sees them: case ignored beyond ASCII, nothing shown of the
// time a note lay at a hidden path (blame, diff), and paging across repositories whose
// commit dates are out of order.
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pickaxeArgs } from '../../src/repo-host/git/history/page-files.ts';
import { forgetSearches } from '../../src/repo-host/git/history/search-commits.ts';
import type { ToolContext } from '../../src/instance/tool.ts';
import { noteHistory } from '../../src/instance/tools/note-history.ts';
import { searchHistory } from '../../src/instance/tools/search-history.ts';
import { LocalRepoHost } from '../../src/repo-host/local/local-repo-host.ts';
import { commit, git, makeRepo, tempDir, type FixtureAuthor } from '../support/git-fixture.ts';
import { callTool, gitOnlyContext, reader } from './history-fixture.ts';

// The fixtures' dates are +02:00: days are read in Berlin time.
process.env.TZ = 'Europe/Berlin';

const olaf: FixtureAuthor = { name: 'Ölaf Ärger', email: 'olaf@acme.example' };
const skewer: FixtureAuthor = { name: 'Sam Skewer', email: 'skewer@acme.example' };

let temp: { path: string; cleanup: () => void };
let host: LocalRepoHost;
let ctx: ToolContext;
let v: string[];
let r1: string[];
let r2: string[];
let copies: string[];
let sideEdit: string;
/** Letters whose case Git (glibc, C.UTF-8) and Unicode folding treat differently. */
const letters = [
  'ß',
  'ẞ',
  'ss',
  'SS',
  'ı',
  'I',
  'i',
  'İ',
  '\u2126',
  'ω',
  'Ω',
  '\u212a',
  'k',
  'K',
  '\u212b',
  'å',
  'Å',
  'ϴ',
  'θ',
  'Θ',
  'ϑ',
  'Σ',
  'σ',
  'ς',
  'straße',
  'STRAẞE',
];

beforeAll(() => {
  temp = tempDir('mv-seen-');
  v = makeRepo(join(temp.path, 'v'), [
    { message: 'Paint list', date: '2026-05-01T10:00:00+02:00', author: olaf, files: { 'notes/a.md': 'Холст и краски\nline two\n' } },
    { message: 'Into the trash', date: '2026-05-02T10:00:00+02:00', renames: { 'notes/a.md': '.trash/a.md' } },
    {
      message: 'edit while trashed SECRETSUBJECT',
      date: '2026-05-03T10:00:00+02:00',
      files: { '.trash/a.md': 'Холст и краски\nline two\nsecret line\n' },
    },
    { message: 'Back from the trash', date: '2026-05-05T10:00:00+02:00', renames: { '.trash/a.md': 'notes/back.md' } },
  ]);
  // Made in this order, so Git lists them A, B, S, E: their committer dates are not.
  r1 = makeRepo(join(temp.path, 'r1'), [
    { message: 'E', date: '2026-10-06T10:00:00+02:00', author: skewer, files: { 'e.md': 'e\n' } },
    { message: 'S', date: '2026-10-05T10:00:00+02:00', author: skewer, files: { 's.md': 's\n' } },
    { message: 'B', date: '2026-10-01T10:00:00+02:00', author: skewer, files: { 'b.md': 'b\n' } },
    { message: 'A', date: '2026-10-10T10:00:00+02:00', author: skewer, files: { 'a.md': 'a\n' } },
  ]);
  const page = (first: string) => `${[first, 'two', 'three', 'four', 'five', 'six', 'seven', 'eight'].join('\n')}\n`;
  copies = makeRepo(join(temp.path, 'copies'), [
    { message: 'English page', date: '2026-06-01T10:00:00+02:00', files: { 'en/page.md': page('one') } },
    { message: 'German page, from the English one', date: '2026-06-02T10:00:00+02:00', files: { 'de/seite.md': page('eins') } },
    { message: 'English page edited', date: '2026-06-03T10:00:00+02:00', files: { 'en/page.md': page('ONE') } },
    { message: 'German page edited', date: '2026-06-04T10:00:00+02:00', files: { 'de/seite.md': page('EINS') } },
  ]);
  const body = (extra: string) => `${['# Plan', 'one', 'two', 'three', 'four', 'five', 'six', extra].join('\n')}\n`;
  makeRepo(join(temp.path, 'reuse'), [
    { message: 'Plan 2025', date: '2026-07-01T10:00:00+02:00', files: { 'notes/plan.md': body('2025') } },
    { message: 'Archive the 2025 plan', date: '2026-07-02T10:00:00+02:00', renames: { 'notes/plan.md': 'archive/plan-2025.md' } },
    { message: 'Plan 2026', date: '2026-07-03T10:00:00+02:00', files: { 'notes/plan.md': 'A new plan\n' } },
    { message: 'Revise the 2026 plan', date: '2026-07-04T10:00:00+02:00', files: { 'notes/plan.md': 'A new plan, revised\n' } },
  ]);
  const pasted = [
    'A long line from the snippet that is worth keeping, about forty characters or more.',
    'Another long line from the snippet, also long enough for git blame to see it as copied.',
  ];
  makeRepo(join(temp.path, 'snippets'), [
    { message: 'Snippet', date: '2026-09-01T10:00:00+02:00', files: { '.obsidian/snip.md': `${pasted.join('\n')}\n` } },
    { message: 'Copy target', date: '2026-09-02T10:00:00+02:00', files: { 'copy.md': '# Copy\n' } },
    {
      message: 'Paste from the snippet',
      date: '2026-09-03T10:00:00+02:00',
      files: { 'copy.md': `# Copy\n${pasted.join('\n')}\n`, '.obsidian/snip.md': 'emptied\n' },
    },
    { message: 'Later edit', date: '2026-09-04T10:00:00+02:00', files: { 'copy.md': `# Copy\n${pasted.join('\n')}\nThe end.\n` } },
  ]);
  const side = join(temp.path, 'side');
  makeRepo(side, [{ message: 'Create old', date: '2026-04-01T10:00:00+02:00', files: { 'old.md': body('first') } }]);
  git(side, ['checkout', '-q', '-b', 'branch']);
  git(side, ['checkout', '-q', 'main']);
  commit(side, { message: 'Rename old to new', date: '2026-04-02T10:00:00+02:00', renames: { 'old.md': 'new.md' } });
  git(side, ['checkout', '-q', 'branch']);
  sideEdit = commit(side, { message: 'Side edit of old', date: '2026-04-05T10:00:00+02:00', files: { 'old.md': body('side') } });
  git(side, ['checkout', '-q', 'main']);
  const stamp = '2026-04-06T10:00:00+02:00';
  git(side, ['merge', '-q', '--no-ff', '-m', 'Merge branch', 'branch'], {
    GIT_AUTHOR_DATE: stamp,
    GIT_COMMITTER_DATE: stamp,
    GIT_AUTHOR_NAME: 'A',
    GIT_AUTHOR_EMAIL: 'a@x',
    GIT_COMMITTER_NAME: 'A',
    GIT_COMMITTER_EMAIL: 'a@x',
  });
  commit(side, { message: 'Edit new', date: '2026-04-07T10:00:00+02:00', files: { 'new.md': body('side\nmore') } });
  makeRepo(
    join(temp.path, 'letters'),
    letters.map((letter, i) => ({
      message: `letter ${i}`,
      date: `2026-08-${String(i + 1).padStart(2, '0')}T10:00:00+02:00`,
      files: { 'l.md': `x ${letter} y\n` },
    })),
  );
  makeRepo(join(temp.path, 'nfd'), [
    { message: 'Decomposed', date: '2026-08-01T10:00:00+02:00', files: { 'a.md': 'La cre\u0300me\n' } },
    { message: 'Composed', date: '2026-08-02T10:00:00+02:00', files: { 'b.md': 'La CRÈME\n' } },
    { message: 'Respelled', date: '2026-08-03T10:00:00+02:00', files: { 'a.md': 'La crème\n' } },
  ]);
  r2 = makeRepo(join(temp.path, 'r2'), [{ message: 'X', date: '2026-10-03T10:00:00+02:00', author: skewer, files: { 'x.md': 'x\n' } }]);
  host = new LocalRepoHost({ reposDir: temp.path, as: reader });
  ctx = gitOnlyContext(host, ['v', 'r1', 'r2', 'copies', 'reuse', 'side', 'letters', 'snippets', 'nfd']);
});

afterAll(async () => {
  await host?.close();
  temp?.cleanup();
});

describe('search_history: case ignored beyond ASCII', () => {
  it('finds Cyrillic text whatever its case, and says which file gained or lost it', async () => {
    forgetSearches();
    for (const text of ['ХОЛСТ', 'холст', 'Холст']) {
      const answer = await callTool(searchHistory, ctx, { repo: 'v', text });
      expect(answer.commits.map((c) => [c.subject, c.files.map((f) => [f.path, f.text])])).toEqual([
        ['Back from the trash', [['notes/back.md', 'added']]],
        ['Into the trash', [['notes/a.md', 'removed']]],
        ['Paint list', [['notes/a.md', 'added']]],
      ]);
    }
  });

  it("lists what Git's pickaxe lists for letters whose case is tricky, each file saying whether it gained or lost the text", async () => {
    for (const text of letters) {
      // Git itself is the reference, asked for every normalisation form of the text at once.
      const byGit = git(join(temp.path, 'letters'), ['log', ...pickaxeArgs(text), '--regexp-ignore-case', '--format=%s'], {
        LC_ALL: 'C.UTF-8',
      });
      const answer = await callTool(searchHistory, ctx, { repo: 'letters', text, limit: 50 });
      expect([text, answer.commits.map((c) => c.subject)]).toEqual([text, byGit === '' ? [] : byGit.split('\n')]);
      // Git saw the count change in each; the tool's own count must see it too, and which way.
      for (const found of answer.commits)
        expect([text, found.subject, found.files.map((f) => f.text)]).toEqual([
          text,
          found.subject,
          [expect.stringMatching(/^(added|removed)$/)],
        ]);
    }
  });

  it('finds text whatever its Unicode normalisation, composed or decomposed as macOS stores it', async () => {
    for (const text of ['crème', 'cre\u0300me']) {
      const answer = await callTool(searchHistory, ctx, { repo: 'nfd', text });
      // Respelling the same word in another form adds and removes nothing.
      expect(answer.commits.map((c) => [c.subject, c.files.map((f) => [f.path, f.text])])).toEqual([
        ['Composed', [['b.md', 'added']]],
        ['Decomposed', [['a.md', 'added']]],
      ]);
    }
  });

  it('finds an author by part of a name with other letters than ASCII, whatever its case', async () => {
    for (const author of ['ölaf', 'ÄRGER']) {
      const answer = await callTool(searchHistory, ctx, { repo: 'v', author });
      expect(answer.commits.map((c) => c.subject)).toEqual(['Paint list']);
    }
  });
});

describe('note_history: nothing of the time at a hidden path', () => {
  it('credits the lines changed while the note lay in .trash to the commit that brought it back', async () => {
    const answer = await callTool(noteHistory, ctx, { repo: 'v', path: 'notes/back.md', blame: true });
    expect(answer.blame?.map((run) => [run.from_line, run.to_line, run.commit, run.path])).toEqual([
      [1, 2, v[0], 'notes/a.md'],
      [3, 3, v[3], 'notes/back.md'],
    ]);
    expect(JSON.stringify(answer)).not.toContain('SECRETSUBJECT');
  });

  it('credits lines copied from a hidden file to the commit that brought them into the note', async () => {
    const answer = await callTool(noteHistory, ctx, { repo: 'snippets', path: 'copy.md', blame: true });
    expect(answer.blame?.map((run) => [run.from_line, run.to_line, run.subject])).toEqual([
      [1, 1, 'Copy target'],
      [2, 3, 'Paste from the snippet'],
      [4, 4, 'Later edit'],
    ]);
  });

  it('diffs from nothing when the note lay at a hidden path at the start of the day', async () => {
    const answer = await callTool(noteHistory, ctx, { repo: 'v', path: 'notes/back.md', since: '2026-05-04', diff: true });
    expect(answer.diff?.base_path).toBe('notes/back.md');
    expect(answer.diff?.content).toContain('+secret line');
    expect(answer.diff?.content).toContain('--- /dev/null');
    expect(answer.note).toContain('Before 2026-05-04 the note lay at a path that is hidden');
    // The list shows only the commits at visible paths.
    const list = await callTool(noteHistory, ctx, { repo: 'v', path: 'notes/back.md' });
    expect(list.commits.map((c) => c.subject)).toEqual(['Back from the trash', 'Paint list']);
  });
});

describe('note_history: a note copied from another', () => {
  it("follows the copy back to its source, and leaves out the source's own later edits", async () => {
    const answer = await callTool(noteHistory, ctx, { repo: 'copies', path: 'de/seite.md' });
    expect(answer.commits.map((c) => [c.subject, c.path])).toEqual([
      ['German page edited', 'de/seite.md'],
      ['German page, from the English one', 'de/seite.md'],
      ['English page', 'en/page.md'],
    ]);
    expect(copies).toHaveLength(4);
  });
});

describe('note_history: the edits of an old name', () => {
  it('leaves out a new note made later at the old name', async () => {
    const answer = await callTool(noteHistory, ctx, { repo: 'reuse', path: 'archive/plan-2025.md' });
    expect(answer.commits.map((c) => [c.subject, c.path])).toEqual([
      ['Archive the 2025 plan', 'archive/plan-2025.md'],
      ['Plan 2025', 'notes/plan.md'],
    ]);
  });

  it('keeps an edit made to the old name on a branch merged after the rename, with since too', async () => {
    const whole = await callTool(noteHistory, ctx, { repo: 'side', path: 'new.md' });
    expect(whole.commits.map((c) => [c.subject, c.path])).toEqual([
      ['Edit new', 'new.md'],
      ['Side edit of old', 'old.md'],
      ['Rename old to new', 'new.md'],
      ['Create old', 'old.md'],
    ]);
    const since = await callTool(noteHistory, ctx, { repo: 'side', path: 'new.md', since: '2026-04-03' });
    expect(since.commits.map((c) => c.subject)).toEqual(['Edit new', 'Side edit of old']);
    expect(since.commits[1]?.commit).toBe(sideEdit);
  });
});

describe('search_history: paging across repositories', () => {
  it('lists each commit once, each repository in its own order, merged newest first', async () => {
    const whole = (await callTool(searchHistory, ctx, { author: 'skewer', limit: 50 })).commits.map((c) => c.subject);
    expect(whole).toEqual(['A', 'X', 'B', 'S', 'E']);
    for (const limit of [1, 2, 3]) {
      const paged: string[] = [];
      for (let offset = 0; offset < whole.length; offset += limit)
        paged.push(...(await callTool(searchHistory, ctx, { author: 'skewer', limit, offset })).commits.map((c) => c.subject));
      expect(paged).toEqual(whole);
    }
    expect(r1).toHaveLength(4);
    expect(r2).toHaveLength(1);
  });
});
