import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { Installation } from '../installation.ts';
import { repoField } from '../../tools/tool.ts';
import type { ToolContext } from '../tool.ts';
import type { SqlClient } from '../../note-index/sql-client.ts';
import { LocalRepoHost } from '../../repo-host/local/local-repo-host.ts';
import type { Person } from '../../repo-host/person.ts';
import { isVaultError, type VaultError } from '../../vault-error.ts';
import { alice, bob, cloneCorpus, corpusBundle, makeRepo, tempDir } from '../../../test/support/git-fixture.ts';
import { openTestDatabase } from '../../../test/support/test-database.ts';
import { baseView } from './base-view.ts';
import { editNote } from './edit-note.ts';
import { callTool } from '../../../test/support/call-tool.ts';
import { commitOutside, openWriteFixture, type WriteFixture } from '../../../test/writes/write-fixture.ts';
import { silentLogger } from '../log.ts';

const person: Person = { login: 'alice', name: alice.name, email: alice.email };

/** A running installation over the repositories in `reposDir`, read by Alice. */
async function openContext(reposDir: string, repos: string[]): Promise<{ ctx: ToolContext; close(): Promise<void> }> {
  const host = new LocalRepoHost({ reposDir, as: person });
  const sql: SqlClient = await openTestDatabase();
  const installation = Installation.open({ name: 'test', host, sql, log: silentLogger() });
  await installation.start({ poll: false });
  const ctx = await installation.contextFor({ person, read: new Set(repos), write: new Set() }, 'Test Client');
  return {
    ctx,
    async close() {
      await installation.close();
      await host.close();
      await sql.close();
    },
  };
}

async function call(ctx: ToolContext, args: Record<string, unknown>) {
  const input = baseView.input(z.string()).parse(args);
  return baseView.output.parse(await baseView.handler(input, ctx));
}

async function refusal(ctx: ToolContext, args: Record<string, unknown>): Promise<VaultError> {
  try {
    await call(ctx, args);
  } catch (error) {
    if (isVaultError(error)) return error;
    throw error;
  }
  throw new Error('expected a refusal');
}

describe('base_view contract', () => {
  it('lists exactly the schema of spec/acme-tools-list.json', () => {
    const contract = JSON.parse(readFileSync(join(import.meta.dirname, '../../../test/fixtures/acme-tools-list.json'), 'utf8')) as {
      tools?: unknown[];
      result?: { tools: unknown[] };
    };
    const entry = (contract.tools ?? contract.result!.tools).find((tool) => (tool as { name: string }).name === 'base_view') as Record<
      string,
      unknown
    >;
    const repo = repoField([
      { name: 'handbook', summary: 'How Acme works: onboarding, processes and policies.' },
      { name: 'projects', summary: 'One folder per project: plans, decisions and meeting notes.' },
    ]);
    expect({ name: baseView.name, title: baseView.title, description: baseView.description, annotations: baseView.annotations }).toEqual({
      name: entry.name,
      title: entry.title,
      description: entry.description,
      annotations: entry.annotations,
    });
    expect(z.toJSONSchema(baseView.input(repo), { io: 'input' })).toEqual(entry.inputSchema);
    expect(z.toJSONSchema(baseView.output, { io: 'output' })).toEqual(entry.outputSchema);
  });
});

