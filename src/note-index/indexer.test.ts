// The indexer and the index queries on real Git repositories, on PGlite (or the server with DATABASE_URL).
import { writeFileSync, mkdirSync, unlinkSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LocalRepoHost } from '../repo-host/local/local-repo-host.ts';
import { commit, makeRepo, tempDir } from '../../test/support/git-fixture.ts';
import { openTestDatabase } from '../../test/support/test-database.ts';
import { applyCommittedFiles, removeRepo, syncRepo, targetKey } from './indexer.ts';
import { createNoteIndex, type NoteIndex } from './note-index.ts';
import type { SqlClient } from './sql-client.ts';
import { trigramKeys } from './trigram-keys.ts';
import { buildPostingBuckets, decodeBucket } from './trigram-postings.ts';

describe('syncRepo', () => {
  const dir = tempDir('mv-index-');
  const repoDir = join(dir.path, 'notes');
  let sql: SqlClient;
  let host: LocalRepoHost;
  let index: NoteIndex;

  beforeAll(async () => {
    makeRepo(repoDir, [
      {
        message: 'First notes',
        files: {
          'README.md': '---\nsummary: The root.\n---\n# Notes\n',
          'projects/apollo/plan.md':
            '---\ntitle: Apollo plan\ntype: plan\nstatus: draft\ntags: [space]\n---\n# Plan\n\nSee [[Budget]] and [the risks](risks.md).\n\n## Open\n\n| Claim | Grade |\n|---|---|\n| Launch in May | 2 vermutet |\n',
          'projects/apollo/risks.md': '# Risks\n\nBack to [[plan]]. ![[diagram.png]]\n',
          'projects/Budget.md': 'The budget. #money\n',
          'projects/diagram.png': Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 1, 2, 3]),
          'binary.md': Buffer.from([0x00, 0x01, 0x02, 0xff]),
          '.hidden/secret.md': 'secret\n',
          'Über/Straße.md': '# Straße\n\n[[Budget]]\n',
        },
      },
    ]);
    host = new LocalRepoHost({ reposDir: dir.path });
    sql = await openTestDatabase();
    index = createNoteIndex(sql);
  });

  afterAll(async () => {
    await sql?.close();
    await host?.close();
    dir.cleanup();
  });

  it('builds the index: files, notes, links with resolved targets; hidden paths left out', async () => {
    const progress: Array<[number, number]> = [];
    const result = await syncRepo(sql, host, 'notes', { onProgress: (done, total) => progress.push([done, total]) });
    expect(result.changed).toBe(7);
    expect(result.head).toMatch(/^[0-9a-f]{40}$/);
    expect(progress.at(-1)).toEqual([7, 7]);
    expect(await index.filePaths('notes')).toEqual([
      'README.md',
      'binary.md',
      'projects/Budget.md',
      'projects/apollo/plan.md',
      'projects/apollo/risks.md',
      'projects/diagram.png',
      'Über/Straße.md',
    ]);
    expect(await index.notePaths('notes')).not.toContain('binary.md');
    expect((await index.getFile('notes', 'binary.md'))?.isNote).toBe(false);
    expect((await index.getFile('notes', 'projects/diagram.png'))?.size).toBe(8);

    const plan = await index.getNote('notes', 'projects/apollo/plan.md');
    expect(plan).toMatchObject({ title: 'Apollo plan', type: 'plan', frontmatter: { status: 'draft' }, totalLines: 15 });
    expect(plan?.headings.map((h) => h.text)).toEqual(['Plan', 'Open']);
    expect(plan?.grades).toEqual([expect.objectContaining({ line: 15, grade: '2 vermutet', shorthand: 'assumption' })]);
    expect(plan?.tags).toContain('space');

    const links = await index.linksFrom('notes', 'projects/apollo/plan.md');
    expect(links.map((l) => [l.kind, l.target, l.resolved])).toEqual([
      ['wiki', 'Budget', 'projects/Budget.md'],
      ['markdown', 'risks.md', 'projects/apollo/risks.md'],
    ]);
    const toBudget = await index.linksTo('notes', 'projects/Budget.md');
    expect(toBudget.map((l) => l.source)).toEqual(['projects/apollo/plan.md', 'Über/Straße.md']);
    expect((await index.linksTo('notes', 'projects/diagram.png')).map((l) => l.kind)).toEqual(['embed']);
  });

  it('is idempotent: an unchanged repository is not read again', async () => {
    const result = await syncRepo(sql, host, 'notes');
    expect(result).toMatchObject({ changed: 0, removed: 0 });
  });

  it('follows changes: edits, removals, new files re-resolve links, uncommitted work-tree edits', async () => {
    commit(repoDir, { message: 'Move the budget', renames: { 'projects/Budget.md': 'finance/Budget.md' } });
    let result = await syncRepo(sql, host, 'notes');
    expect(result).toMatchObject({ changed: 1, removed: 1 });
    expect((await index.linksTo('notes', 'finance/Budget.md')).map((l) => l.source)).toEqual(['projects/apollo/plan.md', 'Über/Straße.md']);
    expect(await index.linksTo('notes', 'projects/Budget.md')).toEqual([]);

    // A second file of that name in the linking note's folder wins for plan.md.
    commit(repoDir, { message: 'Local budget', files: { 'projects/apollo/Budget.md': 'Apollo budget\n' } });
    await syncRepo(sql, host, 'notes');
    expect((await index.linksTo('notes', 'projects/apollo/Budget.md')).map((l) => l.source)).toEqual(['projects/apollo/plan.md']);
    expect((await index.linksTo('notes', 'finance/Budget.md')).map((l) => l.source)).toEqual(['Über/Straße.md']);

    // Uncommitted: an edited note and a new one are read from the work tree.
    writeFileSync(join(repoDir, 'projects/apollo/risks.md'), '# Risks\n\nNew risk, see [[Budget]].\n');
    mkdirSync(join(repoDir, 'drafts'), { recursive: true });
    writeFileSync(join(repoDir, 'drafts/idea.md'), '# Idea\n');
    result = await syncRepo(sql, host, 'notes');
    expect(result.changed).toBe(2);
    expect((await index.getNote('notes', 'projects/apollo/risks.md'))?.content).toContain('New risk');
    expect(await index.getNote('notes', 'drafts/idea.md')).not.toBeNull();

    unlinkSync(join(repoDir, 'drafts/idea.md'));
    result = await syncRepo(sql, host, 'notes');
    expect(result.removed).toBe(1);
    expect(await index.getNote('notes', 'drafts/idea.md')).toBeNull();
    await expectPostingsOfNotes(sql, 'notes');
  });

  it('lists, counts and scans within scopes', async () => {
    const scopes = [{ repo: 'notes', prefixes: ['projects/'] }];
    const page = await index.listNotes(scopes, {}, { limit: 2, offset: 0 });
    expect(page.total).toBe(3);
    expect(page.notes.map((n) => n.path)).toEqual(['projects/apollo/Budget.md', 'projects/apollo/plan.md']);
    expect((await index.listNotes(scopes, { type: 'plan', status: 'draft' }, { limit: 10, offset: 0 })).total).toBe(1);
    expect(await index.fieldValues(scopes, 'type')).toEqual([{ value: 'plan', notes: 1 }]);
    const scanned = await index.scanNotes([{ repo: 'notes', prefixes: [''] }], {
      needle: 'BUDGET',
      caseSensitive: false,
      after: null,
      limit: 10,
    });
    expect(scanned.map((n) => n.path)).toEqual([
      'finance/Budget.md',
      'projects/apollo/Budget.md',
      'projects/apollo/plan.md',
      'projects/apollo/risks.md',
      'Über/Straße.md',
    ]);
    const literal = await index.scanNotes([{ repo: 'notes', prefixes: [''] }], {
      needle: '50%_',
      caseSensitive: true,
      after: null,
      limit: 10,
    });
    expect(literal).toEqual([]);
    const rows = await index.noteRows('notes');
    expect(rows.find((r) => r.path === 'projects/apollo/risks.md')?.links.map((l) => l.target)).toEqual(['Budget']);
  });

  it('handles a 5 MB note and a 200,000-character line', async () => {
    const big = `# Big\n\n${'word '.repeat(1_000_000)}\n${'x'.repeat(200_000)}\n`;
    commit(repoDir, { message: 'Big', files: { 'big.md': big } });
    await syncRepo(sql, host, 'notes');
    const note = await index.getNote('notes', 'big.md');
    expect(note?.content.length).toBe(big.length);
    expect(note?.totalLines).toBe(4);
    expect(
      (await index.scanNotes([{ repo: 'notes', prefixes: [''] }], { needle: 'xxx', caseSensitive: true, after: null, limit: 10 })).map(
        (n) => n.path,
      ),
    ).toEqual(['big.md']);
    await expectPostingsOfNotes(sql, 'notes');
  });

  it('removes a repository', async () => {
    await removeRepo(sql, 'notes');
    expect(await index.filePaths('notes')).toEqual([]);
    expect(await index.repoState('notes')).toBeNull();
  });
});

