// The shared write flow: read, prepare, commit with compare-and-swap, retry on a moved head,
// then bring the index up to date. Every write tool goes through commitChange.
import { decodeNoteText } from '../notes/note-text.ts';
import { runGit } from '../repo-host/git/run-git.ts';
import type { FileChange, RepoHost, Snapshot } from '../repo-host/repo-host.ts';
import type { ToolContext, Vault } from '../instance/tool.ts';
import { isVaultError, VaultError } from '../vault-error.ts';
import { commitMessage } from './commit-message.ts';

/** How many times a change is prepared and committed before a moving head is a conflict. */
export const MAX_ATTEMPTS = 6;

/**
 * The repository's state one attempt prepares from: the snapshot (head and every file with
 * its blob id, work-tree edits included) and reads of exactly that state.
 */
export interface WriteRead {
  snapshot: Snapshot;
  /** The head the change will be committed on top of; null in an empty repository. */
  head: string | null;
  /** Blob id of `path` in the snapshot, or null when there is no such file. */
  oid(path: string): string | null;
  /** The bytes of one file as the snapshot has it; null when absent. */
  file(path: string): Promise<Buffer | null>;
  /** A note's text as the snapshot has it; null when absent or not text (binary). */
  text(path: string): Promise<string | null>;
  /** The bytes of many files in one batch, by path; absent files are left out. */
  files(paths: readonly string[]): Promise<Map<string, Buffer>>;
}

/** What `prepare` gives: the files to write (content null deletes), and the tool's answer. */
export interface PreparedChange<R> {
  files: FileChange[];
  result: R;
}

/** What {@link commitChange} did: the commit that holds the change (null when nothing was committed) and the answer. */
export interface CommittedChange<R> {
  commit: string | null;
  /** The head the change was prepared on (the parent of `commit`). */
  parent: string | null;
  result: R;
  /** Things the answer should mention (an index that could not be updated right away). */
  notes: string[];
}

/**
 * The vault the caller may write: VaultError `repo_not_found` when it is not among the
 * readable ones (answered exactly like a repository that does not exist), `forbidden` when
 * the person may read but not write it (spec: "Who writes what").
 */
export function writableVault(ctx: ToolContext, repo: string): Vault {
  const vault = ctx.vaults.get(repo);
  if (vault === undefined) {
    const names = [...ctx.vaults.keys()].map((name) => `"${name}"`).join(', ');
    throw new VaultError('repo_not_found', `There is no repository "${repo}" among those you can read${names === '' ? '' : ` (${names})`}. Choose one of them.`, { repo });
  }
  if (!vault.canWrite) {
    throw new VaultError('forbidden', `You can read "${repo}" but not write it, so this change was not made. Ask its admin for write access, or write in a repository you may change.`, { repo });
  }
  return vault;
}

/**
 * Makes one change as exactly one commit, or nothing (issue 4, "Every write"):
 * 1. takes a snapshot of the repository and calls `prepare` with reads of exactly that state;
 * 2. commits `files` on the snapshot's head with `ctx.host.commit` (compare-and-swap:
 *    `update-ref NEW OLD` locally), authored by `ctx.access.person`, with the message of
 *    {@link commitMessage}, and `preparedFrom` = the blob id each changed path had in the
 *    snapshot (so a work tree's uncommitted edit the change was made on top of is not a conflict);
 * 3. when the head moved (or a work-tree file changed) in between, starts over from 1 on the
 *    new state: `prepare` re-reads and re-applies, so a passage edit still lands when its
 *    passage is still there exactly once. After {@link MAX_ATTEMPTS} tries: VaultError
 *    `conflict` naming the commits that landed meanwhile and the files they touched;
 * 4. awaits `ctx.refresh(repo)`, so the next read sees the write.
 * Writes to one repository from this process are prepared one at a time (a queue per host and
 * repository), so concurrent calls rarely need a retry; other processes are kept apart by the
 * compare-and-swap alone. `prepare` may return no files: nothing is committed, `commit` is null.
 * Refusals thrown by `prepare` pass through unchanged; on a retry they say that the repository
 * moved meanwhile.
 */
