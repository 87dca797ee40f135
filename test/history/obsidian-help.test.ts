// The history tools on a real vault: obsidian-help (2,613 commits, 36 languages, renames,
// merges). Skips when the shared corpora are absent.
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { ToolContext } from '../../src/instance/tool.ts';
import { noteHistory } from '../../src/instance/tools/note-history.ts';
import { searchHistory } from '../../src/instance/tools/search-history.ts';
import { LocalRepoHost } from '../../src/repo-host/local/local-repo-host.ts';
import { cloneCorpus, corpusBundle, tempDir } from '../support/git-fixture.ts';
import { forgetSearches } from '../../src/repo-host/git/history/search-commits.ts';
import { childGits, gitOnlyContext } from './history-fixture.ts';

const bundle = corpusBundle('obsidian-help');

/** Long-lived notes in several languages, each moved at least once but the Chinese one. */
const notes = [
  'en/Editing and formatting/Properties.md',
  'de/Obsidian/Danksagungen.md',
  'ja/Obsidian/クレジット.md',
  'ru/Obsidian/Авторы.md',
  'zh/由此开始.md',
];

describe.skipIf(bundle === null)('history on obsidian-help', () => {
  let temp: ReturnType<typeof tempDir>;
  let repoDir: string;
  let ctx: ToolContext;
  const history = async (args: Record<string, unknown>) =>
    noteHistory.output.parse(await noteHistory.handler(noteHistory.input(z.string()).parse({ repo: 'help', ...args }), ctx));
  const search = async (args: Record<string, unknown>) =>
    searchHistory.output.parse(await searchHistory.handler(searchHistory.input(z.string()).parse(args), ctx));
  const git = (args: string[]) =>
    execFileSync('git', ['-c', 'core.quotepath=false', ...args], { cwd: repoDir, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });

  let host: LocalRepoHost | undefined;
  beforeAll(() => {
    temp = tempDir('mv-history-corpus-');
    mkdirSync(join(temp.path, 'repos'));
    repoDir = join(temp.path, 'repos', 'help');
    cloneCorpus('obsidian-help', repoDir);
    host = new LocalRepoHost({ reposDir: join(temp.path, 'repos') });
    ctx = gitOnlyContext(host, ['help']);
  });

  // Closed first: its background work (the commit-graph write, the kept cat-file) ends before the folder goes.
  afterAll(async () => {
    await host?.close();
    temp?.cleanup();
  });

  it.each(notes)('lists every commit git log --follow gives for %s, and its versions', async (path) => {
    const listed: { commit: string; path: string }[] = [];
    for (let offset = 0; ; offset += 100) {
      const page = await history({ path, limit: 100, offset });
      listed.push(...page.commits);
      if (!page.hasMore) break;
    }
    const followed = git(['log', '--follow', '--format=%H', '--', path]).split('\n').filter(Boolean);
    const ids = new Set(listed.map((c) => c.commit));
    expect(followed.filter((id) => !ids.has(id))).toEqual([]);
    expect(listed[0]?.path).toBe(path);

    const newest = await history({ path, at: listed[0]?.commit });
    expect(newest.version?.content).toBe(readFileSync(join(repoDir, path), 'utf8').slice(0, newest.version?.content.length));
    const moved = listed.find((c) => c.path !== path);
    if (moved) {
      const old = await history({ path, at: moved.commit, to_line: 3 });
      expect(old.version?.path).toBe(moved.path);
      expect(old.version?.content).toBe(
        git(['show', `${moved.commit}:${moved.path}`])
          .split('\n')
          .slice(0, 3)
          .join('\n') + '\n',
      );
    }
  });

  it.each(['en/Obsidian/Credits.md', 'da/Obsidian/Krediteringer.md', 'pt-br/Plugin/Modelos.md'])(
    'pages through %s seven commits at a time: each once, in the order of the whole list, git log --follow order kept',
    async (path) => {
      const pages = async (limit: number) => {
        const listed: string[] = [];
        for (let offset = 0; ; offset += limit) {
          const page = await history({ path, limit, offset });
          listed.push(...page.commits.map((c) => c.commit));
          if (!page.hasMore) return listed;
        }
      };
      const whole = await pages(100);
      expect(await pages(7)).toEqual(whole);
      expect(new Set(whole).size).toBe(whole.length);
      const followed = git(['log', '--follow', '--format=%H', '--', path]).split('\n').filter(Boolean);
      expect(whole.filter((id) => followed.includes(id))).toEqual(followed.filter((id) => whole.includes(id)));
    },
  );

  it.each(notes)('blames every line of %s once, with the text as it is now', async (path) => {
    const answer = await history({ path, blame: true });
    const runs = answer.blame ?? [];
    const lines = readFileSync(join(repoDir, path), 'utf8').replace(/\n$/, '').split('\n');
    let next = 1;
    for (const run of runs) {
      expect(run.from_line).toBe(next);
      expect(run.content).toBe(lines.slice(run.from_line - 1, run.to_line).join('\n'));
      expect(run.commit).toMatch(/^[0-9a-f]{40}$/);
      next = run.to_line + 1;
    }
    if (answer.note === undefined) expect(next).toBe(lines.length + 1);
  });

  it('diffs a note since a day', async () => {
    const path = notes[0] ?? '';
    const answer = await history({ path, since: '2024-01-01', diff: true });
    expect(answer.diff?.base).toMatch(/^[0-9a-f]{40}$/);
    expect(answer.diff?.content.startsWith(`--- a/${answer.diff?.base_path}\n+++ b/${path}\n@@ `)).toBe(true);
  });

  it.each(['Obsidian Sync', 'クレジット', 'sum(a.b)'])(
    'finds the commits git log -S finds for %s, with the files that gained or lost it',
    async (text) => {
      const answer = await search({ repo: 'help', text, limit: 50 });
      const expected = git([
        'log',
        `-S${text}`,
        '--regexp-ignore-case',
        '-n',
        '51',
        '--format=%H',
        'HEAD',
        '--',
        ':(exclude,glob)**/.*',
        ':(exclude,glob)**/.*/**',
      ])
        .split('\n')
        .filter(Boolean);
      // The page may stop early to fit one answer (40,000 characters); it then says there is more.
      expect(answer.commits.map((c) => c.commit)).toEqual(expected.slice(0, answer.commits.length));
      expect(answer.hasMore).toBe(expected.length > answer.commits.length);
      expect(answer.commits.length === Math.min(50, expected.length) || answer.hasMore).toBe(true);
      for (const commit of answer.commits) {
        expect(commit.files.length).toBeGreaterThan(0);
        expect(commit.files_total).toBeGreaterThanOrEqual(commit.files.length);
        for (const file of commit.files) expect(file.text === 'added' || file.text === 'removed').toBe(true);
      }
    },
  );

  it('pages through every commit git log -S finds, once each, and leaves no git running once the search is forgotten', async () => {
    const expected = git([
      'log',
      '-SObsidian Sync',
      '--regexp-ignore-case',
      '--format=%H',
      'HEAD',
      '--',
      ':(exclude,glob)**/.*',
      ':(exclude,glob)**/.*/**',
    ])
      .split('\n')
      .filter(Boolean);
    forgetSearches();
    const listed: string[] = [];
    for (let offset = 0; ;) {
      const page = await search({ repo: 'help', text: 'Obsidian Sync', limit: 50, offset });
      listed.push(...page.commits.map((c) => c.commit));
      offset += page.commits.length;
      if (!page.hasMore) break;
    }
    expect(listed).toEqual(expected);

    // A first page leaves its walk reading ahead; forgetting the search stops it.
    forgetSearches();
    await search({ repo: 'help', text: 'Obsidian Sync', limit: 1 });
    expect(childGits().length).toBeGreaterThan(0);
    forgetSearches();
    await expect.poll(() => childGits(), { timeout: 5_000 }).toEqual([]);
  });

  it('searches by author and time across the corpus', async () => {
    const answer = await search({ author: 'kepano', since: '2024-01-01', until: '2024-06-30', limit: 50 });
    const expected = git([
      'log',
      '--fixed-strings',
      '--regexp-ignore-case',
      '--author=kepano',
      '--since=2024-01-01 00:00',
      '--until=2024-06-30 23:59:59',
      '--format=%H',
      '-n',
      '50',
      'HEAD',
      '--',
      ':(exclude,glob)**/.*',
      ':(exclude,glob)**/.*/**',
    ]);
    expect(answer.commits.map((c) => c.commit).slice(0, 5)).toEqual(expected.split('\n').filter(Boolean).slice(0, 5));
    expect(answer.commits.every((c) => c.files.every((f) => f.path.startsWith('help/') && f.repo === 'help'))).toBe(true);
  });
});
