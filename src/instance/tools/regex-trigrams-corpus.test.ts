// Regex search narrowed by trigrams on the real obsidian-help corpus (6,289 files, 36
// languages): for regexes of every kind (class-heavy ones expanded into trigram sets,
// anchors, (?i), alternations, optional groups, Unicode letters, \b), search_notes finds
// exactly the lines, in the same order, that matching every note finds. RE2 has no
// lookarounds (they do not parse), so none are listed. Skips when the shared corpora are absent.
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cloneCorpus, corpusBundle, tempDir } from '../../../test/support/git-fixture.ts';
import { openToolContext, type TestToolContext } from '../../../test/support/tool-context.ts';
import type { NoteText } from '../../note-index/note-index.ts';
import { repoField } from '../../tools/tool.ts';
import { isCaseSensitive } from './line-matcher.ts';
import { lineWindow } from './line-window.ts';
import { matchNotes } from './match-notes.ts';
import { searchNotes } from './search-notes.ts';

const repo = 'obsidian-help';

/** Rare, common and absent; classes, anchors, flags, alternations, scripts. */
const regexes = [
  '^\\d{4}-\\d{2}-\\d{2}$',
  '\\d{4}-\\d{2}-\\d{2}',
  '\\d{4}-\\d{2}-\\d{2}T\\d{2}',
  "localized: '\\d{4}-\\d\\d-\\d\\d'$",
  '[A-Z]{3}-\\d{3}',
  '(?i)v\\d+\\.\\d+\\.\\d+-beta',
  'v\\d+\\.\\d+\\.\\d+',
  '\\d{2}:\\d{2}',
  '#[0-9a-fA-F]{6}\\b',
  'Ctrl\\+[A-Z]',
  '(?i)ctrl\\+[a-z]\\b',
  '(?i)\\bMOC\\b',
  '(?i)\\b(toegangstoken|excalidraw|zettelkästen)\\b',
  'toegangstoken|excalidraw|kanban',
  '\\bsync(ed|ing)?\\b',
  'colou?r',
  'übersetz\\w+',
  '(?i)ÜBERSETZ',
  'заметк[аиу]',
  '(?i)ЗАМЕТК[А-Я]',
  '[αβγ]\\w+',
  '笔记[与和]',
  '^#{1,3} [A-Z]',
  '^\\s*- \\[[ x]\\]',
  '\\[\\[[^\\]|]+\\|[^\\]]+\\]\\]',
  '^> \\[!\\w+\\]',
  '```\\w+$',
  '\\bplugins?\\b',
  'https?://\\S+\\.pdf\\b',
  '[aeiou]{4}',
  '(?i)[bcd][aeiou]{2}[xyz]',
  'x{2,}',
  '\\b[A-Z][a-z]+[0-9]{3}\\b',
  'zzqx\\d+yy',
];

describe.skipIf(corpusBundle('obsidian-help') === null)('regex search on obsidian-help', () => {
  const dir = tempDir('mv-regex-corpus-');
  let ctx: TestToolContext;
  let notes: NoteText[];

  beforeAll(async () => {
    cloneCorpus('obsidian-help', join(dir.path, repo));
    // What the searches find is under test here, not their budget: a loaded machine gets a minute.
    ctx = await openToolContext(dir.path, { matchBudgetMs: 60_000 });
    notes = await ctx.index.scanNotes([{ repo, prefixes: [''] }], { needle: null, caseSensitive: false, after: null, limit: 100_000 });
  }, 600_000);
  afterAll(async () => {
    await ctx?.close();
    dir.cleanup();
  });

  /** The first `wanted` lines the regex matches, by matching every note without any trigram query, in path order. */
  function fullScan(pattern: string, wanted: number): string[] {
    const query = { regex: true, query: pattern, caseSensitive: isCaseSensitive(pattern, true) };
    const { matches } = matchNotes({ query, contents: notes.map((note) => note.content), wanted, deadline: Date.now() + 600_000 });
    return matches.map((match) => `${notes[match.note]!.path}:${match.line}:${lineWindow(match.text, match.start, match.length).text}`);
  }

  /** The lines search_notes finds, page after page, up to `wanted`. */
  async function searched(pattern: string, wanted: number): Promise<string[]> {
    const lines: string[] = [];
    for (let offset = 0; lines.length < wanted; offset += 100) {
      const input = searchNotes.input(repoField([])).parse({ repo, query: pattern, regex: true, limit: 100, offset });
      const answer = searchNotes.output.parse(await searchNotes.handler(input, ctx));
      lines.push(...answer.matches.map((match) => `${match.path}:${match.line}:${match.text}`));
      if (!answer.hasMore) break;
    }
    return lines.slice(0, wanted);
  }

  it('finds exactly the lines a full scan finds, in the same order', async () => {
    const counts: Record<string, number> = {};
    for (const pattern of regexes) {
      const expected = fullScan(pattern, 300);
      expect(await searched(pattern, 300), pattern).toEqual(expected);
      counts[pattern] = expected.length;
    }
    // Not vacuous: rare, common and absent regexes are all there.
    const found = Object.values(counts);
    expect(found.filter((count) => count === 0).length).toBeGreaterThanOrEqual(2);
    expect(found.filter((count) => count > 0 && count < 100).length).toBeGreaterThanOrEqual(8);
    expect(found.filter((count) => count >= 300).length).toBeGreaterThanOrEqual(4);
  }, 600_000);
});
