import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bob, chloe, commit } from '../../../test/support/git-fixture.ts';
import { alicePerson, openWriteFixture, type WriteFixture } from '../../../test/writes/write-fixture.ts';
import type { ToolContext } from '../tool.ts';
import { changesSettings } from '../../special-tools/changes-engine.ts';
import { changesSince } from './changes-since.ts';

const seconds = (iso: string) => Math.floor(Date.parse(iso) / 1000);

describe('the changes engine', () => {
  let fixture: WriteFixture;
  let ctx: ToolContext;
  beforeAll(async () => {
    fixture = await openWriteFixture({
      '.vault/settings.jsonc': '{ "format": 3, "role": "root", "name": "notes", "prompts": [], "resources": [], "folders": ["open/"] }\n',
      'open/plan.md': 'Plan\n',
      'open/risks.md': 'Risks\n',
      'closed/secret.md': 'Secret\n',
    });
    const at = (date: string, author: typeof bob, files: Record<string, string>, message: string) =>
      commit(fixture.repoDir, { files, message, author, date });
    at('2026-03-01T09:00:00+01:00', bob, { 'open/plan.md': 'Plan v2\n' }, 'Bob plans');
    at(
      '2026-03-01T10:00:00+01:00',
      chloe,
      { 'open/risks.md': 'Risks v2\n', 'open/plan.md': 'Plan v3\n', 'closed/secret.md': 'x\n' },
      'Chloé reviews',
    );
    at('2026-03-01T11:00:00+01:00', { name: alicePerson.name, email: alicePerson.email }, { 'open/plan.md': 'Plan v4\n' }, 'Alice herself');
    at('2026-03-01T12:00:00+01:00', bob, { 'closed/secret.md': 'y\n', 'open/pic.png': 'png' }, 'Bob, closed only');
    await fixture.installation.refresh('notes', { force: true });
    ctx = await fixture.context();
  });
  afterAll(() => fixture.close());

  it("groups the notes others changed in the span by note, newest first, leaving out one's own and closed paths", async () => {
    const found = await changesSince(ctx, ctx.vaults.get('notes')!, alicePerson, {
      since: seconds('2026-03-01T08:00:00+01:00'),
      until: seconds('2026-03-01T13:00:00+01:00'),
      own: false,
    });
    expect(found.cut).toBe(false);
    expect(found.commits).toBe(2);
    expect(found.notes.map((note) => [note.path, note.changes.map((change) => `${change.author}: ${change.subject}`)])).toEqual([
      ['open/plan.md', ['Chloé Çelik: Chloé reviews', 'Bob Brandt: Bob plans']],
      ['open/risks.md', ['Chloé Çelik: Chloé reviews']],
    ]);
    expect(found.notes[0]!.changes[0]!.date).toBe('2026-03-01T10:00:00+01:00');
    expect(JSON.stringify(found)).not.toContain('secret');
  });

  it("counts one's own commits with own, and only those in the span", async () => {
    const found = await changesSince(ctx, ctx.vaults.get('notes')!, alicePerson, {
      since: seconds('2026-03-01T09:30:00+01:00'),
      until: seconds('2026-03-01T11:00:00+01:00'),
      own: true,
    });
    expect(found.notes.map((note) => [note.path, note.changes.map((change) => change.subject)])).toEqual([
      ['open/plan.md', ['Alice herself', 'Chloé reviews']],
      ['open/risks.md', ['Chloé reviews']],
    ]);
  });

  it('takes days and own, and refuses anything else', () => {
    expect(changesSettings.parse({})).toEqual({ days: 1, own: false });
    expect(changesSettings.safeParse({ days: 0 }).success).toBe(false);
    expect(changesSettings.safeParse({ window: 3 }).success).toBe(false);
  });
});
