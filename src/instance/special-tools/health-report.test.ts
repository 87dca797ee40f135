import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { commit } from '../../../test/support/git-fixture.ts';
import { openWriteFixture, type WriteFixture } from '../../../test/writes/write-fixture.ts';
import type { ToolContext } from '../tool.ts';
import { healthSettings } from '../../special-tools/health-engine.ts';
import { healthReport } from './health-report.ts';

const settings =
  '{ "format": 3, "role": "root", "name": "notes", "prompts": [], "resources": [], "folders": ["notes/", "templates/"], "exempt": ["templates/"] }\n';
const decision =
  '---\nplaces:\n  - "notes/{title:slug}.md"\nfrontmatter:\n  type: object\n  properties:\n    title:\n      type: string\n    decided_by:\n      type: string\n  required: [title, decided_by]\n---\n{body}\n';

describe('the health engine', () => {
  let fixture: WriteFixture;
  let ctx: ToolContext;
  beforeAll(async () => {
    fixture = await openWriteFixture({
      '.vault/settings.jsonc': settings,
      '.vault/types/decision.md': decision,
      'notes/README.md': '# Notes\n',
      'notes/hub.md':
        '---\ntype: decision\ntitle: Hub\ndecided_by: Ann\n---\nSee [[good]], [[missing note]] and [closed](../closed/secret.md).\n',
      'notes/good.md': '---\ntype: decision\ntitle: Good\ndecided_by: Ann\n---\nBack to [[hub]] and [[#Top]].\n',
      'notes/untyped.md': 'No type here.\n',
      'notes/odd.md': '---\ntype: memo\n---\nOdd.\n',
      'notes/broken.md': '---\ntitle: [unclosed\n---\nBroken.\n',
      'templates/decision.md': 'A template: [[nowhere]]\n',
      'closed/secret.md': 'Closed.\n',
    });
    // hub.md changes recently; everything else stays as the first commit left it (2026-01-15).
    commit(fixture.repoDir, {
      files: {
        'notes/hub.md': '---\ntype: decision\ntitle: Hub\n---\nSee [[good]], [[missing note]] and [closed](../closed/secret.md).\n',
      },
      message: 'Hub lost its decider',
      date: '2026-05-30T10:00:00+02:00',
    });
    await fixture.installation.refresh('notes', { force: true });
    ctx = await fixture.context();
  });
  afterAll(() => fixture.close());

  const vault = () => ctx.vaults.get('notes')!;

  it('finds dangling links, orphans, stale notes and type problems in the open folders only', async () => {
    const report = await healthReport(ctx, vault(), healthSettings.parse({ staleDays: 90 }), { now: new Date('2026-06-01T00:00:00Z') });
    const found = report.problems.map((p) => [p.kind, p.path, p.line ?? p.link ?? ''].join(' '));
    expect(found).toEqual([
      'orphan notes/broken.md ',
      'stale notes/broken.md ',
      'broken_frontmatter notes/broken.md ',
      'stale notes/good.md ',
      'dangling_link notes/hub.md 5',
      'dangling_link notes/hub.md 5',
      'schema notes/hub.md ',
      'orphan notes/odd.md ',
      'stale notes/odd.md ',
      'unknown_type notes/odd.md ',
      'orphan notes/untyped.md ',
      'stale notes/untyped.md ',
      'untyped notes/untyped.md ',
      'dangling_link templates/decision.md 1',
    ]);
    expect(report.problems.filter((p) => p.kind === 'dangling_link').map((p) => p.link)).toEqual([
      '[[missing note]]',
      '[closed](../closed/secret.md)',
      '[[nowhere]]',
    ]);
    expect(report.counts).toEqual({ dangling: 3, orphans: 3, stale: 4, types: 4 });
    const schema = report.problems.find((p) => p.kind === 'schema')!;
    expect(schema.detail).toContain("must have required property 'decided_by'");
    const stale = report.problems.find((p) => p.path === 'notes/good.md')!;
    expect(stale.lastCommit).toBe('2026-01-15T09:00:00.000Z');
    expect(stale.detail).toContain('136 days');
    // The closed note is never reported itself (only the link written in an open note names it).
    expect(report.problems.some((p) => p.path.startsWith('closed/'))).toBe(false);
  });

  it('runs only the checks asked, and counts only those', async () => {
    const report = await healthReport(ctx, vault(), healthSettings.parse({ checks: ['types'] }));
    expect(report.counts).toEqual({ types: 4 });
    expect(new Set(report.problems.map((p) => p.kind))).toEqual(new Set(['broken_frontmatter', 'schema', 'unknown_type', 'untyped']));
  });

  it('takes staleDays and checks, and refuses anything else', () => {
    expect(healthSettings.parse({})).toEqual({ staleDays: 180, checks: ['dangling', 'orphans', 'stale', 'types'] });
    expect(healthSettings.safeParse({ staleDays: 0 }).success).toBe(false);
    expect(healthSettings.safeParse({ staleDays: 'often' }).success).toBe(false);
    expect(healthSettings.safeParse({ checks: ['spelling'] }).success).toBe(false);
    expect(healthSettings.safeParse({ stale_days: 30 }).success).toBe(false);
  });
});
