// The `undo` engine's work (issue 15): finds the latest change a person made through Major
// Vault in one repository (their assistant's commit) and reverts it as one new commit, or
// refuses as a conflict when a later commit touched the same passages.
import { openRoots } from '../../history/open-roots.ts';
import { decodeNoteText } from '../../notes/note-text.ts';
import { assertInFolders, foldersClosed } from '../../notes/vault-path.ts';
import { rebaseSplices, splicesBetween } from '../../notes/text-splices.ts';
import type { FoundCommit, RepoHistory } from '../../repo-host/history.ts';
import { commitChange, writableVault, type PreparedFile, type WriteRead } from '../../writes/commit-change.ts';
import { SUMMARY_MAX } from '../../writes/commit-message.ts';
import { diffLines } from 'diff';
import { refuseGuarded } from '../../special-tools/guarded-change.ts';
import { isVaultError, VaultError } from '../../vault-error.ts';
import type { ToolContext } from '../tool.ts';

/** The basic tools that write: their commits are changes made through Major Vault. */
const BASIC_WRITE_TOOLS = new Set(['edit_note', 'move_note', 'create_note']);

/** How many of the person's commits are looked through for their latest change through Major Vault. */
const LOOK_BACK = 200;

/** An undo's summary: `Undid <short id>: <the undone change's summary>`; an earlier undo is read back from it. */
const UNDID = /^Undid ([0-9a-f]{7,64}): /;

/** A subject as commit-message.ts writes it: `<summary> (<tool> via <client>)` or `<summary> (<tool>)`. */
const SUBJECT = /^(.*) \(([A-Za-z0-9_-]+)(?: via [^()]*)?\)$/;

/** The change found and reverted: the undone commit, and the new commit (null when the notes were already as before it). */
export interface UndoneChange {
  undone: { commit: string; date: string; subject: string };
  commit: string | null;
  /** The paths the revert wrote (restored, changed back, or deleted), sorted. */
  files: string[];
  notes: string[];
}

/**
 * Reverts the latest change `ctx.access.person` made through Major Vault in `repo`: the newest
 * commit authored by them (name and e-mail as Git has them) whose subject names a tool that
 * writes (a basic write tool, or one of `specialTools`, the repository's special tools by their
 * bare and listed names), skipping the changes an earlier undo reverted already (and those
 * undos), so undoing again goes one change further back. Each file it changed gets its content
 * from before it back (a created note is deleted, a moved one moved back, rewritten links
 * rewritten back), as one commit by the person named `tool`, with a `Reverts:` trailer.
 * When a later commit (or an uncommitted edit) changed a file since, the revert is carried onto
 * the file as it is when it touched other passages only; otherwise VaultError `conflict` names
 * the later commits and says what to do instead, and nothing is written. A change whose notes
 * are already as before it (changed back, moved or deleted since) is passed over for the one
 * before it (up to {@link MAX_PASSED}), and the answer's notes say so. Errors: `forbidden`
 * when the person may not write `repo`, `repo_not_found` as every tool, `nothing_to_undo` when
 * no change of theirs through Major Vault is found, and commitChange's own.
 */
export async function undoLatestChange(
  ctx: ToolContext,
  repo: string,
  tool: string,
  specialTools: readonly string[],
): Promise<UndoneChange> {
  const vault = writableVault(ctx, repo);
  await ctx.refresh(repo);
  // No folder open (a broken folders setting): say that, not that there is nothing to undo.
  if (foldersClosed(vault.config.settings.folders)) assertInFolders('', vault.config.settings.folders);
  const person = ctx.access.person;
  const roots = openRoots(vault.config.settings.folders) ?? [];
  const history = await ctx.host.history(repo);
  const tools = new Set([...BASIC_WRITE_TOOLS, ...specialTools]);
  // A change whose notes are already as before it (taken back by hand, or moved or deleted
  // since) is passed over for the one before it, so undo never sticks on it.
  const passed: string[] = [];
  for (;;) {
    const target = vault.head === null || roots.length === 0 ? null : await latestChange(history, roots, person, tools, passed);
    if (target === null) {
      throw new VaultError(
        'nothing_to_undo',
        `You made no change through Major Vault in "${repo}" that is not undone already (among your last ${LOOK_BACK} commits there)${passed.length > 0 ? `; the notes of ${passed.map((id) => id.slice(0, 7)).join(', ')} are already as before ${passed.length > 1 ? 'them' : 'it'}` : ''}, so there is nothing to undo. To change a note back by hand, read it and use edit_note; note_history shows its earlier versions.`,
        { repo },
      );
    }
    const { commit, summary } = target;
    if (commit.filesCut || commit.filesTotal > commit.files.length) {
      throw new VaultError(
        'conflict',
        `Your latest change (${commit.commit.slice(0, 7)} "${commit.subject}") also changed files you cannot see here, so it cannot be undone from here. Ask the repository's admin to revert it with Git.`,
        { repo, commit: commit.commit },
      );
    }
    const plan = await revertPlan(ctx, repo, history, commit);
    const short = commit.commit.slice(0, 7);
    const undoSummary = cut(`Undid ${short}: ${summary}`, SUMMARY_MAX);
    const written = await commitChange(ctx, repo, { tool, summary: undoSummary }, async (read) => ({
      files: await revertFiles(ctx, repo, read, commit, plan),
      result: null,
      trailers: [`Reverts: ${commit.commit}`],
    }));
    if (written.commit === null && passed.length < MAX_PASSED) {
      passed.push(commit.commit);
      continue;
    }
    const files = written.commit === null ? [] : [...plan.keys()].sort();
    const notes = [...written.notes];
    if (passed.length > 0)
      notes.push(
        `The notes of your later change${passed.length > 1 ? 's' : ''} ${passed.map((id) => id.slice(0, 7)).join(', ')} were already as before ${passed.length > 1 ? 'them' : 'it'} (changed back, moved or deleted since), so this undid the one before.`,
      );
    if (written.commit === null) notes.push('The notes were already as before that change, so nothing was committed.');
    return { undone: { commit: commit.commit, date: commit.date, subject: commit.subject }, commit: written.commit, files, notes };
  }
}