describe('scanNotes', () => {
  const dir = tempDir('mv-scan-');
  const repoDir = join(dir.path, 'greek');
  let sql: SqlClient;
  let host: LocalRepoHost;
  let index: NoteIndex;
  const all = [{ repo: 'greek', prefixes: [''] }];

  beforeAll(async () => {
    makeRepo(repoDir, [{ message: 'Notes', files: { 'a.md': 'ΟΔΟΣ ΚΑΙ ΠΟΛΗ\n', 'b.md': 'İstanbul trip\n', 'c.md': 'odos\n' } }]);
    host = new LocalRepoHost({ reposDir: dir.path });
    sql = await openTestDatabase();
    index = createNoteIndex(sql);
    await syncRepo(sql, host, 'greek');
  });

  afterAll(async () => {
    await sql?.close();
    await host?.close();
    dir.cleanup();
  });

  it('ignores case as the line matcher does (JavaScript lower case), or matches exactly', async () => {
    const scan = async (needle: string, caseSensitive: boolean) =>
      (await index.scanNotes(all, { needle, caseSensitive, after: null, limit: 10 })).map((n) => n.path);
    expect(await scan('οδος', false)).toEqual(['a.md']);
    expect(await scan('ΟΔΟΣ', true)).toEqual(['a.md']);
    expect(await scan('Οδος', true)).toEqual([]);
    expect(await scan('i̇stanbul', false)).toEqual(['b.md']);
    expect(await scan('od', false)).toEqual(['c.md']);
    expect(await scan('trip', false)).toEqual(['b.md']);
  });

  it('parses every note again, with fresh posting lists, when the type field changes', async () => {
    commit(repoDir, {
      message: 'Settings',
      files: { '.vault/settings.jsonc': '{ "typeField": "kind" }\n', 'd.md': '---\nkind: trip\n---\nTrip to the city\n' },
    });
    const result = await syncRepo(sql, host, 'greek');
    expect(result.changed).toBeGreaterThanOrEqual(4);
    expect((await index.getNote('greek', 'd.md'))?.type).toBe('trip');
    expect((await index.scanNotes(all, { needle: 'trip', caseSensitive: false, after: null, limit: 10 })).map((n) => n.path)).toEqual([
      'b.md',
      'd.md',
    ]);
    await expectPostingsOfNotes(sql, 'greek');
  });
});

