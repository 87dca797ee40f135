// The read tools on the real obsidian-help corpus (6,289 files, 36 languages): the full
// build indexes every note, and each tool answers on Unicode paths, wiki-links and embeds
// (the corpus has no attachments: its embeds are notes and sections).
// Skips when the shared corpora are absent.
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cloneCorpus, corpusBundle, tempDir } from '../../../test/support/git-fixture.ts';
import { openToolContext, type TestToolContext } from '../../../test/support/tool-context.ts';
import { repoField } from '../../tools/tool.ts';
import type { Tool } from '../tool.ts';
import { findReferences } from './find-references.ts';
import { listNotes } from './list-notes.ts';
import { readNote } from './read-note.ts';
import { searchNotes } from './search-notes.ts';
import { tree } from './tree.ts';

const repo = 'obsidian-help';

describe.skipIf(corpusBundle('obsidian-help') === null)('read tools on obsidian-help', () => {
  const dir = tempDir('mv-corpus-');
  let ctx: TestToolContext;

  async function call<T extends Tool>(tool: T, input: Record<string, unknown>) {
    const answer = await tool.handler(tool.input(repoField([])).parse({ repo, ...input }), ctx);
    return tool.output.parse(answer) as Record<string, unknown> & Awaited<ReturnType<T['handler']>>;
  }

  beforeAll(async () => {
    cloneCorpus('obsidian-help', join(dir.path, repo));
    // What the searches find is under test here, not their budget: a loaded machine gets a minute.
    ctx = await openToolContext(dir.path, { matchBudgetMs: 60_000 });
  }, 600_000);
  afterAll(async () => {
    await ctx?.close();
    dir.cleanup();
  });

  it('indexes every note that is not hidden', async () => {
    const tracked = execFileSync('git', ['-c', 'core.quotepath=false', 'ls-files', '-z'], {
      cwd: join(dir.path, repo),
      encoding: 'utf8',
      maxBuffer: 64 << 20,
    })
      .split('\0')
      .filter((path) => path !== '');
    expect(tracked).toHaveLength(6289);
    const notes = tracked.filter((path) => path.endsWith('.md') && !path.split('/').some((segment) => segment.startsWith('.')));
    expect(await ctx.index.notePaths(repo)).toHaveLength(notes.length);
  });

  it('reads notes in Chinese and German with their headings', async () => {
    const zh = await call(readNote, { path: 'zh/链接笔记与文件/内部链接.md', heading: '链接到文件' });
    expect(zh).toMatchObject({ title: '内部链接', from_line: 48, to_line: 64 });
    expect(zh.content.startsWith('## 链接到文件\n')).toBe(true);
    const de = await call(readNote, { path: 'de/Notizen und Dateien verknüpfen/Interne Links' });
    expect(de.path).toBe('de/Notizen und Dateien verknüpfen/Interne Links.md');
    expect(de.headings?.length).toBeGreaterThan(3);
  });

  it('finds the wiki-links to a Chinese note and what a German note embeds', async () => {
    const links = await call(findReferences, { path: 'zh/链接笔记与文件/内部链接' });
    expect(links.references.length).toBeGreaterThan(0);
    expect(links.references.every((r) => r.path.startsWith('zh/') || !r.path.startsWith('en/'))).toBe(true);
    const source = 'de/Notizen und Dateien verknüpfen/Interne Links.md';
    const embed = (await ctx.index.linksFrom(repo, source)).find((l) => l.kind === 'embed' && l.resolved !== null);
    expect(embed).toBeDefined();
    let found = false;
    for (let offset = 0; !found; offset += 70) {
      const page = await call(findReferences, { path: embed!.resolved!, limit: 70, offset });
      found = page.references.some((r) => r.path === source && r.line === embed!.line);
      if (!page.hasMore) break;
    }
    expect(found).toBe(true);
  });

  it('searches Japanese text and pages a common word', async () => {
    const ja = await call(searchNotes, { query: 'プラグイン', path: 'ja' });
    expect(ja.matches.length).toBeGreaterThan(0);
    expect(ja.matches.every((m) => m.path.startsWith('ja/'))).toBe(true);
    const common = await call(searchNotes, { query: 'obsidian' });
    expect(common.matches).toHaveLength(20);
    expect(common.hasMore).toBe(true);
  });

  it('lists a German folder and maps the languages', async () => {
    const listed = await call(listNotes, { folder: 'de/Notizen und Dateien verknüpfen', limit: 200 });
    expect(listed.notes.map((n) => n.path)).toContain('de/Notizen und Dateien verknüpfen/Interne Links.md');
    const map = await call(tree, { depth: 1, limit: 200 });
    expect(map.entries.find((e) => e.path === 'en/')?.notes).toBeGreaterThan(100);
    expect(JSON.stringify(map).length).toBeLessThanOrEqual(40_000);
  });
});
