// Every note_history answer fits in 40,000 characters of JSON (escaping counted) and says where
// to go on: blame runs split by line, diffs and versions cut, long pages of commits cut.
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { noteHistory } from '../../src/instance/tools/note-history.ts';
import type { ToolContext } from '../../src/instance/tool.ts';
import { splitLines } from '../../src/notes/lines.ts';
import { commit, makeRepo } from '../support/git-fixture.ts';
import { callTool, openHistoryFixture, type HistoryFixture } from './history-fixture.ts';

process.env.TZ = 'Europe/Berlin';

const LIMIT = 40_000;

/** 20,000 lines of 50 characters: one commit, so blame is one run of a million characters. */
const huge = Array.from({ length: 20_000 }, (_, i) => `${String(i + 1).padStart(8, '0')} ${'x'.repeat(41)}`).join('\n') + '\n';
/** 3,000 lines that JSON escapes to about twice their length. */
const quoted = (edit: boolean) =>
  Array.from({ length: 3_000 }, (_, i) => `${i + 1} "quoted" \\back\\slash\\ "${edit && i % 2 === 0 ? 'changed' : 'same'}" \\"\\"`).join(
    '\n',
  ) + '\n';
/** One line of 60,000 quotes: longer than one answer even alone. */
const oneLongLine = `${'"'.repeat(60_000)}\nshort\n`;

let fixture: HistoryFixture;
let ctx: ToolContext;
let commits: { create: string; edit: string };

beforeAll(async () => {
  fixture = await openHistoryFixture((reposDir) => {
    const dir = join(reposDir, 'big');
    const [create = '', edit = ''] = makeRepo(dir, [
      {
        message: 'Create',
        date: '2026-01-10T10:00:00+01:00',
        files: { 'notes/huge.md': huge, 'notes/quoted.md': quoted(false), 'notes/long-line.md': oneLongLine },
      },
      { message: 'Edit the quotes', date: '2026-01-12T10:00:00+01:00', files: { 'notes/quoted.md': quoted(true) } },
    ]);
    for (let i = 0; i < 40; i += 1) {
      commit(dir, {
        message: `Subject ${i} ${'"\\'.repeat(600)}`,
        date: `2026-02-${String(1 + (i % 27)).padStart(2, '0')}T10:00:00+01:00`,
        files: { 'notes/busy.md': `${i}\n` },
      });
    }
    commits = { create, edit };
  });
  ctx = await fixture.context();
});

afterAll(async () => {
  await fixture?.close();
});

/** Where the answer's note says to go on: the from_line it names. */
function nextLine(note: string | undefined): number {
  const match = /from_line (\d+)/.exec(note ?? '');
  if (!match) throw new Error(`no from_line in ${JSON.stringify(note)}`);
  return Number(match[1]);
}

