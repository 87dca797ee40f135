// A scan that reads several pages of one candidate list takes the later pages out of the
// candidates' rows, kept by repository, query and index state (CandidateRows in
// note-index.ts): the pages are exactly those read from the database, in the index's order
// (by UTF-8 bytes, as the C collation orders paths), within the scopes, over two
// repositories, and they follow the index when it moves.
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { commit, makeRepo, tempDir } from '../../test/support/git-fixture.ts';
import { openTestDatabase } from '../../test/support/test-database.ts';
import { LocalRepoHost } from '../repo-host/local/local-repo-host.ts';
import { syncRepo } from './indexer.ts';
import { createNoteIndex, type NoteIndex, type Scope, type ScanPosition } from './note-index.ts';
import type { SqlClient } from './sql-client.ts';
import { regexTrigramQuery } from '../instance/tools/regex-trigrams.ts';

/** Names whose UTF-8 order differs from UTF-16's (a supplementary character against U+E000–U+FFFF), and from any locale's. */
const names = ['a', 'B', 'z', 'é', 'Ω', '\uE000', '\uFFFD', '😀', 'ä-b', 'a b', 'A'];

function notesOf(repo: string): Record<string, string> {
  const files: Record<string, string> = {};
  for (const [i, name] of names.entries()) {
    for (let n = 0; n < 9; n++) {
      const folder = n % 3 === 0 ? 'in' : n % 3 === 1 ? 'out' : `in/${name}`;
      files[`${folder}/${name} ${n}.md`] = `# ${repo} ${i} ${n}\n\nThe needle sits here${n % 4 === 0 ? '' : ' twice: needle'}.\n`;
    }
  }
  files['in/none.md'] = 'Nothing.\n';
  return files;
}

/** The UTF-8 byte order of the C collation. */
const byBytes = (a: string, b: string) => Buffer.compare(Buffer.from(a), Buffer.from(b));

describe('candidates’ rows kept for the pages of a scan', () => {
  const dir = tempDir('mv-candidate-rows-');
  let sql: SqlClient;
  let host: LocalRepoHost;
  let index: NoteIndex;

  beforeAll(async () => {
    makeRepo(join(dir.path, 'one'), [{ message: 'Notes', files: notesOf('one') }]);
    makeRepo(join(dir.path, 'two'), [{ message: 'Notes', files: notesOf('two') }]);
    host = new LocalRepoHost({ reposDir: dir.path });
    sql = await openTestDatabase();
    index = createNoteIndex(sql);
    await syncRepo(sql, host, 'one');
    await syncRepo(sql, host, 'two');
  });

  afterAll(async () => {
    await sql?.close();
    await host?.close();
    dir.cleanup();
  });

  /** Every page of a scan, `limit` at a time, as repo:path. */
  async function pages(scopes: Scope[], limit: number, options: { needle?: string; regex?: string }): Promise<string[]> {
    const trigrams = options.regex === undefined ? undefined : regexTrigramQuery(options.regex, false);
    const out: string[] = [];
    let after: ScanPosition | null = null;
    for (;;) {
      const page = await index.scanNotes(scopes, {
        needle: options.needle ?? null,
        ...(trigrams ? { trigrams } : {}),
        caseSensitive: false,
        after,
        limit,
      });
      out.push(...page.map((note) => `${note.repo}:${note.path}`));
      if (page.length < limit) return out;
      after = page[page.length - 1]!;
    }
  }

  /** What the pages must be: the notes with the needle within the scopes, by repository and path in byte order. */
  function expected(scopes: Scope[], files: Record<string, Record<string, string>>): string[] {
    const found: string[] = [];
    for (const repo of Object.keys(files).sort(byBytes)) {
      const mine = scopes.filter((scope) => scope.repo === repo);
      for (const path of Object.keys(files[repo]!).sort(byBytes)) {
        const inScope = mine.some((scope) =>
          scope.file !== undefined ? scope.file === path : scope.prefixes.some((prefix) => path.startsWith(prefix)),
        );
        if (inScope && files[repo]![path]!.includes('needle')) found.push(`${repo}:${path}`);
      }
    }
    return found;
  }

  it('gives the pages the database gives, first read and then from the kept rows, and follows the index', async () => {
    const files = { one: notesOf('one'), two: notesOf('two') };
    const cases: Scope[][] = [
      [{ repo: 'one', prefixes: [''] }],
      [
        { repo: 'one', prefixes: ['in/'] },
        { repo: 'two', prefixes: ['out/', 'in/é'] },
      ],
      [
        { repo: 'two', prefixes: ['in/'] },
        { repo: 'one', prefixes: [''] },
      ],
      [
        { repo: 'one', prefixes: ['in/', 'out/😀'], file: undefined },
        { repo: 'one', prefixes: [], file: 'out/z 1.md' },
      ],
    ];
    for (const scopes of cases) {
      const want = expected(scopes, files);
      expect(want.length).toBeGreaterThan(10);
      for (const limit of [1, 7, 50]) {
        // The first scan reads its pages from the database; the next takes them from the kept rows.
        for (let round = 0; round < 2; round++) {
          expect(await pages(scopes, limit, { needle: 'needle' })).toEqual(want);
          expect(await pages(scopes, limit, { regex: 'need\\w+' })).toEqual(want);
        }
      }
    }
    // A new note with the needle, one without it any more, one moved: the next scan finds the index as it is now.
    commit(join(dir.path, 'one'), {
      message: 'Change',
      files: { 'in/😀 0.md': 'Gone.\n', 'in/new é.md': 'A needle.\n', 'out/a 1.md': null, 'in/a 1 moved.md': files.one['out/a 1.md']! },
    });
    await syncRepo(sql, host, 'one');
    const changed = { ...files.one, 'in/😀 0.md': 'Gone.\n', 'in/new é.md': 'A needle.\n', 'in/a 1 moved.md': files.one['out/a 1.md']! };
    delete (changed as Record<string, string>)['out/a 1.md'];
    const all: Scope[] = [{ repo: 'one', prefixes: [''] }];
    for (const limit of [3, 50]) {
      expect(await pages(all, limit, { needle: 'needle' })).toEqual(expected(all, { one: changed }));
      expect(await pages(all, limit, { regex: 'need\\w+' })).toEqual(expected(all, { one: changed }));
    }
  });
});