/** How many changes already as before them one undo passes over, at most, before it answers so. */
const MAX_PASSED = 10;

/** The person's latest change through Major Vault not undone already, and its summary (the subject without the tool and client). */
async function latestChange(
  history: RepoHistory,
  roots: readonly string[],
  person: { name: string; email: string },
  tools: ReadonlySet<string>,
  passed: readonly string[] = [],
): Promise<{ commit: FoundCommit; summary: string } | null> {
  const found = await history.searchCommits({
    author: person.email,
    roots,
    openRoots: roots,
    skip: 0,
    maxCount: LOOK_BACK,
    filesPerCommit: 1000,
  });
  const commits = await found.describe(found.matches);
  const undone: string[] = [];
  for (const commit of commits) {
    if (commit.author !== person.name) continue;
    const subject = SUBJECT.exec(commit.subject);
    if (subject === null) continue;
    const [, summary = '', tool = ''] = subject;
    if (!tools.has(tool) && !tool.includes('__')) continue;
    const undid = UNDID.exec(summary);
    if (undid !== null) {
      undone.push(undid[1]!);
      continue;
    }
    if (undone.some((prefix) => commit.commit.startsWith(prefix)) || passed.includes(commit.commit)) continue;
    return { commit, summary };
  }
  return null;
}

/** Per path the revert writes: what the undone commit left there (null: absent) and what it had before (null: absent). */
type RevertPlan = Map<string, { after: Buffer | null; before: Buffer | null }>;

/** What each file of `commit` held before and after it, by path (a moved file under both its paths). */
async function revertPlan(ctx: ToolContext, repo: string, history: RepoHistory, commit: FoundCommit): Promise<RevertPlan> {
  const plan: RevertPlan = new Map();
  for (const file of commit.files) {
    const log = await history.noteCommits(file.path, { since: commit.time });
    const entry = log.commits.find((line) => line.commit === commit.commit);
    if (entry === undefined) {
      throw new VaultError(
        'conflict',
        `Your latest change (${commit.commit.slice(0, 7)} "${commit.subject}") cannot be read back for "${file.path}", so it cannot be undone from here. Change the note back by hand with edit_note; note_history shows its earlier versions.`,
        { repo, commit: commit.commit, path: file.path },
      );
    }
    const parent = entry.parents[0] ?? null;
    const beforePath = entry.status === 'A' ? null : (entry.previousPath ?? entry.path);
    const before =
      beforePath === null || parent === null
        ? null
        : ((await ctx.host.filesAt(repo, parent, [beforePath])).get(beforePath)?.content ?? null);
    const after = entry.blob === null ? null : await history.readBlob(entry.blob);
    if (beforePath !== null && beforePath !== entry.path) {
      plan.set(entry.path, { after, before: null });
      plan.set(beforePath, { after: null, before });
    } else {
      plan.set(entry.path, { after, before });
    }
  }
  return plan;
}

/** The files of the revert on the state `read`: each path's content from before, carried over later changes to other passages. */
async function revertFiles(
  ctx: ToolContext,
  repo: string,
  read: WriteRead,
  commit: FoundCommit,
  plan: RevertPlan,
): Promise<PreparedFile[]> {
  const paths = [...plan.keys()].sort();
  const current = await read.files(paths);
  const files: PreparedFile[] = [];
  for (const path of paths) {
    const { after, before } = plan.get(path)!;
    const now = current.get(path) ?? null;
    if (same(now, before)) continue;
    if (same(now, after)) {
      files.push({ path, content: before });
      continue;
    }
    const [afterText, beforeText, nowText] = [after, before, now].map((bytes) => (bytes === null ? null : decodeNoteText(bytes)));
    const splices = afterText == null || beforeText == null ? null : splicesBetween(afterText, beforeText);
    const carried = splices === null || nowText == null ? null : rebaseSplices(afterText!, splices, nowText);
    if (carried !== null && 'text' in carried) {
      files.push({ path, content: Buffer.from(carried.text, 'utf8') });
      continue;
    }
    const removed = afterText == null || beforeText == null || nowText == null ? null : withoutAddedLines(afterText, beforeText, nowText);
    if (removed !== null) {
      files.push({ path, content: Buffer.from(removed, 'utf8') });
      continue;
    }
    throw await laterChangeConflict(ctx, repo, commit, path, nowText ?? null, before === null);
  }
  return files;
}

