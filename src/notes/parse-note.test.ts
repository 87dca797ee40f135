import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cloneCorpus, corpusBundle, git, tempDir } from '../../test/support/git-fixture.ts';
import { LinkResolver } from './link-resolver.ts';
import { decodeNoteText } from './note-text.ts';
import { fileTitle, parseNote } from './parse-note.ts';
import { splitLines } from './lines.ts';

const fields = { typeField: 'type', summaryField: 'summary' };

describe('parseNote', () => {
  it('reads a whole note', () => {
    const text = [
      '---',
      'title: Pick a date',
      'type: decision',
      'summary: We launch on 2026-03-01.',
      'decided_on: 2026-01-05',
      'tags: [launch]',
      '---',
      '# Pick a date',
      '',
      'See [[Plan#Timeline|the plan]] and [budget](../budget%20v2.md). #q1',
      '',
      '| Fact | Grade |',
      '|---|---|',
      '| 34 stores | 2 vermutet |',
      '',
      '```',
      '[[not a link]] (1 open)',
      '```',
    ].join('\n');
    const note = parseNote('active/launch/decisions/pick-a-date.md', text, fields);
    expect(note.title).toBe('Pick a date');
    expect(note.type).toBe('decision');
    expect(note.summary).toBe('We launch on 2026-03-01.');
    expect(note.frontmatter.data?.decided_on).toBe('2026-01-05');
    expect(note.headings).toEqual([{ line: 8, level: 1, text: 'Pick a date' }]);
    expect(note.links.map((l) => [l.kind, l.target, l.line])).toEqual([
      ['wiki', 'Plan', 10],
      ['markdown', '../budget v2.md', 10],
    ]);
    expect(note.tags).toEqual(['launch', 'q1']);
    expect(note.grades).toEqual([{ line: 14, grade: '2 vermutet', shorthand: 'assumption', statement: '| 34 stores | 2 vermutet |' }]);
    expect(note.totalLines).toBe(18);
  });

  it('falls back to the file name and reads on past a broken frontmatter', () => {
    const note = parseNote('notes/Weekly Sync.md', '---\ntitle: [broken\n---\n# Heading\n[[Link]]\n', fields);
    expect(note.title).toBe('Weekly Sync');
    expect(note.type).toBeNull();
    expect(note.frontmatter.error).toBeTruthy();
    expect(note.headings).toHaveLength(1);
    expect(note.links).toHaveLength(1);
  });

  it('uses other type and summary fields and ignores non-text values', () => {
    const note = parseNote('a.MD', '---\ntitle: 2026\nkind: task\nabout: [x]\n---\n', { typeField: 'kind', summaryField: 'about' });
    expect(note).toMatchObject({ title: '2026', type: 'task', summary: null });
    expect(fileTitle('x/y/Über.md')).toBe('Über');
  });

  it('counts lines like splitLines', () => {
    for (const text of ['', '\n', 'a', 'a\n', 'a\r\nb\r\n', 'a\n\n']) {
      expect(parseNote('x.md', text, fields).totalLines).toBe(splitLines(text).length);
    }
  });
});

describe.skipIf(corpusBundle('obsidian-help') === null)('parseNote over the obsidian-help corpus', () => {
  const dir = tempDir('mv-notes-corpus-');
  afterAll(() => dir.cleanup());

  it('parses every note without throwing, with exact link offsets, and resolves its links', () => {
    const work = join(dir.path, 'obsidian-help');
    cloneCorpus('obsidian-help', work);
    const files = git(work, ['-c', 'core.quotepath=false', 'ls-files', '-z']).split('\0').filter(Boolean);
    const notes = files.filter((f) => f.endsWith('.md'));
    expect(notes.length).toBeGreaterThan(6000);
    const resolver = new LinkResolver(files);
    let links = 0;
    let resolved = 0;
    let withError = 0;
    for (const path of notes) {
      const text = decodeNoteText(readFileSync(join(work, path)));
      if (text === null) continue;
      const note = parseNote(path, text, fields);
      if (note.frontmatter.error) withError++;
      expect(note.totalLines).toBe(splitLines(text).length);
      for (const link of note.links) {
        expect(text.slice(link.start, link.end)).toBe(link.raw);
        // The corpus holds no attachments: count only links to notes.
        if (/\.(?!md$)[a-z0-9]{2,5}$/i.test(link.target)) continue;
        links++;
        if (resolver.resolve(link, path) !== null) resolved++;
      }
    }
    expect(links).toBeGreaterThan(40_000);
    // A maintained vault: nearly every link to a note finds it (the rest name missing translations).
    expect(resolved / links).toBeGreaterThan(0.97);
    expect(withError).toBeLessThan(notes.length / 100);
  });
});