export async function commitChange<R>(
  ctx: ToolContext,
  repo: string,
  parts: { tool: string; summary: string },
  prepare: (read: WriteRead) => Promise<PreparedChange<R>>,
): Promise<CommittedChange<R>> {
  writableVault(ctx, repo);
  const message = commitMessage({ summary: parts.summary, tool: parts.tool, clientName: ctx.clientName });
  return inQueue(ctx.host, repo, async () => {
    let firstHead: string | null | undefined;
    let lastConflict: { head: string | null; path?: string } | null = null;
    const touched = new Set<string>();
    for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) {
      const snapshot = await ctx.host.snapshot(repo);
      if (firstHead === undefined) firstHead = snapshot.head;
      const read = snapshotReader(ctx.host, repo, snapshot);
      let prepared: PreparedChange<R>;
      try {
        prepared = await prepare(read);
      } catch (error) {
        if (attempt > 1 && isVaultError(error) && error.code !== 'conflict') {
          throw new VaultError(error.code, `The repository changed while this call was being made (now at ${short(snapshot.head)}), and on the new state: ${error.message}`, error.details);
        }
        throw error;
      }
      if (prepared.files.length === 0) return { commit: null, parent: snapshot.head, result: prepared.result, notes: [] };
      const preparedFrom = new Map<string, string | null>();
      for (const file of prepared.files) {
        preparedFrom.set(file.path, read.oid(file.path));
        touched.add(file.path);
      }
      const outcome = await ctx.host.commit(repo, { parent: snapshot.head, files: prepared.files, author: ctx.access.person, message }, preparedFrom);
      if (outcome.ok) {
        const notes: string[] = [];
        try {
          await ctx.refresh(repo);
        } catch {
          notes.push('The change is committed; the index did not take it in yet and catches up within seconds, so a search right now may not show it.');
        }
        return { commit: outcome.commit, parent: snapshot.head, result: prepared.result, notes };
      }
      lastConflict = outcome.path === undefined ? { head: outcome.head } : { head: outcome.head, path: outcome.path };
      if (attempt < MAX_ATTEMPTS) await pause(attempt);
    }
    throw await conflictError(ctx.host, repo, firstHead ?? null, lastConflict, [...touched]);
  });
}

/** Reads of one snapshot: by blob id, so every read sees the same state as the head. */
function snapshotReader(host: RepoHost, repo: string, snapshot: Snapshot): WriteRead {
  const oids = new Map(snapshot.files.map((entry) => [entry.path, entry.oid]));
  const files = async (paths: readonly string[]): Promise<Map<string, Buffer>> => {
    const present = paths.filter((path) => oids.has(path));
    const out = new Map<string, Buffer>();
    if (present.length === 0) return out;
    const blobs = await host.readBlobs(repo, present.map((path) => oids.get(path)!));
    present.forEach((path, i) => out.set(path, blobs[i]!));
    return out;
  };
  const file = async (path: string) => (await files([path])).get(path) ?? null;
  return {
    snapshot,
    head: snapshot.head,
    oid: (path) => oids.get(path) ?? null,
    file,
    text: async (path) => {
      const content = await file(path);
      return content === null ? null : decodeNoteText(content);
    },
    files,
  };
}

/** The refusal after the last attempt: which commits landed since the change was first prepared, and what they touched. */
async function conflictError(host: RepoHost, repo: string, from: string | null, last: { head: string | null; path?: string } | null, paths: string[]): Promise<VaultError> {
  if (last?.path !== undefined) {
    return new VaultError(
      'conflict',
      `"${last.path}" has uncommitted changes in the work tree that kept changing while this change was being made, so nothing was written. Save or commit the edits there, read the note again, and retry.`,
      { path: last.path },
    );
  }
  let what = '';
  try {
    const mirror = await host.mirror(repo);
    if (from !== null && last?.head) {
      const log = await runGit(['log', '--format=%h %an: %s', '-n', '5', `${from}..${last.head}`, '--'], { gitDir: mirror.gitDir });
      const commits = log.stdout.toString('utf8').trim().split('\n').filter(Boolean);
      const changed = await runGit(['diff', '--name-only', '-z', from, last.head, '--', ...paths], { gitDir: mirror.gitDir, env: { GIT_LITERAL_PATHSPECS: '1' } });
      const files = changed.stdout.toString('utf8').split('\0').filter(Boolean);
      what = ` Meanwhile: ${commits.map((line) => `"${line}"`).join('; ')}${files.length > 0 ? `, changing ${files.map((f) => `"${f}"`).join(', ')}` : ''}.`;
    }
  } catch {
    // The explanation is a courtesy; the refusal stands without it.
  }
  return new VaultError(
    'conflict',
    `Others kept committing to "${repo}" while this change was being made (the branch is now at ${short(last?.head ?? null)}), so after ${MAX_ATTEMPTS} tries nothing was written.${what} Read the notes again and retry.`,
    { head: last?.head ?? null },
  );
}

const queues = new WeakMap<RepoHost, Map<string, Promise<unknown>>>();

/** Runs `work` after every earlier write to the same repository through the same host in this process. */
function inQueue<T>(host: RepoHost, repo: string, work: () => Promise<T>): Promise<T> {
  let perRepo = queues.get(host);
  if (perRepo === undefined) {
    perRepo = new Map();
    queues.set(host, perRepo);
  }
  const previous = perRepo.get(repo) ?? Promise.resolve();
  const next = previous.catch(() => undefined).then(work);
  perRepo.set(repo, next);
  const map = perRepo;
  void next
    .finally(() => {
      if (map.get(repo) === next) map.delete(repo);
    })
    .catch(() => undefined);
  return next;
}

/** A short, jittered wait before the next attempt, so competing writers spread out. */
function pause(attempt: number): Promise<void> {
  const ms = Math.random() * 20 * attempt;
  return new Promise((resolve) => setTimeout(resolve, ms));
}

function short(commit: string | null): string {
  return commit === null ? 'an empty history' : commit.slice(0, 12);
}