describe('base_view', () => {
  let temp: ReturnType<typeof tempDir>;
  let context: Awaited<ReturnType<typeof openContext>>;

  beforeAll(async () => {
    temp = tempDir('mv-base-view-');
    makeRepo(join(temp.path, 'repos', 'notes'), [
      {
        message: 'First notes',
        author: alice,
        date: '2025-03-01T10:00:00+01:00',
        files: {
          '.vault/settings.jsonc':
            '{ "format": 3, "role": "root", "name": "notes", "prompts": [], "resources": [], "folders": ["open/"] }\n',
          'open/Apollo.md': '---\nstatus: active\nowner: "[[Ada]]"\n---\nSee [[Ada]]. #project\n',
          'open/Ada.md': '---\nrole: lead\n---\n',
          'open/logo.png': Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 1]),
          'closed/Secret.md': '---\nstatus: active\n---\nLinks [[Ada]].\n',
          'closed/Hidden.base': 'views: []\n',
          'open/.drafts/Draft.base': 'views: []\n',
        },
      },
      {
        message: 'More notes and a base',
        author: bob,
        date: '2025-04-02T10:00:00+01:00',
        files: {
          'open/Apollo.md': '---\nstatus: done\nowner: "[[Ada]]"\n---\nSee [[Ada]]. #project\n',
          'open/Borealis.md': '---\nstatus: active\n---\n',
          'open/Board.base': [
            'formulas:',
            '  created: file.ctime.date()',
            '  modified: file.mtime.date()',
            '  broken: status.nope()',
            'properties:',
            '  note.status:',
            '    displayName: Status',
            'views:',
            '  - type: table',
            '    name: Projects',
            '    filters: file.ext == "md" && !file.name.contains("Ada")',
            '    order: [file.name, status, formula.created, formula.modified]',
            '    sort:',
            '      - property: file.name',
            '        direction: ASC',
            '  - type: table',
            '    name: Broken',
            '    filters: file.ext == "md" && !file.name.contains("Ada")',
            '    order: [file.name, formula.broken]',
            '  - type: cards',
            '    name: Everything',
            '    filters: file.hasLink("Ada") || file.name == "Ada.md" || file.ext == "png" || file.ext == "base"',
            '    order: [file.path, file.size, file.backlinks]',
          ].join('\n'),
        },
      },
    ]);
    context = await openContext(join(temp.path, 'repos'), ['notes']);
  });
  afterAll(async () => {
    await context?.close();
    temp?.cleanup();
  });

  it('renders the first view with labels, cells, and ctime/mtime from the first and last commit', async () => {
    const answer = await call(context.ctx, { repo: 'notes', path: 'open/Board.base' });
    expect(answer).toEqual({
      path: 'open/Board.base',
      view: 'Projects',
      availableViews: ['Projects', 'Broken', 'Everything'],
      columns: [
        { property: 'file.name', label: 'name' },
        { property: 'note.status', label: 'Status' },
        { property: 'formula.created', label: 'created' },
        { property: 'formula.modified', label: 'modified' },
      ],
      rows: [
        { path: 'open/Apollo.md', cells: ['Apollo', 'done', '2025-03-01', '2025-04-02'] },
        { path: 'open/Borealis.md', cells: ['Borealis', 'active', '2025-04-02', '2025-04-02'] },
      ],
      total: 2,
      offset: 0,
      hasMore: false,
      repo: 'notes',
    });
  });

  it('shows only files in the open folders: attachments and bases too, sizes and backlinks within them', async () => {
    const answer = await call(context.ctx, { repo: 'notes', path: 'open/Board.base', view: 'Everything' });
    expect(answer.rows).toEqual([
      { path: 'open/Ada.md', cells: ['open/Ada.md', '19', '[[Apollo]]'] },
      {
        path: 'open/Apollo.md',
        cells: ['open/Apollo.md', String(Buffer.byteLength('---\nstatus: done\nowner: "[[Ada]]"\n---\nSee [[Ada]]. #project\n')), ''],
      },
      { path: 'open/Board.base', cells: ['open/Board.base', expect.any(String), ''] },
      { path: 'open/logo.png', cells: ['open/logo.png', '6', ''] },
    ]);
  });

  it('pages with limit and offset and names the next offset', async () => {
    const first = await call(context.ctx, { repo: 'notes', path: 'open/Board.base', limit: 1 });
    expect(first).toMatchObject({
      rows: [{ path: 'open/Apollo.md' }],
      total: 2,
      offset: 0,
      hasMore: true,
      note: '1 more rows follow: call again with offset 1.',
    });
    const second = await call(context.ctx, { repo: 'notes', path: 'open/Board.base', limit: 1, offset: 1 });
    expect(second).toMatchObject({ rows: [{ path: 'open/Borealis.md' }], hasMore: false });
    expect(second.note).toBeUndefined();
  });

  it('renders what it can and says in note what could not be evaluated', async () => {
    const answer = await call(context.ctx, { repo: 'notes', path: 'open/Board.base', view: 'Broken' });
    expect(answer.rows.map((row) => row.cells)).toEqual([
      ['Apollo', ''],
      ['Borealis', ''],
    ]);
    expect(answer.note).toContain(
      'view "Broken", column formula.broken: formula "broken" failed: text has no function "nope" at character 8 of "status.nope()" (2 rows)',
    );
  });

  it('answers an unknown view with the views that exist', async () => {
    const error = await refusal(context.ctx, { repo: 'notes', path: 'open/Board.base', view: 'Nope' });
    expect(error.code).toBe('unknown_view');
    expect(error.details).toMatchObject({ availableViews: ['Projects', 'Broken', 'Everything'] });
  });

  it('refuses a base outside the folders, a hidden one, a missing one and a path that is not a .base', async () => {
    expect((await refusal(context.ctx, { repo: 'notes', path: 'closed/Hidden.base' })).code).toBe('outside_folders');
    expect((await refusal(context.ctx, { repo: 'notes', path: 'open/.drafts/Draft.base' })).code).toBe('hidden_path');
    const missing = await refusal(context.ctx, { repo: 'notes', path: 'open/Nope.base' });
    expect(missing.code).toBe('note_not_found');
    expect(missing.message).toContain('"open/Board.base"');
    expect((await refusal(context.ctx, { repo: 'notes', path: 'open/Apollo.md' })).code).toBe('bad_arguments');
    expect((await refusal(context.ctx, { repo: 'elsewhere', path: 'open/Board.base' })).code).toBe('repo_not_found');
  });
});

