// The `changes` engine's answer (issue 15): "since you last looked": the notes other people
// changed in one repository since this person last asked, grouped by note, with who, when and
// each commit's subject. Read only: the history through the RepoHost port.
import { openRoots } from '../../history/open-roots.ts';
import type { FoundCommit } from '../../repo-host/history.ts';
import type { Person } from '../../repo-host/person.ts';
import type { ToolContext, Vault } from '../tool.ts';

/** At most this many commits are read for one answer; more say so and ask for a shorter span. */
export const MAX_COMMITS = 500;

/** One commit as the answer lists it under a note. */
export interface ChangeLine {
  commit: string;
  /** Committer date, ISO 8601 with offset. */
  date: string;
  author: string;
  subject: string;
}

/** One changed note: its path (after the newest commit; a deleted note's last path) and its commits, newest first. */
export interface ChangedNote {
  path: string;
  changes: ChangeLine[];
}

/** The notes changed between two moments, newest change first, and whether the commits read were cut at {@link MAX_COMMITS}. */
export interface ChangesSince {
  notes: ChangedNote[];
  /** How many commits by others the notes' changes come from. */
  commits: number;
  cut: boolean;
}

/**
 * The notes (`.md` files in the open folders, never hidden ones) that commits with a committer
 * time from `since` to `until` (epoch seconds, both inclusive) changed in `vault`, leaving out
 * the commits authored by `person` (compared by Git's author name, as the history lists it)
 * unless `own`. Notes are sorted by their newest change (newest first), then path. Errors as
 * the history's (a plain Error when Git cannot be read).
 */
export async function changesSince(
  ctx: Pick<ToolContext, 'host'>,
  vault: Vault,
  person: Person,
  span: { since: number; until: number; own: boolean },
): Promise<ChangesSince> {
  const roots = openRoots(vault.config.settings.folders) ?? [];
  if (vault.head === null || roots.length === 0) return { notes: [], commits: 0, cut: false };
  const history = await ctx.host.history(vault.name);
  const found = await history.searchCommits({
    since: span.since,
    until: span.until,
    roots,
    openRoots: roots,
    skip: 0,
    maxCount: MAX_COMMITS + 1,
    filesPerCommit: 1000,
  });
  const cut = found.matches.length > MAX_COMMITS;
  const commits: FoundCommit[] = await found.describe(found.matches.slice(0, MAX_COMMITS));
  const byPath = new Map<string, { newest: number; changes: ChangeLine[] }>();
  let counted = 0;
  for (const commit of commits) {
    if (!span.own && commit.author === person.name) continue;
    const notes = commit.files.filter((file) => file.path.endsWith('.md'));
    if (notes.length === 0) continue;
    counted++;
    for (const file of notes) {
      let entry = byPath.get(file.path);
      if (entry === undefined) {
        entry = { newest: commit.time, changes: [] };
        byPath.set(file.path, entry);
      }
      entry.newest = Math.max(entry.newest, commit.time);
      entry.changes.push({ commit: commit.commit, date: commit.date, author: commit.author, subject: commit.subject });
    }
  }
  const notes = [...byPath.entries()]
    .sort(([pathA, a], [pathB, b]) => b.newest - a.newest || (pathA < pathB ? -1 : pathA > pathB ? 1 : 0))
    .map(([path, entry]) => ({ path, changes: entry.changes }));
  return { notes, commits: counted, cut };
}