describe('note_history: blame within one answer', () => {
  it('splits one long run by line and reads on from the line it names, to the end', async () => {
    const lines = splitLines(huge);
    let from = 1;
    let pages = 0;
    const seen: string[] = [];
    for (;;) {
      const answer = await callTool(noteHistory, ctx, { repo: 'big', path: 'notes/huge.md', blame: true, from_line: from });
      expect(answer.jsonLength).toBeLessThanOrEqual(LIMIT);
      const runs = answer.blame ?? [];
      expect(runs[0]?.from_line).toBe(from);
      for (const run of runs) {
        expect(run.commit).toBe(commits.create);
        seen.push(...run.content.split('\n'));
      }
      pages += 1;
      const last = runs[runs.length - 1]?.to_line ?? 0;
      if (last === lines.length) {
        expect(answer.hasMore).toBe(false);
        break;
      }
      expect(answer.hasMore).toBe(true);
      from = nextLine(answer.note);
      expect(from).toBe(last + 1);
      if (pages > 40) break;
    }
    expect(seen).toEqual(lines);
    expect(pages).toBeGreaterThan(20);
  });

  it('counts JSON escaping: quotes and backslashes', async () => {
    const answer = await callTool(noteHistory, ctx, { repo: 'big', path: 'notes/quoted.md', blame: true });
    expect(answer.jsonLength).toBeLessThanOrEqual(LIMIT);
    expect(answer.jsonLength).toBeGreaterThan(LIMIT * 0.9);
    const runs = answer.blame ?? [];
    expect(runs.map((run) => run.commit).slice(0, 2)).toEqual([commits.edit, commits.create]);
    expect(nextLine(answer.note)).toBe((runs[runs.length - 1]?.to_line ?? 0) + 1);
  });

  it('cuts a single line longer than one answer inside, and names the next line', async () => {
    const answer = await callTool(noteHistory, ctx, { repo: 'big', path: 'notes/long-line.md', blame: true });
    expect(answer.jsonLength).toBeLessThanOrEqual(LIMIT);
    expect(answer.blame?.map((run) => [run.from_line, run.to_line])).toEqual([[1, 1]]);
    expect(answer.blame?.[0]?.content).toMatch(/^"{10000,}$/);
    expect(nextLine(answer.note)).toBe(2);
    const rest = await callTool(noteHistory, ctx, { repo: 'big', path: 'notes/long-line.md', blame: true, from_line: 2 });
    expect(rest.blame?.map((run) => [run.from_line, run.to_line, run.content])).toEqual([[2, 2, 'short']]);
    expect(rest.hasMore).toBe(false);
  });
});

describe('note_history: diff and at within one answer', () => {
  it('cuts a diff by its escaped length and says where to go on', async () => {
    const answer = await callTool(noteHistory, ctx, { repo: 'big', path: 'notes/quoted.md', since: '2026-01-11', diff: true });
    expect(answer.jsonLength).toBeLessThanOrEqual(LIMIT);
    expect(answer.diff?.truncated).toBe(true);
    expect(answer.diff?.to_line).toBeLessThan(answer.diff?.total_lines ?? 0);
    const next = await callTool(noteHistory, ctx, {
      repo: 'big',
      path: 'notes/quoted.md',
      since: '2026-01-11',
      diff: true,
      from_line: (answer.diff?.to_line ?? 0) + 1,
    });
    expect(next.jsonLength).toBeLessThanOrEqual(LIMIT);
    expect(next.diff?.from_line).toBe((answer.diff?.to_line ?? 0) + 1);
  });

  it('cuts a version by its escaped length', async () => {
    const answer = await callTool(noteHistory, ctx, { repo: 'big', path: 'notes/quoted.md', at: commits.edit });
    expect(answer.jsonLength).toBeLessThanOrEqual(LIMIT);
    expect(answer.version?.truncated).toBe(true);
    expect(answer.version?.content).toBe(quoted(true).split('\n').slice(0, answer.version?.to_line).join('\n') + '\n');
  });

  it('cuts a single line of a version inside', async () => {
    const answer = await callTool(noteHistory, ctx, { repo: 'big', path: 'notes/long-line.md', at: commits.create });
    expect(answer.jsonLength).toBeLessThanOrEqual(LIMIT);
    expect(answer.version).toMatchObject({ from_line: 1, to_line: 1, truncated: true });
  });
});

describe('note_history: a page of commits within one answer', () => {
  it('cuts a page of long subjects and names the next offset', async () => {
    const answer = await callTool(noteHistory, ctx, { repo: 'big', path: 'notes/busy.md', limit: 40 });
    expect(answer.jsonLength).toBeLessThanOrEqual(LIMIT);
    expect(answer.commits.length).toBeLessThan(40);
    expect(answer.hasMore).toBe(true);
    expect(answer.note).toContain(`offset ${answer.commits.length}`);
    const rest = await callTool(noteHistory, ctx, { repo: 'big', path: 'notes/busy.md', limit: 40, offset: answer.commits.length });
    expect(rest.jsonLength).toBeLessThanOrEqual(LIMIT);
    expect(rest.commits[0]?.subject).toMatch(new RegExp(`^Subject ${39 - answer.commits.length} `));
  });

  it('keeps a page and a diff together within one answer', async () => {
    const answer = await callTool(noteHistory, ctx, { repo: 'big', path: 'notes/busy.md', limit: 40, since: '2026-01-01', diff: true });
    expect(answer.jsonLength).toBeLessThanOrEqual(LIMIT);
    expect(answer.diff?.content).toContain('+39');
  });
});