describe.skipIf(corpusBundle('kepano-obsidian') === null)('base_view on kepano-obsidian', () => {
  let temp: ReturnType<typeof tempDir>;
  let context: Awaited<ReturnType<typeof openContext>>;

  beforeAll(async () => {
    temp = tempDir('mv-base-view-kepano-');
    cloneCorpus('kepano-obsidian', join(temp.path, 'repos', 'kepano'));
    context = await openContext(join(temp.path, 'repos'), ['kepano']);
  });
  afterAll(async () => {
    await context?.close();
    temp?.cleanup();
  });

  it('renders every view of the 30 bases without a problem, with Git times for file.mtime', async () => {
    const dir = join(temp.path, 'repos', 'kepano');
    const bases = execFileSync('git', ['ls-files', 'Templates/Bases'], { cwd: dir, encoding: 'utf8' }).trim().split('\n');
    expect(bases).toHaveLength(30);
    let views = 0;
    for (const path of bases) {
      const first = await call(context.ctx, { repo: 'kepano', path, limit: 200 });
      for (const view of first.availableViews) {
        const answer = await call(context.ctx, { repo: 'kepano', path, view, limit: 200 });
        expect({ path, view, note: answer.note }).toEqual({ path, view, note: undefined });
        views++;
      }
    }
    expect(views).toBe(75);
    const everything = await call(context.ctx, { repo: 'kepano', path: 'Templates/Bases/Everything.base', limit: 200 });
    expect(everything.total).toBe(135);
    for (const row of everything.rows) expect(row.cells[1]).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
    const books = await call(context.ctx, { repo: 'kepano', path: 'Templates/Bases/Books.base' });
    expect(books.rows.map((row) => row.cells.slice(0, 2))).toEqual([
      ['Out of Control', '[[Kevin Kelly]]'],
      ['The Machine Stops', '[[E. M. Forster]]'],
    ]);
  });
});

describe('base_view after changes', () => {
  let fixture: WriteFixture | undefined;
  afterEach(async () => {
    await fixture?.close();
    fixture = undefined;
  });

  const base = [
    'formulas:',
    '  backlinks: file.backlinks.length',
    'views:',
    '  - type: table',
    '    name: Linked',
    '    filters: file.ext == "md"',
    '    order: [file.name, formula.backlinks, file.backlinks]',
    '    sort:',
    '      - property: file.name',
    '        direction: ASC',
  ].join('\n');
  const cells = async (ctx: ToolContext) => (await call(ctx, { repo: 'notes', path: 'Links.base' })).rows.map((row) => row.cells);

  it('shows the backlinks of the index state it answers from, after an edit_note and after an outside commit', async () => {
    fixture = await openWriteFixture({ 'Links.base': base, 'a.md': 'See [[c]].\n', 'b.md': 'Nothing yet.\n', 'c.md': 'C.\n' });
    const ctx = await fixture.context();
    // Rendered twice at one state: the second render is served from what the pool thread kept.
    for (let i = 0; i < 2; i++)
      expect(await cells(ctx)).toEqual([
        ['a', '0', ''],
        ['b', '0', ''],
        ['c', '1', '[[a]]'],
      ]);
    await callTool(
      editNote,
      { repo: 'notes', path: 'b.md', old_text: 'Nothing yet.', new_text: 'See [[c]] and [[a]].', summary: 'S' },
      ctx,
    );
    expect(await cells(ctx)).toEqual([
      ['a', '1', '[[b]]'],
      ['b', '0', ''],
      ['c', '2', '[[a]], [[b]]'],
    ]);
    commitOutside(fixture, { 'a.md': 'No links now.\n', 'd.md': 'See [[b]].\n' }, 'Outside');
    await fixture.installation.refresh('notes', { force: true });
    expect(await cells(await fixture.context())).toEqual([
      ['a', '1', '[[b]]'],
      ['b', '1', '[[d]]'],
      ['c', '1', '[[b]]'],
      ['d', '0', ''],
    ]);
  });
});
