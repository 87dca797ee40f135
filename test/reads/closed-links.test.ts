// Reads follow the rules writes follow: a symbolic link in an open folder that leads to a hidden
// path, outside the open folders or out of the repository reads as absent, and no read tool tells
// a hidden or closed file that exists from one that does not. Every call is made on two
// repositories: `linkvault`, with the links and the closed files, and `twinvault`, the same open
// notes without them; the answers must be the same, word for word.
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { baseView } from '../../src/instance/tools/base-view.ts';
import { editNote } from '../../src/instance/tools/edit-note.ts';
import { findReferences } from '../../src/instance/tools/find-references.ts';
import { listNotes } from '../../src/instance/tools/list-notes.ts';
import { noteHistory } from '../../src/instance/tools/note-history.ts';
import { readNote } from '../../src/instance/tools/read-note.ts';
import { searchHistory } from '../../src/instance/tools/search-history.ts';
import { searchNotes } from '../../src/instance/tools/search-notes.ts';
import { tree } from '../../src/instance/tools/tree.ts';
import type { ToolContext, Tool } from '../../src/instance/tool.ts';
import { isVaultError } from '../../src/vault-error.ts';
import { cloneBare, commit, git, makeRepo, tempDir } from '../support/git-fixture.ts';
import { openToolContext, type TestToolContext } from '../support/tool-context.ts';

process.env.TZ = 'Europe/Berlin';

const SECRET = 'SECRET-WORD in a hidden note';
const PRIVATE = 'PRIVATE-WORD in a closed note';
const OUTSIDE = 'OUTSIDE-WORD outside every repository';
const NFD = 'private/cafe\u0301.md';

const base = [
  'formulas:',
  '  fy: file("private/y.md").path',
  '  fx: file(".secret/x.md").path',
  '  ly: link("y").asFile().path',
  '  lyf: link("y").asFile()',
  '  ls: link("to-secret").asFile().path',
  '  lp: link("to-private").asFile().path',
  '  fs: file("notes/to-secret.md").path',
  '  fp: file("notes/to-private").path',
  '  fd: file("notes/private-dir/y.md").path',
  'views:',
  '  - type: table',
  '    name: All',
  '    order: [file.path, file.links, file.backlinks, file.size, formula.fy, formula.fx, formula.ly, formula.lyf, formula.ls, formula.lp, formula.fs, formula.fp, formula.fd]',
  '',
].join('\n');

/** The open notes both repositories hold. */
const openFiles: Record<string, string> = {
  '.vault/settings.jsonc': '{ "folders": ["notes/"] }\n',
  'notes/plan.md':
    '# Plan\n\nopen words: see [[y]], [[to-secret]], [[to-private]], [[private-dir/y]], [[alias]], [[cafe\u0301]], [[data]].\n',
  'notes/other.md': '# Other\n\nMore open words, and [[plan]].\n',
  'notes/Overview.base': base,
};

/** Each symbolic link of `linkvault`'s notes/ and where it points (relative to notes/). */
const links: Record<string, string> = {
  'to-secret.md': '../.secret/x.md',
  'secret-noext': '../.secret/x.md',
  'to-private.md': '../private/y.md',
  'to-private': '../private/y.md',
  'to-private.base': '../private/secret.base',
  'private-dir': '../private',
  'secret-dir': '../.secret',
  'to-outside.md': '../../outside-repo/z.md',
  outside: '../../outside-repo',
  'alias.md': 'plan.md',
};

/** Paths every tool is asked about: links, paths through them, closed and hidden files. */
const paths = [
  'notes/to-secret.md',
  'notes/to-secret',
  'notes/secret-noext',
  'notes/to-private.md',
  'notes/to-private',
  'notes/to-private.base',
  'notes/private-dir',
  'notes/private-dir/y.md',
  'notes/private-dir/y',
  'notes/secret-dir/x.md',
  'notes/to-outside.md',
  'notes/outside/z.md',
  'notes/untracked-secret.md',
  'notes/untracked-dir/y.md',
  'private/y',
  'private/y.md',
  'private/data',
  'private/caf\u00e9.md',
  'private/secret.base',
];

let temp: ReturnType<typeof tempDir>;
let ctx: TestToolContext;
let heads: Record<string, string>;

