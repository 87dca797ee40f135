// One heavy call never holds the server (issue 9, item 2), beyond search: reading a 12 MB
// note and a base view with heavy formulas over many notes. While each runs, a small
// read_note from another client answers first; the heavy call answers correctly (the base
// with the rows it had at its time budget and a note on how to narrow the view).
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Client } from '@modelcontextprotocol/client';
import { join } from 'node:path';
import { makeRepo, tempDir } from '../support/git-fixture.ts';
import { connectHttp, serveRepos, type ServedRepos } from './demo-fixture.ts';
import { heavyBase } from '../support/heavy-base.ts';

/** A data dump of about `bytes` bytes: a heading every 2000 lines, plain rows between them. */
function bigNote(bytes: number): string {
  const parts = ['---\ntitle: Dump\n---\n'];
  let size = parts[0]!.length;
  for (let i = 0; size < bytes; i++) {
    const line =
      i % 2000 === 0 ? `## Block ${i / 2000}\n` : `row ${i}: value ${(i * 7919) % 100003} measured, unchanged since the last export\n`;
    parts.push(line);
    size += line.length;
  }
  return parts.join('');
}

const NOTES = 2000;

describe('heavy calls under load, over HTTP', () => {
  const dir = tempDir('mv-heavy-load-');
  let server: ServedRepos;
  let heavy: Client;
  let light: Client;

  beforeAll(async () => {
    makeRepo(join(dir.path, 'repos', 'notes'), [
      {
        message: 'A dump, many small notes and a heavy base',
        files: {
          'small.md': '# Small\n\nA short note.\n',
          'dump.md': bigNote(12_000_000),
          'Heavy.base': heavyBase,
          ...Object.fromEntries(Array.from({ length: NOTES }, (_, n) => [`items/item-${String(n).padStart(4, '0')}.md`, `# Item ${n}\n`])),
        },
      },
    ]);
    server = await serveRepos(join(dir.path, 'repos'), { matchBudgetMs: 2000 });
    heavy = await connectHttp(server.url, '2026-07-28');
    light = await connectHttp(server.url, '2026-07-28');
  }, 600_000);

  afterAll(async () => {
    await heavy?.close();
    await light?.close();
    await server?.close();
    dir.cleanup();
  });

  /** Runs `call` and, once it was sent, a small read_note from the other client: the order they answered in. */
  async function raceSmallRead<T>(call: () => Promise<T>): Promise<{ order: string[]; answer: T }> {
    const order: string[] = [];
    const big = call().then((answer) => {
      order.push('heavy');
      return answer;
    });
    const small = await light.callTool({ name: 'read_note', arguments: { repo: 'notes', path: 'small.md' } });
    order.push('small');
    expect(JSON.stringify(small.structuredContent)).toContain('A short note.');
    return { order, answer: await big };
  }

  test('a small read_note answers while a 12 MB note is read; the big read answers its first lines', async () => {
    const { order, answer } = await raceSmallRead(() =>
      heavy.callTool({ name: 'read_note', arguments: { repo: 'notes', path: 'dump.md' } }),
    );
    expect(order).toEqual(['small', 'heavy']);
    expect(answer.isError, JSON.stringify(answer.content).slice(0, 500)).toBeFalsy();
    const read = answer.structuredContent as {
      from_line: number;
      total_lines: number;
      truncated: boolean;
      content: string;
      headings?: unknown[];
    };
    expect(read.from_line).toBe(1);
    expect(read.total_lines).toBeGreaterThan(140_000);
    expect(read.truncated).toBe(true);
    expect(read.content.slice(0, 68)).toBe('---\ntitle: Dump\n---\n## Block 0\nrow 1: value 7919 measured, unchanged');
  }, 300_000);

  test('a small read_note answers while a range deep in the 12 MB note is read, twice (the second from cached line starts)', async () => {
    for (let round = 0; round < 2; round++) {
      const { order, answer } = await raceSmallRead(() =>
        heavy.callTool({ name: 'read_note', arguments: { repo: 'notes', path: 'dump.md', from_line: 140_001, to_line: 140_003 } }),
      );
      expect(order).toEqual(['small', 'heavy']);
      expect(answer.isError, JSON.stringify(answer.content).slice(0, 500)).toBeFalsy();
      const read = answer.structuredContent as { from_line: number; to_line: number; truncated: boolean; content: string };
      expect(read).toMatchObject({ from_line: 140_001, to_line: 140_003, truncated: false });
      // Line 140 001 is row 139 997 (three frontmatter lines, then row 0 as "## Block 0").
      expect(read.content.split('\n')).toEqual([
        `row 139997: value ${(139_997 * 7919) % 100003} measured, unchanged since the last export`,
        `row 139998: value ${(139_998 * 7919) % 100003} measured, unchanged since the last export`,
        `row 139999: value ${(139_999 * 7919) % 100003} measured, unchanged since the last export`,
      ]);
    }
  }, 300_000);

  test('a small read_note answers while a heavy base view runs; the view answers what it did within its budget, and how to narrow it', async () => {
    const { order, answer } = await raceSmallRead(() =>
      heavy.callTool({ name: 'base_view', arguments: { repo: 'notes', path: 'Heavy.base', limit: 5 } }),
    );
    expect(order).toEqual(['small', 'heavy']);
    expect(answer.isError, JSON.stringify(answer.content).slice(0, 500)).toBeFalsy();
    const view = answer.structuredContent as {
      rows: Array<{ path: string; cells: string[] }>;
      total: number;
      hasMore: boolean;
      note?: string;
    };
    expect(view.note).toMatch(/took longer than its time budget of 2 s: it checked only \d+ of \d+ files against its filters/);
    expect(view.note).toMatch(/a filter that keeps fewer notes .* or a limit on the view/);
    expect(view.total).toBeGreaterThan(0);
    expect(view.total).toBeLessThan(NOTES);
    // The rows found are whole and right: every note's name repeated 8000 times, in characters.
    const first = view.rows[0]!;
    expect(first.cells[1]).toBe(String(first.path.slice(first.path.lastIndexOf('/') + 1).length * 8000));
  }, 300_000);
});
