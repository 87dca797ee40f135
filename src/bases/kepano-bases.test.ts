// The 30 real `.base` files of kepano's vault, rendered on that vault; five pinned by hand.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cloneCorpus, corpusBundle, tempDir } from '../../test/support/git-fixture.ts';
import { parseBaseFile } from './base-file.ts';
import { baseNotesFromFiles } from './base-notes-from-files.ts';
import type { BaseVaultInput } from './base-vault.ts';
import { renderBaseView } from './render-base-view.ts';

const available = corpusBundle('kepano-obsidian') !== null;
const NOW = new Date(2023, 9, 1, 12, 0, 0).getTime(); // 2023-10-01 12:00 local: "Recent" means last after 2023-08-02

describe.skipIf(!available)('kepano-obsidian bases', () => {
  let temp: ReturnType<typeof tempDir>;
  let dir: string;
  let vault: BaseVaultInput;
  let baseFiles: string[];

  beforeAll(() => {
    temp = tempDir('mv-kepano-');
    dir = join(temp.path, 'vault');
    cloneCorpus('kepano-obsidian', dir);
    const paths = execFileSync('git', ['ls-files', '-z'], { cwd: dir, encoding: 'utf8' })
      .split('\0')
      .filter((path) => path !== '' && !path.split('/').some((segment) => segment.startsWith('.')));
    vault = baseNotesFromFiles(paths.map((path) => ({ path, content: readFileSync(join(dir, path)) })));
    baseFiles = paths.filter((path) => path.endsWith('.base'));
  });
  afterAll(() => temp?.cleanup());

  const render = (name: string, view: string | null, contextPath?: string) => {
    const basePath = `Templates/Bases/${name}.base`;
    const context = contextPath === undefined ? undefined : vault.notes.find((note) => note.path === contextPath);
    if (contextPath !== undefined && context === undefined) throw new Error(`no ${contextPath}`);
    return renderBaseView({ basePath, base: readFileSync(join(dir, basePath), 'utf8'), view, vault, context, now: NOW, limit: 200 });
  };
  const table = (page: ReturnType<typeof render>) => page.rows.map((row) => [row.path, ...row.cells]);

  it('renders every view of all 30 bases without a problem', () => {
    expect(baseFiles).toHaveLength(30);
    let views = 0;
    for (const path of baseFiles) {
      const text = readFileSync(join(dir, path), 'utf8');
      for (const view of parseBaseFile(text, path).views) {
        const page = renderBaseView({ basePath: path, base: text, view: view.name, vault, now: NOW });
        expect({ path, view: view.name, problems: page.problems }).toEqual({ path, view: view.name, problems: [] });
        views++;
      }
    }
    expect(views).toBe(75);
  });

  it('Books: the two notes whose categories link to [[Books]], minus templates, sorted by name', () => {
    const books = render('Books', null);
    expect(books.columns.map((c) => c.label)).toEqual(['Name', 'Author', 'length', 'Year', 'rating', 'topics', 'last']);
    expect(table(books)).toEqual([
      ['References/Out of Control.md', 'Out of Control', '[[Kevin Kelly]]', '', '1992', '7', '[[Emergence]]', '2023-09-12'],
      ['References/The Machine Stops.md', 'The Machine Stops', '[[E. M. Forster]]', '', '1909', '7', '[[Humanism]]', '2023-09-12'],
    ]);
    // Opened directly, `this` is Books.base: no book lists it as author.
    expect(render('Books', 'Author').total).toBe(0);
    // Embedded in Kevin Kelly's note (`![[Books.base#Author]]`), `this` is that note.
    expect(table(render('Books', 'Author', 'References/Kevin Kelly.md'))).toEqual([
      ['References/Out of Control.md', 'Out of Control', '1992', '[[Futurism]], [[Nonfiction]]'],
    ]);
  });

  it('Related: formulas that use formulas defined later, with this as the note that embeds it', () => {
    const related = render('Related', null, 'References/Out of Control.md');
    expect(related.columns).toEqual([
      { property: 'file.name', label: 'Name' },
      { property: 'formula.Related', label: 'Links' },
    ]);
    // The meeting links to this note and shares [[Emergence]] (LinksOverlap 1); the others are
    // what this note links to, by backlink count: Books and Kevin Kelly (3 each, then by
    // path), the cover (1).
    expect(table(related)).toEqual([
      ['Notes/2023-09-12 Meeting with Steph.md', '2023-09-12 Meeting with Steph', '[[Emergence]]'],
      ['Categories/Books.md', 'Books', ''],
      ['References/Kevin Kelly.md', 'Kevin Kelly', ''],
      ['Attachments/out-of-control.jpg', 'out-of-control.jpg', ''],
    ]);
  });

  it('Ratings: the legacy column: sort key, DESC by last, and a date window from now()', () => {
    const ratings = render('Ratings', null);
    expect(ratings.total).toBe(11);
    // `last` of the Zelda note is the link [[2022-04]], not a date: text ranks after dates, so DESC puts it first.
    expect(table(ratings).map((row) => [row[1], row[3]])).toEqual([
      ['The Legend of Zelda Breath of the Wild', '[[2022-04]]'],
      ['Blade Runner', '2023-09-14'],
      ['Brown butter nectarine tart', '2023-09-12'],
      ['Futurama', '2023-09-12'],
      ['Out of Control', '2023-09-12'],
      ['The Machine Stops', '2023-09-12'],
      ['Well Made 145 Kevin Kelly', '2023-09-12'],
      ['Catan', '2023-09-01'],
      ['Bass on Top', ''],
      ['Fushimi Inari', ''],
      ['Kyoto', ''],
    ]);
    expect(table(render('Ratings', 'Recent'))[0]).toEqual(['References/Blade Runner.md', 'Blade Runner', '7', '2023-09-14', '[[Movies]]']);
    expect(render('Ratings', 'Recent').total).toBe(7);
  });

  it('Everything: every file (notes, attachments, bases), images, and a formula filter', () => {
    const all = render('Everything', null);
    expect(all.total).toBe(135);
    expect(all.columns.map((c) => c.property)).toEqual(['file.name', 'file.mtime', 'file.path', 'file.ext']);
    expect(table(all).slice(0, 2)).toEqual([
      ['Attachments/out-of-control.jpg', 'out-of-control.jpg', '', 'Attachments/out-of-control.jpg', 'jpg'],
      ['Categories/Albums.md', 'Albums', '', 'Categories/Albums.md', 'md'],
    ]);
    expect(table(render('Everything', 'Images'))).toEqual([
      ['LICENSE', 'LICENSE'],
      ['Attachments/out-of-control.jpg', 'out-of-control.jpg'],
    ]);
    expect(render('Everything', 'Images in posts').total).toBe(0);
  });

  it('Daily: what a note touches by name, date or link, minus daily notes and the note itself', () => {
    // Embedded in a daily note, `file.name` is "2023-09-12.md" (Functions.md: the name with
    // its extension), so no other name, date or link contains it in this vault.
    expect(render('Daily', null, 'Daily/2023-09-12.md').total).toBe(0);
    const daily = render('Daily', null, 'References/Kevin Kelly.md');
    expect(daily.columns.map((c) => c.label)).toEqual(['Entry', 'Created', 'Categories', 'Tags']);
    expect(table(daily)).toEqual([
      ['Clippings/68 Bits of Unsolicited Advice.md', '68 Bits of Unsolicited Advice', '2023-09-12', '[[Clippings]]', ''],
      ['References/Out of Control.md', 'Out of Control', '2023-09-12', '[[Books]]', ''],
      ['References/Well Made 145 Kevin Kelly.md', 'Well Made 145 Kevin Kelly', '', '[[Podcast episodes]]', ''],
    ]);
  });
});