function build(reposDir: string): void {
  const outside = join(reposDir, '..', 'outside-repo');
  mkdirSync(outside, { recursive: true });
  writeFileSync(join(outside, 'z.md'), `${OUTSIDE}\n`);

  const dir = join(reposDir, 'linkvault');
  makeRepo(dir, [
    {
      message: 'Notes',
      date: '2026-01-10T10:00:00+01:00',
      files: {
        ...openFiles,
        'private/y.md': `${PRIVATE}\n[[plan]]\n`,
        'private/data': `${PRIVATE}\n`,
        [NFD]: `${PRIVATE}\n`,
        'private/secret.base': 'views:\n  - type: table\n    name: PRIVATE-VIEW\n',
        '.secret/x.md': `${SECRET}\n[[plan]]\n`,
      },
    },
  ]);
  for (const [name, target] of Object.entries(links)) symlinkSync(target, join(dir, 'notes', name));
  git(dir, ['add', '--', ...Object.keys(links).map((name) => `notes/${name}`)]);
  commit(dir, {
    message: 'Links',
    date: '2026-01-11T10:00:00+01:00',
    files: { 'notes/other.md': '# Other\n\nMore open words, and [[plan]]!\n' },
  });
  // Only on disk: Git sees them as untracked.
  symlinkSync('../.secret/x.md', join(dir, 'notes', 'untracked-secret.md'));
  symlinkSync('../private', join(dir, 'notes', 'untracked-dir'));
  cloneBare(dir, join(reposDir, 'linkvault-bare'));

  const twin = join(reposDir, 'twinvault');
  makeRepo(twin, [{ message: 'Notes', date: '2026-01-10T10:00:00+01:00', files: openFiles }]);
  symlinkSync('plan.md', join(twin, 'notes', 'alias.md'));
  git(twin, ['add', '--', 'notes/alias.md']);
  commit(twin, {
    message: 'Links',
    date: '2026-01-11T10:00:00+01:00',
    files: { 'notes/other.md': '# Other\n\nMore open words, and [[plan]]!\n' },
  });
  cloneBare(twin, join(reposDir, 'twinvault-bare'));
}

beforeAll(async () => {
  temp = tempDir('mv-closed-links-');
  const reposDir = join(temp.path, 'repos');
  mkdirSync(reposDir, { recursive: true });
  build(reposDir);
  ctx = await openToolContext(reposDir);
  heads = Object.fromEntries(['linkvault', 'twinvault'].map((name) => [name, git(join(reposDir, name), ['rev-parse', 'HEAD']).trim()]));
});

afterAll(async () => {
  await ctx?.close();
  temp?.cleanup();
});

/** A tool's answer, or its refusal, as JSON with commit ids blanked and the twin's name made the vault's. */
async function outcome(tool: Tool<z.ZodRawShape, z.ZodRawShape>, args: Record<string, unknown>, context: ToolContext): Promise<string> {
  let result: unknown;
  try {
    const input = tool.input(z.string()).parse(args);
    result = tool.output.strict().parse(await tool.handler(input as never, context));
  } catch (error) {
    if (!isVaultError(error)) throw error;
    result = { refused: error.code, message: error.message };
  }
  return JSON.stringify(result, null, 1)
    .replaceAll('twinvault', 'linkvault')
    .replace(/\b[0-9a-f]{7,40}\b/g, '<commit>');
}

const pairs = [
  ['linkvault', 'twinvault'],
  ['linkvault-bare', 'twinvault-bare'],
] as const;

/** Asserts that `args` (with `repo` set to each) is answered alike in the vault and its twin, and that no answer shows a closed text. */
async function alike(
  tool: Tool<z.ZodRawShape, z.ZodRawShape>,
  args: Record<string, unknown> | ((repo: string) => Record<string, unknown>),
): Promise<void> {
  for (const [vault, twin] of pairs) {
    const argsFor = (repo: string) => ({ ...(typeof args === 'function' ? args(repo) : args), repo });
    const seen = await outcome(tool, argsFor(vault), ctx);
    expect(seen, `${tool.name} ${JSON.stringify(argsFor(vault))}`).toBe(await outcome(tool, argsFor(twin), ctx));
    for (const secret of [SECRET, PRIVATE, OUTSIDE, '"PRIVATE-VIEW"']) expect(seen).not.toContain(secret);
  }
}

