// since and until before March 1973 (fewer than 9 digits of epoch seconds) and before 1970:
// the history tools give the same answers as for any other day.
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { noteHistory } from '../../src/instance/tools/note-history.ts';
import { searchHistory } from '../../src/instance/tools/search-history.ts';
import type { ToolContext } from '../../src/instance/tool.ts';
import { makeRepo } from '../support/git-fixture.ts';
import { callTool, openHistoryFixture, type HistoryFixture } from './history-fixture.ts';

process.env.TZ = 'Europe/Berlin';

let fixture: HistoryFixture;
let ctx: ToolContext;
let old: { day2: string; y1971: string; y1974: string; recent: string };

beforeAll(async () => {
  fixture = await openHistoryFixture((reposDir) => {
    const [day2 = '', y1971 = '', y1974 = '', recent = ''] = makeRepo(join(reposDir, 'old'), [
      { message: 'Second day of the epoch', date: '1970-01-02T00:00:00+00:00', files: { 'n.md': 'a\n' } },
      { message: 'In 1971', date: '1971-06-01T00:00:00+00:00', files: { 'n.md': 'a\nb\n' } },
      { message: 'In 1974', date: '1974-01-01T00:00:00+00:00', files: { 'n.md': 'a\nb\nc\n' } },
      { message: 'Recently', date: '2026-01-10T10:00:00+01:00', files: { 'n.md': 'a\nb\nc\nd\n' } },
    ]);
    old = { day2, y1971, y1974, recent };
  });
  ctx = await fixture.context();
});

afterAll(async () => {
  await fixture?.close();
});

describe('note_history: early days', () => {
  it.each([
    ['1900-01-01', ['recent', 'y1974', 'y1971', 'day2']],
    ['1969-12-31', ['recent', 'y1974', 'y1971', 'day2']],
    ['1970-01-01', ['recent', 'y1974', 'y1971', 'day2']],
    ['1970-01-02', ['recent', 'y1974', 'y1971', 'day2']],
    ['1970-01-03', ['recent', 'y1974', 'y1971']],
    ['1971-01-01', ['recent', 'y1974', 'y1971']],
    ['1973-06-01', ['recent', 'y1974']],
    ['2026-01-10', ['recent']],
    ['2026-01-11', []],
  ] as const)('since %s lists the commits from that day on', async (since, names) => {
    const answer = await callTool(noteHistory, ctx, { repo: 'old', path: 'n.md', since });
    expect(answer.commits.map((c) => c.commit)).toEqual(names.map((name) => old[name]));
  });

  it('diffs since 1970 from nothing, and since 1971 from the commit of 1970', async () => {
    const fromNothing = await callTool(noteHistory, ctx, { repo: 'old', path: 'n.md', since: '1970-01-01', diff: true });
    expect(fromNothing.diff?.content).toBe('--- /dev/null\n+++ b/n.md\n@@ -0,0 +1,4 @@\n+a\n+b\n+c\n+d\n');
    expect(fromNothing.note).toContain('no commit before');
    const before1900 = await callTool(noteHistory, ctx, { repo: 'old', path: 'n.md', since: '1900-01-01', diff: true });
    expect(before1900.diff?.content).toBe(fromNothing.diff?.content);
    const from1970 = await callTool(noteHistory, ctx, { repo: 'old', path: 'n.md', since: '1971-01-01', diff: true });
    expect(from1970.diff?.base).toBe(old.day2);
    expect(from1970.diff?.content).toContain('@@ -1 +1,4 @@\n a\n+b\n+c\n+d\n');
    const from1974 = await callTool(noteHistory, ctx, { repo: 'old', path: 'n.md', since: '1974-01-02', diff: true });
    expect(from1974.diff?.base).toBe(old.y1974);
  });
});

describe('search_history: early moments', () => {
  const found = async (args: Record<string, unknown>) =>
    (await callTool(searchHistory, ctx, { repo: 'old', ...args })).commits.map((c) => c.commit);

  it.each([
    [{ until: '1900-01-01' }, []],
    [{ until: '1969-12-31' }, []],
    [{ until: '1970-01-01' }, []],
    [{ until: '1970-01-02' }, ['day2']],
    [{ until: '1971-01-01' }, ['day2']],
    [{ until: '1972-12-31' }, ['y1971', 'day2']],
    [{ since: '1900-01-01' }, ['recent', 'y1974', 'y1971', 'day2']],
    [{ since: '1970-01-01' }, ['recent', 'y1974', 'y1971', 'day2']],
    [{ since: '1970-01-02T01:00' }, ['recent', 'y1974', 'y1971', 'day2']],
    [{ since: '1970-01-02T01:01' }, ['recent', 'y1974', 'y1971']],
    [{ since: '1971-01-01' }, ['recent', 'y1974', 'y1971']],
    [{ since: '1900-01-01', until: '1969-12-31' }, []],
    [{ since: '1971-01-01', until: '1973-12-31' }, ['y1971']],
    [{ since: '2026-01-10' }, ['recent']],
  ] as const)('%o', async (args, names) => {
    expect(await found(args)).toEqual(names.map((name) => old[name]));
  });
});
