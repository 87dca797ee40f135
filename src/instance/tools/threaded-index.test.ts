// The read tools answer byte for byte the same whether the embedded index runs in process or
// on its own thread (note-index/pglite-thread.ts, what `serve` uses): the same repository
// indexed into each, every tool called with the same arguments, the answers compared as JSON.
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { makeRepo, tempDir } from '../../../test/support/git-fixture.ts';
import { migrate } from '../../note-index/migrate.ts';
import { openPglite } from '../../note-index/pglite-client.ts';
import { openPgliteThread } from '../../note-index/pglite-thread.ts';
import type { SqlClient } from '../../note-index/sql-client.ts';
import { LocalRepoHost } from '../../repo-host/local/local-repo-host.ts';
import type { Person } from '../../repo-host/person.ts';
import { Installation } from '../installation.ts';
import { silentLogger } from '../log.ts';
import type { ToolContext } from '../tool.ts';
import { baseView } from './base-view.ts';
import { findReferences } from './find-references.ts';
import { listNotes } from './list-notes.ts';
import { readNote } from './read-note.ts';
import { searchNotes } from './search-notes.ts';
import { tree } from './tree.ts';

const person: Person = { login: 'alice', name: 'Alice', email: 'alice@example.com' };
const tools = {
  base_view: baseView,
  find_references: findReferences,
  list_notes: listNotes,
  read_note: readNote,
  search_notes: searchNotes,
  tree,
};

/** Over 256 KB, so it takes the long-note paths (read from Git, line starts and matching on the pool). */
const longNote = `---\ntitle: Log\n---\n${Array.from({ length: 6000 }, (_, i) => `entry ${i}: the Kanban board moved, see [[Plan]]`).join('\n')}\n`;

const files: Record<string, string> = {
  'Plan.md':
    '---\ntype: plan\nstatus: draft\ntags: [launch]\n---\n# Plan\n\nSee [[Ideas]] and [the log](logs/Log.md).\n\n## Budget\n\n34 Stores at Acme.\n',
  'Ideas.md':
    '---\ntype: idea\nstatus: open\n---\n# Ideas\n\nA kanban for the launch, back to [[Plan#Budget]].\nCrème brûlée for the team.\n',
  'logs/Log.md': longNote,
  'people/Über uns.md': '# Über uns\n\nWir sind das Team hinter [[Plan]].\n',
  'Board.base': [
    'formulas:',
    '  backlinks: file.backlinks.length',
    'views:',
    '  - type: table',
    '    name: Linked',
    '    order: [file.name, formula.backlinks, status]',
    '    sort:',
    '      - property: formula.backlinks',
    '        direction: DESC',
    '',
  ].join('\n'),
};

const calls: Array<[keyof typeof tools, Record<string, unknown>]> = [
  ['read_note', { path: 'Plan.md' }],
  ['read_note', { path: 'logs/Log.md', from_line: 3000, to_line: 3010 }],
  ['search_notes', { query: 'kanban' }],
  ['search_notes', { query: 'Kanban', limit: 5, offset: 3 }],
  ['search_notes', { query: 'entry \\d+5: the', regex: true, limit: 7 }],
  ['search_notes', { query: 'crème' }],
  ['search_notes', { query: 'nowhere at all' }],
  ['list_notes', {}],
  ['list_notes', { folder: 'people' }],
  ['find_references', { values: ['34 Stores at Acme', 'kanban'] }],
  ['find_references', { path: 'Plan.md' }],
  ['base_view', { path: 'Board.base' }],
  ['tree', { depth: 3 }],
];

interface Opened {
  ctx: ToolContext;
  close(): Promise<void>;
}

async function open(reposDir: string, sql: SqlClient): Promise<Opened> {
  await migrate(sql);
  const host = new LocalRepoHost({ reposDir, as: person });
  const installation = Installation.open({ name: 'test', host, sql, log: silentLogger() });
  await installation.start({ poll: false });
  const ctx = await installation.contextFor({ person, read: new Set(['notes']), write: new Set() }, 'Test Client');
  return {
    ctx,
    async close() {
      await installation.close();
      await host.close();
      await sql.close();
    },
  };
}

async function answer(ctx: ToolContext, name: keyof typeof tools, args: Record<string, unknown>): Promise<string> {
  const tool = tools[name] as (typeof tools)['read_note'];
  try {
    return JSON.stringify(tool.output.parse(await tool.handler(tool.input(z.string()).parse({ repo: 'notes', ...args }) as never, ctx)));
  } catch (error) {
    return `refused: ${(error as Error).message}`;
  }
}

describe('the index on its own thread', () => {
  const dir = tempDir('mv-threaded-index-');
  let inProcess: Opened;
  let threaded: Opened;

  beforeAll(async () => {
    makeRepo(join(dir.path, 'repos', 'notes'), [{ message: 'Notes, a long log and a base', files }]);
    const reposDir = join(dir.path, 'repos');
    inProcess = await open(reposDir, await openPglite(null));
    threaded = await open(reposDir, await openPgliteThread(join(dir.path, 'index')));
  }, 120_000);

  afterAll(async () => {
    await inProcess?.close();
    await threaded?.close();
    dir.cleanup();
  });

  it.each(calls)('%s %j answers as in process', async (name, args) => {
    const expected = await answer(inProcess.ctx, name, args);
    expect(expected).not.toMatch(/^refused/);
    expect(await answer(threaded.ctx, name, args)).toBe(expected);
  });
});