const tools = { readNote, listNotes, tree, searchNotes, findReferences, noteHistory, searchHistory, baseView } as unknown as Record<
  string,
  Tool<z.ZodRawShape, z.ZodRawShape>
>;

describe('reads follow the rules writes follow', () => {
  it('read_note reads a link to a closed or hidden file, a path through one, and a closed file as absent', async () => {
    for (const path of paths) await alike(tools.readNote!, { path });
  });

  it('read_note reads a link to an open note as that note (work tree), and as absent in a bare repository', async () => {
    await alike(tools.readNote!, { path: 'notes/alias.md' });
    expect(await outcome(tools.readNote!, { repo: 'linkvault', path: 'notes/alias.md' }, ctx)).toContain('open words');
  });

  it('list_notes and tree show no link to a closed file and no folder behind a link', async () => {
    for (const args of [
      {},
      { folder: 'notes' },
      { folder: 'notes/private-dir' },
      { folder: 'notes/untracked-dir' },
      { folder: 'notes/outside' },
      { folder: 'private' },
    ]) {
      await alike(tools.listNotes!, args);
      await alike(tools.tree!, args);
    }
  });

  it('search_notes finds nothing through a link to a closed file', async () => {
    for (const query of ['SECRET-WORD', 'PRIVATE-WORD', 'OUTSIDE-WORD', 'words']) await alike(tools.searchNotes!, { query });
    for (const path of ['notes/private-dir', 'notes/to-private.md', 'private']) await alike(tools.searchNotes!, { query: 'WORD', path });
  });

  it('find_references neither finds closed text nor resolves a link to a closed file', async () => {
    await alike(tools.findReferences!, { values: ['SECRET-WORD', 'PRIVATE-WORD', 'OUTSIDE-WORD', 'open words'] });
    for (const path of [...paths, 'notes/plan.md', 'notes/plan']) await alike(tools.findReferences!, { path });
  });

  it('note_history answers a link to a closed file and a closed file like a missing one, in every mode, .md added alike', async () => {
    // One of each kind: a link to a hidden file, without an extension, through a folder link, only on disk; closed files.
    for (const path of [
      'notes/to-secret.md',
      'notes/secret-noext',
      'notes/to-private',
      'notes/private-dir/y',
      'notes/untracked-secret.md',
      'private/y',
      'private/data',
      'private/caf\u00e9.md',
    ]) {
      await alike(tools.noteHistory!, { path });
    }
    for (const path of ['notes/secret-noext', 'notes/to-private.md', 'private/y']) {
      for (const mode of [{ blame: true }, { since: '2020-01-01', diff: true }]) await alike(tools.noteHistory!, { path, ...mode });
      await alike(tools.noteHistory!, (repo) => ({ path, at: heads[repo.replace(/-bare$/, '')] }));
    }
  }, 120_000);

  it('search_history shows no commit for a closed text or a link, and takes a link path like a missing one', async () => {
    for (const text of ['SECRET-WORD', 'PRIVATE-WORD', '.secret', 'private/y', 'open words']) await alike(tools.searchHistory!, { text });
    for (const path of paths) await alike(tools.searchHistory!, { path });
  });

  it('base_view: file(), link().asFile(), file.links and backlinks never reach a closed file; a link to a closed .base reads as absent', async () => {
    await alike(tools.baseView!, { path: 'notes/Overview.base' });
    for (const path of ['notes/to-private.base', 'private/secret.base', 'notes/private-dir/secret.base', 'notes/untracked-dir/secret.base'])
      await alike(tools.baseView!, { path });
  });

  it('edit_note refuses a link to a closed file as one to a hidden file, never naming where it leads', async () => {
    const refusal = async (path: string) =>
      (
        await outcome(
          editNote as unknown as Tool<z.ZodRawShape, z.ZodRawShape>,
          { repo: 'linkvault', path, old_text: 'x', new_text: 'y', summary: 'Try' },
          ctx,
        )
      ).replaceAll(path, '<link>');
    const closed = await refusal('notes/to-private.md');
    expect(closed).toBe(await refusal('notes/to-secret.md'));
    expect(closed).toContain('"refused": "not_a_note"');
    expect(closed).not.toContain('private/y.md');
  });
});