/**
 * The undo of a change that only added whole lines (an entry of a log, a line of a list),
 * carried onto `now` when every one of those lines still stands there as written and in one
 * piece, whatever was added or changed around them (another person's entry right below one's
 * own: a passage of its own, though it touches the undone lines' edge, where
 * {@link rebaseSplices} refuses). Null when `before` is not `after` with whole lines taken out,
 * or a taken-out line is changed or split in `now`.
 */
export function withoutAddedLines(after: string, before: string, now: string): string | null {
  const undone = diffLines(after, before);
  if (undone.some((part) => part.added)) return null;
  // The lines the undo takes out, by their line number in `after`.
  const out = new Set<number>();
  let line = 0;
  for (const part of undone) {
    const count = part.count ?? 0;
    if (part.removed) for (let i = 0; i < count; i++) out.add(line + i);
    line += count;
  }
  if (out.size === 0) return null;
  // Where each line of `after` stands in `now`, for the lines `now` kept as they were.
  const kept = new Map<number, number>();
  const nowLines: string[] = [];
  let [a, n] = [0, 0];
  for (const part of diffLines(after, now)) {
    const lines = splitLines(part.value);
    if (part.removed) a += lines.length;
    else if (part.added) {
      nowLines.push(...lines);
      n += lines.length;
    } else {
      for (const text of lines) {
        kept.set(a++, n++);
        nowLines.push(text);
      }
    }
  }
  const drop = new Set<number>();
  for (const index of out) {
    const at = kept.get(index);
    if (at === undefined) return null;
    // A run of taken-out lines must stay one run: nothing put in between its lines.
    if (out.has(index - 1) && kept.get(index - 1) !== at - 1) return null;
    drop.add(at);
  }
  return nowLines.filter((_, index) => !drop.has(index)).join('');
}

/** `text` as lines, each with its line break (the last one may have none). */
function splitLines(text: string): string[] {
  return text.match(/[^\n]*\n|[^\n]+$/g) ?? [];
}

/** VaultError `conflict`: a later commit (or an uncommitted edit) changed the passages the undo would change back. */
async function laterChangeConflict(
  ctx: ToolContext,
  repo: string,
  commit: FoundCommit,
  path: string,
  nowText: string | null,
  deletes: boolean,
): Promise<VaultError> {
  let later: string[] = [];
  // The host's own head: the state a write prepares on may be this process's last commit.
  const head = await ctx.host.head(repo).catch(() => null);
  if (head !== null && head !== commit.commit) {
    try {
      later = (await ctx.host.commitsTouching(repo, commit.commit, head, path)).map(
        (line) => `${line.shortId} ${line.author}: ${line.subject}`,
      );
    } catch {
      later = []; // naming them is a courtesy; the refusal stands without it
    }
  }
  const by = later.length > 0 ? `by ${later.map((line) => `"${line}"`).join(', ')}` : 'in the work tree (not committed)';
  // Where a special tool guards the note, edit_note cannot change it back either: say who can.
  const vault = ctx.vaults.get(repo);
  let guarded = false;
  if (vault !== undefined && nowText !== null) {
    try {
      refuseGuarded(repo, vault.config, 'edit_note', [{ before: { path, text: nowText }, after: { path, text: '' } }]);
    } catch (error) {
      guarded = isVaultError(error, 'guarded');
    }
  }
  const instead = deletes
    ? `Undoing would delete "${path}", which your change created, and with it what was written there since; no tool deletes a note. Keep it, or ask whoever wrote there since (or the repository's admin) whether it should go.`
    : guarded
      ? `"${path}" is guarded by a special tool, so edit_note cannot change it back either: ask the repository's admin to revert ${commit.commit.slice(0, 7)} with Git.`
      : 'Read the note and change those passages back by hand with edit_note, keeping what the later change added.';
  return new VaultError(
    'conflict',
    `Your latest change (${commit.commit.slice(0, 7)} "${commit.subject}") cannot be undone: "${path}" was changed since ${by} at the same passages, and undoing would overwrite that. Nothing was written. ${instead}`,
    { repo, commit: commit.commit, path, later },
  );
}

function same(a: Buffer | null, b: Buffer | null): boolean {
  return a === null || b === null ? a === b : a.equals(b);
}

/** `text` in at most `max` characters (code points), ending in `…` when cut. */
function cut(text: string, max: number): string {
  const points = [...text];
  return points.length <= max
    ? text
    : `${points
        .slice(0, max - 1)
        .join('')
        .trimEnd()}…`;
}
