// One "is this file text" rule for the indexer and note_history (issue 10): a NUL byte anywhere
// or bytes that are not UTF-8 make a file not text, and both parts say so alike. Before,
// note_history decoded invalid UTF-8 lossily, while the indexer looked for a NUL only in the
// first 8 KiB (and a later NUL then failed the whole repository's indexing in Postgres).
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { noteHistory } from '../../src/instance/tools/note-history.ts';
import type { ToolContext } from '../../src/instance/tool.ts';
import { makeRepo } from '../support/git-fixture.ts';
import { callTool, openHistoryFixture, refusalOf, type HistoryFixture } from './history-fixture.ts';

/** `a`s with a NUL byte at `at` and a final line break. */
function nulAt(at: number): Buffer {
  const bytes = Buffer.from(`${'a'.repeat(at + 10)}\n`);
  bytes[at] = 0;
  return bytes;
}

const files: Record<string, Buffer> = {
  'plain.md': Buffer.from('Grüße\n'),
  'latin1.md': Buffer.from([0x47, 0x72, 0xfc, 0xdf, 0x65, 0x0a]),
  'nul-at-100.md': nulAt(100),
  'nul-at-8100.md': nulAt(8100),
  'nul-at-9000.md': nulAt(9000),
};
const isText: Record<string, boolean> = {
  'plain.md': true,
  'latin1.md': false,
  'nul-at-100.md': false,
  'nul-at-8100.md': false,
  'nul-at-9000.md': false,
};

let fixture: HistoryFixture;
let ctx: ToolContext;

beforeAll(async () => {
  fixture = await openHistoryFixture((reposDir) => {
    makeRepo(join(reposDir, 'texts'), [{ message: 'Create', date: '2026-01-10T10:00:00+01:00', files }]);
  });
  ctx = await fixture.context(['texts']);
});

afterAll(async () => {
  await fixture?.close();
});

describe('is this file text: the indexer and note_history agree', () => {
  it.each(Object.keys(files))('%s', async (path) => {
    const indexed = await ctx.index.getFile('texts', path);
    expect(indexed?.isNote).toBe(isText[path]);
    if (isText[path]) {
      const answer = await callTool(noteHistory, ctx, { repo: 'texts', path, blame: true });
      expect(answer.blame?.length).toBeGreaterThan(0);
    } else {
      const message = await refusalOf(noteHistory, ctx, { repo: 'texts', path, blame: true }, 'not_a_note');
      expect(message).toContain(`${path} is not a text note`);
    }
  });
});