/** The stored posting lists equal those a fresh build makes from the stored notes. */
async function expectPostingsOfNotes(sql: SqlClient, repo: string): Promise<void> {
  const notes = (await sql.query<{ id: number; content: string }>('SELECT id, content FROM notes WHERE repo = $1 ORDER BY id', [repo]))
    .rows;
  const fresh = buildPostingBuckets(notes.map((note) => ({ id: note.id, keys: trigramKeys(note.content) })));
  const stored = (
    await sql.query<{ bucket: number; postings: string }>(
      `SELECT bucket, encode(postings, 'base64') AS postings FROM trigram_buckets WHERE repo = $1 ORDER BY bucket`,
      [repo],
    )
  ).rows;
  expect(stored.map((row) => [row.bucket, decodeBucket(Buffer.from(row.postings, 'base64'))])).toEqual(
    fresh.map((b) => [b.bucket, decodeBucket(b.postings)]),
  );
}

describe('targetKey', () => {
  it('is the lower-case file name without .md', () => {
    expect(targetKey('a/B/Plan.md')).toBe('plan');
    expect(targetKey('../x/Diagram.PNG')).toBe('diagram.png');
    expect(targetKey('Plan')).toBe('plan');
  });
});

describe('applyCommittedFiles', () => {
  it('writes the rows a sync would for a commit’s files, and the next sync finds nothing to do', async () => {
    const dir = tempDir('mv-index-apply-');
    const repoDir = join(dir.path, 'notes');
    makeRepo(repoDir, [
      {
        message: 'Start',
        files: {
          'a.md': '# A\n\nSee [[b]] and [[gone]].\n',
          'b.md': '# B\n\n[[a]] #tag\n',
          'gone.md': '# Gone\n',
          'folder/c.md': '---\ntype: plan\nsummary: C.\n---\n# C\n\n[[new]]\n',
          'pic.png': Buffer.from([0x89, 0x50, 0x4e, 0x47]),
        },
      },
    ]);
    const host = new LocalRepoHost({ reposDir: dir.path });
    const sql = await openTestDatabase();
    const fresh = await openTestDatabase();
    try {
      await syncRepo(sql, host, 'notes');
      const snapshot = await host.snapshot('notes');
      const files = [
        { path: 'a.md', content: Buffer.from('# A, edited\n\nSee [[b]], [[new]] and [[gone]].\n') },
        { path: 'new.md', content: Buffer.from('---\ntype: idea\n---\n# New\n\nBack to [[a]]. uniqueword\n') },
        { path: 'gone.md', content: null },
        { path: 'raw.bin', content: Buffer.from([0, 1, 2]) },
      ];
      const done = await host.commit('notes', {
        parent: snapshot.head,
        files,
        author: { login: 'a', name: 'A', email: 'a@x' },
        message: 'Change',
      });
      expect(done.ok).toBe(true);
      const head = done.ok ? done.commit : '';
      expect(
        await applyCommittedFiles(sql, 'notes', { head, fields: { typeField: 'type', summaryField: 'summary', folders: ['/'] }, files }),
      ).toBe(true);

      await syncRepo(fresh, host, 'notes');
      const rows = async (db: SqlClient) => ({
        files: (await db.query('SELECT path, oid, size, is_note FROM files WHERE repo = $1 ORDER BY path', ['notes'])).rows,
        notes: (await db.query('SELECT path, oid, content, title, type, summary, tags FROM notes WHERE repo = $1 ORDER BY path', ['notes']))
          .rows,
        links: (await db.query('SELECT source, ordinal, target, resolved FROM links WHERE repo = $1 ORDER BY source, ordinal', ['notes']))
          .rows,
        head: (await db.query<{ head: string }>('SELECT head FROM repos WHERE name = $1', ['notes'])).rows[0]?.head,
      });
      expect(await rows(sql)).toEqual(await rows(fresh));
      expect((await createNoteIndex(sql).linksTo('notes', 'new.md')).map((link) => link.source)).toEqual(['a.md', 'folder/c.md']);
      await expectPostingsOfNotes(sql, 'notes');
      // The poll's next sync: the fingerprint differs, the files do not.
      expect(await syncRepo(sql, host, 'notes')).toMatchObject({ head, changed: 0, removed: 0 });
      // Never indexed, or other parse fields: left to the sync.
      expect(
        await applyCommittedFiles(sql, 'other', { head, fields: { typeField: 'type', summaryField: 'summary', folders: ['/'] }, files }),
      ).toBe(false);
      expect(
        await applyCommittedFiles(sql, 'notes', { head, fields: { typeField: 'kind', summaryField: 'summary', folders: ['/'] }, files }),
      ).toBe(false);
    } finally {
      await sql.close();
      await fresh.close();
      await host.close();
      dir.cleanup();
    }
  });

  it('keeps a moved note’s id, so only its edits change the posting lists; rows as a sync writes them', async () => {
    const dir = tempDir('mv-index-move-');
    const repoDir = join(dir.path, 'notes');
    makeRepo(repoDir, [
      {
        message: 'Start',
        files: {
          'a.md': '# A\n\nSee [[b]] and [[c]]. alphaword\n',
          'b.md': '# B\n\n[[a]] betaword\n',
          'c.md': '# C\n\nBack to [[a]]. gammaword\n',
          'z.md': '# Z\n\n[[c|the c]] zetaword\n',
        },
      },
    ]);
    const host = new LocalRepoHost({ reposDir: dir.path });
    const sql = await openTestDatabase();
    const fresh = await openTestDatabase();
    const idOf = async (path: string) =>
      (await sql.query<{ id: number }>('SELECT id FROM notes WHERE repo = $1 AND path = $2', ['notes', path])).rows[0]?.id;
    try {
      await syncRepo(sql, host, 'notes');
      const [aId, cId] = [await idOf('a.md'), await idOf('c.md')];
      const snapshot = await host.snapshot('notes');
      // a.md moves unchanged, c.md moves with an edit of its own; b.md and z.md get their links rewritten.
      const files = [
        { path: 'a.md', content: null },
        { path: 'c.md', content: null },
        { path: 'moved/a.md', content: Buffer.from('# A\n\nSee [[b]] and [[moved/c]]. alphaword\n'), from: 'a.md' },
        { path: 'moved/c.md', content: Buffer.from('# C\n\nBack to [[moved/a]]. gammaword\n'), from: 'c.md' },
        { path: 'b.md', content: Buffer.from('# B\n\n[[moved/a]] betaword\n') },
        { path: 'z.md', content: Buffer.from('# Z\n\n[[moved/c|the c]] zetaword\n') },
      ];
      const done = await host.commit('notes', {
        parent: snapshot.head,
        files,
        author: { login: 'a', name: 'A', email: 'a@x' },
        message: 'Move',
      });
      const head = done.ok ? done.commit : '';
      expect(
        await applyCommittedFiles(sql, 'notes', { head, fields: { typeField: 'type', summaryField: 'summary', folders: ['/'] }, files }),
      ).toBe(true);
      expect([await idOf('moved/a.md'), await idOf('moved/c.md')]).toEqual([aId, cId]);
      expect([await idOf('a.md'), await idOf('c.md')]).toEqual([undefined, undefined]);
      await expectPostingsOfNotes(sql, 'notes');
      await syncRepo(fresh, host, 'notes');
      const rows = async (db: SqlClient) => ({
        files: (await db.query('SELECT path, oid, size, is_note FROM files WHERE repo = $1 ORDER BY path', ['notes'])).rows,
        notes: (await db.query('SELECT path, oid, content, title FROM notes WHERE repo = $1 ORDER BY path', ['notes'])).rows,
        links: (await db.query('SELECT source, ordinal, target, resolved FROM links WHERE repo = $1 ORDER BY source, ordinal', ['notes']))
          .rows,
      });
      expect(await rows(sql)).toEqual(await rows(fresh));
      const index = createNoteIndex(sql);
      expect((await index.linksTo('notes', 'moved/a.md')).map((link) => link.source)).toEqual(['b.md', 'moved/c.md']);
      for (const [word, path] of [
        ['alphaword', 'moved/a.md'],
        ['gammaword', 'moved/c.md'],
      ] as const) {
        const found = await index.scanNotes([{ repo: 'notes', prefixes: [''] }], {
          needle: word,
          caseSensitive: false,
          after: null,
          limit: 10,
        });
        expect(found.map((note) => note.path)).toEqual([path]);
      }
    } finally {
      await sql.close();
      await fresh.close();
      await host.close();
      dir.cleanup();
    }
  });

  it('after each of a run of edits, moves with link rewrites, creates and deletes, holds what a full build of that commit holds', async () => {
    const dir = tempDir('mv-index-run-');
    const repoDir = join(dir.path, 'notes');
    makeRepo(repoDir, [
      {
        message: 'Start',
        files: {
          'hub.md': '# Hub\n\n[[a]], [[b|the b]], ![](pics/p.png), [c](c.md), [[later]] and [[Hub#Hub]]. hubword\n',
          'a.md': '---\ntype: plan\nsummary: A.\n---\n# A\n\n## Part\n\nSee [[b]]. #tag alphaword\n',
          'b.md': '# B\n\n[[a#Part]] and ![[a]]. betaword\n',
          'c.md': '# C\n\n[[hub]] gammaword\n',
          'dir/a.md': '# Other A\n\n[[a]]\n',
        },
      },
    ]);
    const host = new LocalRepoHost({ reposDir: dir.path });
    const sql = await openTestDatabase();
    const fresh = await openTestDatabase();
    const fields = { typeField: 'type', summaryField: 'summary', folders: ['/'] };
    const rows = async (db: SqlClient) => ({
      files: (await db.query('SELECT path, oid, size, is_note FROM files WHERE repo = $1 ORDER BY path', ['notes'])).rows,
      notes: (
        await db.query(
          'SELECT path, oid, size, content, total_lines, title, type, summary, frontmatter, frontmatter_error, headings, tags, grades FROM notes WHERE repo = $1 ORDER BY path',
          ['notes'],
        )
      ).rows,
      links: (
        await db.query(
          'SELECT source, ordinal, line, kind, raw, target, subpath, alias, start_offset, end_offset, in_frontmatter, target_key, resolved FROM links WHERE repo = $1 ORDER BY source, ordinal',
          ['notes'],
        )
      ).rows,
    });
    const search = async (db: SqlClient, word: string) =>
      (
        await createNoteIndex(db).scanNotes([{ repo: 'notes', prefixes: [''] }], {
          needle: word,
          caseSensitive: false,
          after: null,
          limit: 10,
        })
      ).map((note) => note.path);
    try {
      await syncRepo(sql, host, 'notes');
      const hub = '# Hub\n\n[[a]], [[b|the b]], ![](pics/p.png), [c](c.md), [[later]] and [[Hub#Hub]]. hubword\n';
      const steps: Array<Array<{ path: string; content: Buffer | null; from?: string }>> = [
        // An edit, then the same note edited again (its keys kept from the first), then back.
        [
          {
            path: 'a.md',
            content: Buffer.from('---\ntype: idea\nsummary: A!\n---\n# A\n\n## Part\n\nSee [[b]]. #tag alphaword deltaword\n'),
          },
        ],
        [{ path: 'a.md', content: Buffer.from('---\ntype: idea\n---\n# A\n\n## Part\n\nSee [[b]] and [[c]]. alphaword\n') }],
        // A move with the links to it rewritten, and an edit of the moved note.
        [
          { path: 'a.md', content: null },
          {
            path: 'moved/a.md',
            content: Buffer.from('---\ntype: idea\n---\n# A\n\n## Part\n\nSee [[b]] and [[c]]. alphaword moved\n'),
            from: 'a.md',
          },
          { path: 'hub.md', content: Buffer.from(hub.replace('[[a]]', '[[moved/a]]')) },
          { path: 'b.md', content: Buffer.from('# B\n\n[[moved/a#Part]] and ![[moved/a]]. betaword\n') },
        ],
        // New files that links already name (a note, an image), and a note deleted.
        [
          { path: 'later.md', content: Buffer.from('# Later\n\n[[c]] laterword\n') },
          { path: 'pics/p.png', content: Buffer.from([0x89, 0x50, 0x4e, 0x47]) },
          { path: 'c.md', content: null },
        ],
        // Moved back, unchanged, with nothing else written.
        [
          { path: 'moved/a.md', content: null },
          {
            path: 'a.md',
            content: Buffer.from('---\ntype: idea\n---\n# A\n\n## Part\n\nSee [[b]] and [[c]]. alphaword moved\n'),
            from: 'moved/a.md',
          },
        ],
        // Everything under a folder removed, and a note created in a new one.
        [
          { path: 'dir/a.md', content: null },
          { path: 'pics/p.png', content: null },
          { path: 'new/c.md', content: Buffer.from('# New C\n\n[[hub]] gammaword\n') },
        ],
      ];
      let parent = (await host.snapshot('notes')).head;
      for (const [i, files] of steps.entries()) {
        const done = await host.commit('notes', { parent, files, author: { login: 'a', name: 'A', email: 'a@x' }, message: `Step ${i}` });
        expect(done.ok).toBe(true);
        parent = done.ok ? done.commit : null;
        expect(await applyCommittedFiles(sql, 'notes', { head: parent!, fields, files })).toBe(true);
        if (i === 1) {
          // A commit from outside, taken in by a sync: the paths kept for the next own commit follow it.
          commit(repoDir, { message: 'Outside', files: { 'outside/b.md': '# Other B\n\n[[later]] [[b]]\n' } });
          expect(await syncRepo(sql, host, 'notes')).toMatchObject({ changed: 1, removed: 0 });
          parent = (await host.snapshot('notes')).head;
        }
        await removeRepo(fresh, 'notes');
        await syncRepo(fresh, host, 'notes');
        expect(await rows(sql), `after step ${i}`).toEqual(await rows(fresh));
        await expectPostingsOfNotes(sql, 'notes');
        for (const word of ['alphaword', 'deltaword', 'gammaword', 'laterword', 'moved'])
          expect(await search(sql, word), `after step ${i}: ${word}`).toEqual(await search(fresh, word));
      }
      expect(await syncRepo(sql, host, 'notes')).toMatchObject({ changed: 0, removed: 0 });
    } finally {
      await sql.close();
      await fresh.close();
      await host.close();
      dir.cleanup();
    }
  });
});
