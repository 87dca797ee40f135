// move_note on the real obsidian-help corpus: the most linked-to note moves, and every link of
// every note resolves afterwards to what it resolved to before (moved files followed).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultVaultConfig } from '../../src/config/load-vault-config.ts';
import type { ToolContext } from '../../src/instance/tool.ts';
import { moveNote } from '../../src/instance/tools/move-note.ts';
import { createNoteIndex } from '../../src/note-index/note-index.ts';
import type { SqlClient } from '../../src/note-index/sql-client.ts';
import { LinkResolver } from '../../src/notes/link-resolver.ts';
import { resolveLink } from '../../src/notes/link-rewrite.ts';
import { findLinks } from '../../src/notes/links.ts';
import { isHiddenPath } from '../../src/notes/vault-path.ts';
import { LocalRepoHost } from '../../src/repo-host/local/local-repo-host.ts';
import { cloneCorpus, corpusBundle, git, tempDir } from '../support/git-fixture.ts';
import { openTestDatabase } from '../support/test-database.ts';
import { callTool } from '../support/call-tool.ts';
import { alicePerson } from './write-fixture.ts';
import { silentLogger } from '../../src/instance/log.ts';

/**
 * Every note's links in the clean work tree (it equals HEAD: checked by the test), each
 * resolved: path → resolved targets in order (null: broken).
 */
function resolvedLinks(repoDir: string): { paths: string[]; links: Map<string, Array<string | null>> } {
  const paths = git(repoDir, ['ls-files', '-z']).split('\0').filter(Boolean);
  const resolver = new LinkResolver(paths);
  const links = new Map<string, Array<string | null>>();
  for (const path of paths) {
    if (!path.endsWith('.md') || isHiddenPath(path)) continue;
    const text = readFileSync(join(repoDir, path), 'utf8');
    links.set(
      path,
      findLinks(text).map((link) => (link.target === '' ? path : resolveLink(resolver, link, path))),
    );
  }
  return { paths, links };
}

const bundle = corpusBundle('obsidian-help');

describe.skipIf(bundle === null)('move_note on obsidian-help', () => {
  const temp = tempDir('mv-help-');
  const repoDir = join(temp.path, 'repos', 'help');
  let host: LocalRepoHost;
  let sql: SqlClient;
  beforeAll(async () => {
    cloneCorpus('obsidian-help', repoDir);
    host = new LocalRepoHost({ reposDir: join(temp.path, 'repos'), as: alicePerson });
    sql = await openTestDatabase();
  });
  afterAll(async () => {
    await host?.close();
    await sql?.close();
    temp.cleanup();
  });

  it('rewrites every link to the most linked-to note, in one commit', async () => {
    expect(git(repoDir, ['status', '--porcelain'])).toBe('');
    const before = resolvedLinks(repoDir);
    const counts = new Map<string, number>();
    for (const [source, targets] of before.links) {
      for (const target of targets)
        if (target !== null && target !== source && target.endsWith('.md')) counts.set(target, (counts.get(target) ?? 0) + 1);
    }
    const [from, linkCount] = [...counts].sort((a, b) => b[1] - a[1])[0]!;
    expect(linkCount).toBeGreaterThan(20);
    const to = `Moved by test/${from.split('/').pop()!.replace(/\.md$/, '')} (renamed).md`;
    // The index is not needed to find links (move_note scans the snapshot); refresh is a no-op here.
    const ctx: ToolContext = {
      access: { person: alicePerson, read: new Set(['help']), write: new Set(['help']) },
      vaults: new Map([['help', { name: 'help', head: null, config: defaultVaultConfig(), canWrite: true }]]),
      index: createNoteIndex(sql),
      host,
      clientName: 'corpus test',
      refresh: async () => undefined,
      log: silentLogger(),
    };
    const headBefore = git(repoDir, ['rev-parse', 'HEAD']);
    const answer = await callTool(moveNote, { repo: 'help', from, to, summary: 'Moved the most linked-to note' }, ctx);
    expect(git(repoDir, ['rev-parse', 'HEAD^'])).toBe(headBefore);
    expect(answer.commit).toBe(git(repoDir, ['rev-parse', 'HEAD']));
    expect(answer.links).toBeGreaterThanOrEqual(1);

    expect(git(repoDir, ['status', '--porcelain'])).toBe('');
    const after = resolvedLinks(repoDir);
    const moved = (path: string | null) => (path === from ? to : path);
    let compared = 0;
    for (const [source, targets] of before.links) {
      const now = after.links.get(moved(source)!);
      expect(now, source).toBeDefined();
      expect(now!.length, source).toBe(targets.length);
      targets.forEach((target, i) => {
        expect(now![i], `${source} link ${i}`).toBe(moved(target));
        compared++;
      });
    }
    expect(compared).toBeGreaterThan(1000);
    // Only the moved note and the notes whose links changed are in the commit.
    const changed = git(repoDir, [
      '-c',
      'core.quotepath=false',
      'diff-tree',
      '--no-commit-id',
      '--name-only',
      '--no-renames',
      '-r',
      'HEAD',
    ]).split('\n');
    expect(changed.sort()).toEqual([from, to, ...answer.updated.map((u) => u.path).filter((p) => p !== to)].sort());
    expect(git(repoDir, ['status', '--porcelain'])).toBe('');
  }, 600_000);
});
