// The shared write flow: read, prepare, commit with compare-and-swap, retry on a moved head,
// then bring the index up to date. Every write tool goes through commitChange.
import { posix } from 'node:path';
import type { VaultConfig } from '../config/vault-config.ts';
import { decodeNoteText } from '../notes/note-text.ts';
import { sharedStateKey } from '../repo-host/caller-repo-host.ts';
import type { Person } from '../repo-host/person.ts';
import type { BlobFile, CommitLine, FileChange, FolderEntry, RepoHost, Snapshot } from '../repo-host/repo-host.ts';
import { rebaseSplices, splicesBetween, type Splice } from '../notes/text-splices.ts';
import type { LRUCache } from 'lru-cache';
import { byteCache, estimateBytes } from '../byte-cache.ts';
import { KeyedQueue } from '../keyed-queue.ts';
import { repoNotFound } from '../repo-not-found.ts';
import { isVaultError, VaultError } from '../vault-error.ts';
import { commitMessage, withTrailers } from './commit-message.ts';
import { linksOnPaths, type LinkOnPath } from './symlinks.ts';

export type { FolderEntry } from '../repo-host/repo-host.ts';

/** How many times a change is prepared and committed before a moving head is a conflict. */
export const MAX_ATTEMPTS = 6;

/** A repository as the write flow needs to know it: its configuration, the head it was read at, and whether the caller may write it. */
export interface WritableVault {
  config: VaultConfig;
  /** The head commit `config` was read at; null for an empty repository. */
  head: string | null;
  canWrite: boolean;
}

/**
 * What the write flow gets from its caller, and nothing more (a tool passes its ToolContext,
 * which has all of it): the repository host bound to the calling person, the repositories
 * they can read, who they are, the MCP client's name (for the commit subject), where writes
 * are logged, and how the index is brought up to date after a commit.
 */
export interface WriteContext {
  /** Repository access bound to the caller: reads, and commits with their credential. */
  host: RepoHost;
  /** The repositories the caller can read, by name. */
  vaults: ReadonlyMap<string, WritableVault>;
  /** The caller: `person` is the commit's author. */
  access: { person: Person };
  /** The MCP client's name from `initialize`, when known. */
  clientName: string | null;
  /** Where a write is logged (`event: "write"`). */
  log: { info(fields: Record<string, unknown>, message: string): void };
  /** Brings the index up to date with what this process committed to `repo`. */
  refresh(repo: string): Promise<void>;
}

/**
 * The repository's state one attempt prepares from, work-tree edits included: the head and
 * reads of the current files. With `snapshot: true` (see {@link commitChange}) it rests on a
 * full snapshot (every file with its blob id); without, only the paths a tool reads or lists
 * are looked at, which is much cheaper in a large repository.
 */
export interface WriteRead {
  /** The full snapshot, when the tool asked for one; null otherwise. */
  snapshot: Snapshot | null;
  /** The head the change will be committed on top of; null in an empty repository. */
  head: string | null;
  /**
   * Blob id of `path` as this attempt saw it, or null when there is no such file. Without a
   * snapshot, only for paths read with file/text/files, or missing from a folder listed with
   * {@link folder}; other paths throw (a tool must look at every path it changes).
   */
  oid(path: string): string | null;
  /** The bytes of one file as the snapshot has it; null when absent. */
  file(path: string): Promise<Buffer | null>;
  /** A note's text as the snapshot has it; null when absent or not text (binary). */
  text(path: string): Promise<string | null>;
  /** The bytes of many files in one batch, by path; absent files are left out. */
  files(paths: readonly string[]): Promise<Map<string, Buffer>>;
  /**
   * The entries directly in `folder` ('' for the root): tracked at the head (any kind) and, in
   * a work tree, whatever is on disk there (untracked files too; `.git` left out). Empty when
   * the folder does not exist or is a file.
   */
  folder(folder: string): Promise<FolderEntry[]>;
  /**
   * The paths among `paths` that are a symbolic link, or lie below one, in the current state
   * (the disk in a work tree, the head's tree in a bare repository), each with the first link
   * on its way; see {@link linksOnPaths}. A write tool refuses those (a link is not a note).
   */
  links(paths: readonly string[]): Promise<Map<string, LinkOnPath>>;
}

/** Options of {@link commitChange}. */
export interface CommitChangeOptions {
  /**
   * Prepare from a full snapshot of the repository (every path with its blob id), for a tool
   * that needs the whole state (move_note: every link). Default false: only what the tool reads.
   */
  snapshot?: boolean;
}

/**
 * One file a change writes, as `prepare` gives it: {@link FileChange} (`content` is the file as
 * the tool made it from what it read), and what the write flow needs to make the same change on
 * another version of the file (a newer head on a retry; the branch head's blob under a work
 * tree's uncommitted edits).
 */
export interface PreparedFile extends FileChange {
  /**
   * The replacements the tool made, as splices of the text it read at `from ?? path` (sorted,
   * apart): edit_note's passages. Given, a retry on a newer head re-applies the change only when
   * nothing since touched them, and the commit under uncommitted edits carries exactly them.
   * Absent: the difference between what was read and `content` stands for them.
   */
  splices?: readonly Splice[];
}

/** What `prepare` gives: the files to write (content null deletes), and the tool's answer. */
export interface PreparedChange<R> {
  files: PreparedFile[];
  result: R;
  /** Trailer lines the commit message ends with (move_note's `Moved: <old> -> <new>`); the subject never changes. */
  trailers?: string[];
}

/** What {@link commitChange} did: the commit that holds the change (null when nothing was committed) and the answer. */
export interface CommittedChange<R> {
  commit: string | null;
  /** The head the change was prepared on (the parent of `commit`). */
  parent: string | null;
  result: R;
  /** Things the answer should mention (what was committed beyond the change, an index that could not be updated right away). */
  notes: string[];
}

/**
 * The vault the caller may write: VaultError `repo_not_found` when it is not among the
 * readable ones (answered exactly like a repository that does not exist), `forbidden` when
 * the person may read but not write it (spec: "Who writes what").
 */
export function writableVault<V extends WritableVault>(ctx: { vaults: ReadonlyMap<string, V> }, repo: string): V {
  const vault = ctx.vaults.get(repo);
  if (vault === undefined) throw repoNotFound(repo, [...ctx.vaults.keys()]);
  if (!vault.canWrite) {
    throw new VaultError(
      'forbidden',
      `You can read "${repo}" but not write it, so this change was not made. Ask its admin for write access, or write in a repository you may change.`,
      { repo },
    );
  }
  return vault;
}

/**
 * Refuses a change about to be prepared on `head` when the repository's configuration
 * (`.vault/`) changed between the head the call's configuration was read at (`vault.head`) and
 * `head`: the tool checked paths, folders and types against rules that no longer hold, so a
 * write could land in a folder just closed, or a refusal could speak of a file just hidden.
 * VaultError `conflict`, nothing written; the call sent again is checked against the new rules
 * (they are read within seconds). Costs nothing while the head is the configuration's.
 */
async function assertConfigurationHolds(host: RepoHost, repo: string, vault: WritableVault, head: string | null): Promise<void> {
  if (head === vault.head || head === null) return;
  const [now, then] = await Promise.all([
    configurationCommit(host, repo, head),
    // A head no longer there (a forced push rewrote it away) counts as a change.
    vault.head === null ? Promise.resolve(null) : configurationCommit(host, repo, vault.head).catch(() => undefined),
  ]);
  if (now === then) return;
  throw new VaultError(
    'conflict',
    `The configuration of "${repo}" (.vault/) changed while this call was being made (commit ${short(now ?? head)}), so nothing was written: the folders, types and rules this call was checked against may no longer hold. Send the call again in a few seconds; it will be checked against the new configuration.`,
    { repo },
  );
}

/**
 * The newest commit reachable from `commit` that changed `.vault/` (null: none did): a fact of
 * the commit, so kept (per installation, up to {@link CONFIGURATION_COMMITS_CACHE_BYTES}). The process's own
 * commits are entered as they land ({@link rememberConfigurationCommit}), so a run of writes
 * asks Git nothing.
 */
async function configurationCommit(host: RepoHost, repo: string, commit: string): Promise<string | null> {
  const cache = configurationCommits(host);
  const key = `${repo}\0${commit}`;
  const kept = cache.get(key);
  if (kept !== undefined) return kept === '' ? null : kept;
  const found = await host.lastCommit(repo, commit, '.vault');
  cache.set(key, found ?? '');
  return found;
}

/** Enters the process's own `commit` on `parent`: its `.vault/` commit is the parent's unless it changed `.vault/` itself. */
function rememberConfigurationCommit(host: RepoHost, repo: string, parent: string | null, commit: string, paths: readonly string[]): void {
  const cache = configurationCommits(host);
  const key = `${repo}\0${commit}`;
  const before = parent === null ? '' : cache.get(`${repo}\0${parent}`);
  if (paths.some((path) => path === '.vault' || path.startsWith('.vault/'))) cache.set(key, commit);
  else if (before !== undefined) cache.set(key, before);
}

/** Per installation: `repo NUL commit` -> its `.vault/` commit, '' for none (lru-cache keeps no null). */
const configurationCaches = new WeakMap<object, LRUCache<string, string>>();

/** The bound of each installation's cache of `.vault/` commits, in bytes (README "Memory"). */
export const CONFIGURATION_COMMITS_CACHE_BYTES = 256 * 1024;

function configurationCommits(host: RepoHost): LRUCache<string, string> {
  let cache = configurationCaches.get(sharedStateKey(host));
  if (cache === undefined) {
    cache = byteCache<string, string>({
      maxBytes: CONFIGURATION_COMMITS_CACHE_BYTES,
      sizeOf: (value, key) => estimateBytes(key) + estimateBytes(value),
    });
    configurationCaches.set(sharedStateKey(host), cache);
  }
  return cache;
}

/**
 * Refuses a change that would turn a text file into a binary one: content with a NUL
 * character (U+0000) is not text (note-text.ts, the one rule), so the note would drop out of
 * the index, and read_note, edit_note and the history's diffs would refuse it from then on. A
 * file that was binary already (an attachment a folder move carries) passes as it is.
 * VaultError `bad_arguments`, nothing written.
 */
async function assertStaysText(read: WriteRead, files: readonly PreparedFile[]): Promise<void> {
  for (const file of files) {
    if (file.content === null || decodeNoteText(file.content) !== null) continue;
    const source = await read.file(file.from ?? file.path);
    if (source !== null && decodeNoteText(source) === null) continue;
    throw new VaultError(
      'bad_arguments',
      `This change would put a NUL character (U+0000) into "${file.path}", which makes it a binary file that the tools can no longer read, search or edit; nothing was written. Send the text without it.`,
      { path: file.path },
    );
  }
}

/** One preparation: the state it read, what it gave, and the texts its splices are offsets into. */
interface Preparation<R> {
  read: WriteRead;
  prepared: PreparedChange<R>;
  /** Per path with splices: the text read at its `from ?? path` (null: none there). */
  bases: Map<string, string | null>;
}

/**
 * Makes one change as exactly one commit, or nothing (issue 4, "Every write"; issue 9, items 3
 * and 4):
 * 1. reads the current state as the call finds it (with `options.snapshot`, a full snapshot)
 *    and calls `prepare` on it at once: that state is the version the change is made from,
 *    also when the call then waits behind another write of this process;
 * 2. in a work tree, makes the change on the file as it stands at the branch head (see
 *    {@link onBranchHead}): the commit holds the tool's change only, and the person's
 *    uncommitted edits stay in the work-tree file around it, uncommitted;
 * 3. commits with `ctx.host.commit` (compare-and-swap: `update-ref NEW OLD` locally), authored
 *    by `ctx.access.person`, with the message of {@link commitMessage}, and `preparedFrom` = the
 *    blob id each changed path had when it was read (null: absent), so anything that appeared or
 *    changed at a path meanwhile is a conflict;
 * 4. when the head moved (or a work-tree file changed) in between, reads the new state and
 *    first decides, three-way, whether the change still stands: every file with splices
 *    (edit_note's passages) must have them untouched by what changed since the first read
 *    ({@link rebaseSplices}), else VaultError `conflict` naming the commits that changed the
 *    note and asking to read it again; then `prepare` runs again on the new state and 2-3
 *    repeat. After {@link MAX_ATTEMPTS} tries: VaultError `conflict` naming what landed;
 * 5. logs the write (`event: "write"`: repository, tool, commit, person) and awaits
 *    `ctx.refresh(repo)`, so the next read sees the write.
 * Commits to one repository from this process are made one at a time (a queue per host and
 * repository); other processes are kept apart by the compare-and-swap alone. `prepare` may
 * return no files: nothing is committed, `commit` is null. Refusals thrown by `prepare` pass
 * through unchanged; on a retry they say that the repository moved meanwhile.
 */
export async function commitChange<R>(
  ctx: WriteContext,
  repo: string,
  parts: { tool: string; summary: string },
  prepare: (read: WriteRead) => Promise<PreparedChange<R>>,
  options: CommitChangeOptions = {},
): Promise<CommittedChange<R>> {
  const vault = writableVault(ctx, repo);
  const message = commitMessage({ summary: parts.summary, tool: parts.tool, clientName: ctx.clientName });
  // The state one attempt prepares from, asked of the host: a full snapshot, or its head
  // (`knownHead` instead, when given) and then path by path.
  const readState = async (knownHead: string | undefined) =>
    options.snapshot
      ? snapshotReader(ctx.host, repo, await ctx.host.snapshot(repo))
      : await pathReader(ctx.host, repo, knownHead ?? (await ctx.host.head(repo)));
  const prepareOn = async (reader: Reader, attempt: number): Promise<Preparation<R>> => {
    const { read } = reader;
    await assertConfigurationHolds(ctx.host, repo, vault, read.head);
    let prepared: PreparedChange<R>;
    try {
      prepared = await prepare(read);
    } catch (error) {
      if (attempt > 1 && isVaultError(error) && error.code !== 'conflict') {
        throw new VaultError(
          error.code,
          `The repository changed while this call was being made (now at ${short(read.head)}), and on the new state: ${error.message}`,
          error.details,
        );
      }
      throw error;
    }
    await assertStaysText(read, prepared.files);
    // A path the tool wrote without reading it counts as prepared from what is there now.
    await reader.lookAt(prepared.files.flatMap((file) => (file.from === undefined ? [file.path] : [file.path, file.from])));
    const bases = new Map<string, string | null>();
    for (const file of prepared.files) if (file.splices !== undefined) bases.set(file.path, await read.text(file.from ?? file.path));
    return { read, prepared, bases };
  };

  const first = await prepareFirst(ctx, repo, options, readState, prepareOn);
  if (first.prepared.files.length === 0) return { commit: null, parent: first.read.head, result: first.prepared.result, notes: [] };
  return inQueue(ctx.host, repo, async () => {
    let lastConflict: { head: string | null; path?: string } | null = null;
    const touched = new Set<string>();
    let current = first;
    for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) {
      if (attempt > 1) {
        // The compare-and-swap failed: the host is asked again for its head and files, never a
        // state kept here (not this process's last commit, not the head the refusal named),
        // since a hosted mirror may be one fetch behind the branch that refused the commit.
        const reader = await readState(undefined);
        await assertPassagesStand(ctx.host, repo, first, reader.read);
        current = await prepareOn(reader, attempt);
        if (current.prepared.files.length === 0)
          return { commit: null, parent: current.read.head, result: current.prepared.result, notes: [] };
      }
      const { read, prepared } = current;
      const preparedFrom = new Map<string, string | null>();
      for (const file of prepared.files) {
        preparedFrom.set(file.path, read.oid(file.path));
        touched.add(file.path);
      }
      const placed = await onBranchHead(ctx.host, repo, read, prepared.files);
      const outcome = await ctx.host.commit(
        repo,
        { parent: read.head, files: placed.files, author: ctx.access.person, message: withTrailers(message, current.prepared.trailers) },
        preparedFrom,
      );
      if (outcome.ok) {
        rememberCommit(ctx.host, repo, outcome.commit);
        rememberConfigurationCommit(
          ctx.host,
          repo,
          read.head,
          outcome.commit,
          placed.files.map((file) => file.path),
        );
        ctx.log.info(
          { event: 'write', repo, commit: outcome.commit, person: ctx.access.person.login, files: prepared.files.length },
          `${parts.tool} by ${ctx.access.person.login} committed ${outcome.commit.slice(0, 12)} to ${repo}`,
        );
        const notes = [...placed.notes];
        try {
          await ctx.refresh(repo);
        } catch {
          notes.push(
            'The change is committed; the index did not take it in yet and catches up within seconds, so a search right now may not show it.',
          );
        }
        return { commit: outcome.commit, parent: read.head, result: prepared.result, notes };
      }
      forgetOwnCommit(ctx.host, repo);
      lastConflict = outcome.path === undefined ? { head: outcome.head } : { head: outcome.head, path: outcome.path };
      if (attempt < MAX_ATTEMPTS) await pause(attempt);
    }
    throw await conflictError(ctx.host, repo, first.read.head, lastConflict, [...touched]);
  });
}

/**
 * The first preparation of a change. It starts from this process's last commit in `repo`
 * when there is one (no need to ask the host for its head during a run of writes), but
 * commits made elsewhere since (a push, a commit in the work tree, a `.vault/` change read
 * since) may have moved the branch past it: then a refusal there (a passage not found, a
 * configuration that is not the call's) would speak of an old state, and refuse forever. So a
 * refusal on that commit stands only when it is still the host's head; otherwise the process
 * forgets it and prepares again on the host's head, where the refusal is decided anew.
 */
async function prepareFirst<R>(
  ctx: WriteContext,
  repo: string,
  options: CommitChangeOptions,
  readState: (knownHead: string | undefined) => Promise<Reader>,
  prepareOn: (reader: Reader, attempt: number) => Promise<Preparation<R>>,
): Promise<Preparation<R>> {
  const known = options.snapshot ? undefined : ownLastCommit(ctx.host, repo);
  try {
    return await prepareOn(await readState(known), 1);
  } catch (error) {
    if (known === undefined || !isVaultError(error)) throw error;
    const head = await ctx.host.head(repo);
    if (head === known) throw error;
    forgetOwnCommit(ctx.host, repo, known);
    return prepareOn(await readState(head ?? undefined), 1);
  }
}

/**
 * The three-way decision of a retry (issue 9, item 3): each file of the first preparation that
 * carries splices must still have every passage as it was, untouched by what changed between
 * the text first read and the text read now (line by line as `git merge-file` compares, and
 * within a line by character, so two passages of one line both land). Otherwise VaultError
 * `conflict` naming the commits since the first read that changed the note, or saying the
 * change came from the work tree, and asking to read the note again.
 */
async function assertPassagesStand<R>(host: RepoHost, repo: string, first: Preparation<R>, now: WriteRead): Promise<void> {
  for (const file of first.prepared.files) {
    if (file.splices === undefined) continue;
    const source = file.from ?? file.path;
    const base = first.bases.get(file.path) ?? null;
    const text = await now.text(source);
    if (base === null || text === null) {
      if (base === text) continue;
    } else if (!('touching' in rebaseSplices(base, file.splices, text))) {
      continue;
    }
    const commits = await commitsTouching(host, repo, first.read.head, now.head, source);
    const by = commits.length > 0 ? ` by ${commits.map((line) => `"${line}"`).join(', ')}` : ' in the work tree (not committed)';
    throw new VaultError(
      'conflict',
      `"${source}" was changed${by} while this change was being made, at the very passage it replaces, so nothing was written. Read the note again and send the passage as it is now.`,
      { path: source, commits, head: now.head },
    );
  }
}

/** The commits between `from` and `to` that changed `path`, newest first, as "short id author: subject" (at most 5). */
async function commitsTouching(host: RepoHost, repo: string, from: string | null, to: string | null, path: string): Promise<string[]> {
  if (to === null || from === to) return [];
  try {
    return (await host.commitsTouching(repo, from, to, path)).map(commitLine);
  } catch {
    return []; // the naming is a courtesy; the refusal stands without it
  }
}

/**
 * The files as they are committed, for a work tree (issue 9, item 4): a write commits only its
 * own change, made on each file as it stands at the branch head (`read.head`), while the
 * work-tree file gets `content` (the change made on the text the tool read there, the
 * person's uncommitted edits included), so those edits stay there, uncommitted. Per file:
 * - unchanged since the head (or no work tree): committed as the tool made it;
 * - with uncommitted edits: the tool's splices (or the difference it made) carried onto the
 *   head's text with {@link rebaseSplices}; where an uncommitted edit touches them (the passage
 *   stands only in uncommitted text), or the file is not text, the file is committed as it
 *   stands in the work tree, and a note says so;
 * - untracked (not at the head): committed whole, as it stands, and a note says so;
 * - absent in the work tree but at the head (deleted there, not committed): VaultError
 *   `exists`, since writing it would replace the committed file unseen.
 * Notes name each file committed beyond the change.
 */
async function onBranchHead(
  host: RepoHost,
  repo: string,
  read: WriteRead,
  files: readonly PreparedFile[],
): Promise<{ files: FileChange[]; notes: string[] }> {
  const plain = files.map((file) => ({ path: file.path, content: file.content, ...movedFrom(file) }));
  // Where the current state is always the head's tree, what was read is what is committed.
  if (!(await host.keepsUncommittedChanges(repo))) return { files: plain, notes: [] };
  // A path the snapshot knows to be as the head has it needs no look at the head's tree; nor
  // does one it lacks and does not name as uncommitted (a deletion in the work tree or the index
  // is named): it is absent at the head too (a move's target, a new note).
  const uncommitted = read.snapshot?.uncommitted;
  const asAtHead = (path: string) => uncommitted !== undefined && read.oid(path) !== null && !uncommitted.has(path);
  const absentAtHead = (path: string) => uncommitted !== undefined && read.oid(path) === null && !uncommitted.has(path);
  const sources = [...new Set(files.flatMap((file) => [file.path, file.from ?? file.path]))];
  const atHead = await host.filesAt(
    repo,
    read.head,
    sources.filter((path) => !asAtHead(path) && !absentAtHead(path)),
  );
  const out: FileChange[] = [];
  const whole: string[] = [];
  const untracked: string[] = [];
  for (const file of files) {
    const source = file.from ?? file.path;
    if (file.content === null) {
      out.push({ path: file.path, content: null });
      continue;
    }
    if (read.oid(file.path) === null && atHead.get(file.path) && file.path !== source) {
      throw deletedUncommitted(file.path);
    }
    const readOid = read.oid(source);
    if (asAtHead(source)) {
      out.push({ path: file.path, content: file.content, ...movedFrom(file) });
      continue;
    }
    const head = atHead.get(source) ?? null;
    if (readOid === null) {
      if (head !== null) throw deletedUncommitted(file.path);
      out.push({ path: file.path, content: file.content, ...movedFrom(file) });
      continue;
    }
    if (head !== null && head.oid === readOid) {
      out.push({ path: file.path, content: file.content, ...movedFrom(file) });
      continue;
    }
    if (head === null) {
      untracked.push(file.path);
      out.push({ path: file.path, content: file.content, ...movedFrom(file) });
      continue;
    }
    // Unreadable now (changed on disk since): committed as it stands, and the commit's own check makes it a retry.
    const readBytes = await read.file(source).catch(() => null);
    const committed = readBytes === null ? null : carried(readBytes, file, head.content);
    if (committed === null) {
      whole.push(file.path);
      out.push({ path: file.path, content: file.content, ...movedFrom(file) });
    } else {
      out.push({ path: file.path, content: committed, currentContent: file.content, ...movedFrom(file) });
    }
  }
  const notes: string[] = [];
  if (untracked.length > 0) {
    notes.push(
      `${quoteList(untracked)} ${untracked.length === 1 ? 'was' : 'were'} not committed before (untracked), so this commit adds ${untracked.length === 1 ? 'the whole file' : 'them whole'} as ${untracked.length === 1 ? 'it stands' : 'they stand'} in the work tree.`,
    );
  }
  if (whole.length > 0) {
    notes.push(
      `This change to ${quoteList(whole)} falls on uncommitted edits there (the passage is not in the last commit as it is in the work tree), so this commit holds ${whole.length === 1 ? 'that whole file' : 'those whole files'} as ${whole.length === 1 ? 'it stands' : 'they stand'} in the work tree, those edits included.`,
    );
  }
  return { files: out, notes };
}

/** `from` of a file made from another path (a moved note), for the index to keep the note it was. */
function movedFrom(file: PreparedFile): { from?: string } {
  return file.from !== undefined && file.from !== file.path ? { from: file.from } : {};
}

/** The change of `file` (made on `readBytes`) made on `headBytes` instead; null when it cannot be carried there. */
function carried(readBytes: Buffer, file: PreparedFile, headBytes: Buffer): Buffer | null {
  const content = file.content!;
  // Moved without a change of its own: the head's bytes go to the new path.
  if (file.splices === undefined && content.equals(readBytes)) return headBytes;
  const base = decodeNoteText(readBytes);
  const changed = decodeNoteText(content);
  const head = decodeNoteText(headBytes);
  if (base === null || changed === null || head === null) return null;
  const splices = file.splices ?? splicesBetween(base, changed);
  if (splices === null) return null;
  const result = rebaseSplices(base, splices, head);
  return 'touching' in result ? null : Buffer.from(result.text, 'utf8');
}

/** VaultError `exists` for a path deleted in the work tree but still in the last commit. */
function deletedUncommitted(path: string): VaultError {
  return new VaultError(
    'exists',
    `"${path}" is deleted in the work tree, but that deletion is not committed, so the last commit still holds the file, and this change would replace it unseen. Nothing was written. Commit the deletion (or restore the file) first, or choose another path.`,
    { path },
  );
}

function quoteList(paths: readonly string[]): string {
  return paths.map((path) => `"${path}"`).join(', ');
}

/**
 * A {@link WriteRead} and `lookAt(paths)`, which reads the paths not read or listed yet, so
 * that {@link WriteRead.oid} can answer for each of them.
 */
interface Reader {
  read: WriteRead;
  lookAt(paths: readonly string[]): Promise<void>;
}

/** Reads of one snapshot: by blob id, so every read sees the same state as the head. */
function snapshotReader(host: RepoHost, repo: string, snapshot: Snapshot): Reader {
  const oids = new Map(snapshot.files.map((entry) => [entry.path, entry.oid]));
  const files = async (paths: readonly string[]): Promise<Map<string, Buffer>> => {
    const present = paths.filter((path) => oids.has(path));
    const out = new Map<string, Buffer>();
    if (present.length === 0) return out;
    const blobs = await host.readBlobs(
      repo,
      present.map((path) => oids.get(path)!),
    );
    present.forEach((path, i) => out.set(path, blobs[i]!));
    return out;
  };
  const file = async (path: string) => (await files([path])).get(path) ?? null;
  const read: WriteRead = {
    snapshot,
    head: snapshot.head,
    oid: (path) => oids.get(path) ?? null,
    file,
    text: async (path) => {
      const content = await file(path);
      return content === null ? null : decodeNoteText(content);
    },
    files,
    folder: (folder) => host.folderEntries(repo, snapshot.head, folder),
    links: (paths) => linksOnPaths(host, repo, snapshot.head, paths),
  };
  return { read, lookAt: async () => undefined };
}

/**
 * Reads of the current state path by path, without a snapshot, on top of `head` (the host's
 * head, or the commit this process made last, which saves asking per call while no one else
 * commits; when someone did, the compare-and-swap refuses it and the retry asks the host
 * afresh): each file as the host has it now (`currentFiles`: uncommitted changes included,
 * where the host keeps them). A file read after the head may be newer than it; the commit's
 * compare-and-swap and `preparedFrom` turn that into a retry, never into a lost change.
 */
async function pathReader(host: RepoHost, repo: string, head: string | null): Promise<Reader> {
  const seen = new Map<string, BlobFile | null>();
  const listed = new Map<string, Set<string>>();
  const files = async (paths: readonly string[]): Promise<Map<string, Buffer>> => {
    const unread = [...new Set(paths.filter((path) => !seen.has(path)))];
    if (unread.length > 0) {
      for (const [path, entry] of await host.currentFiles(repo, head, unread)) seen.set(path, entry);
    }
    const out = new Map<string, Buffer>();
    for (const path of paths) {
      const entry = seen.get(path);
      if (entry) out.set(path, entry.content);
    }
    return out;
  };
  const file = async (path: string) => (await files([path])).get(path) ?? null;
  // Looked at: read, or known absent because its folder was listed without it.
  const looked = (path: string) => seen.has(path) || listed.get(parentFolder(path))?.has(path) === false;
  const read: WriteRead = {
    snapshot: null,
    head,
    oid: (path) => {
      const entry = seen.get(path);
      if (entry !== undefined) return entry?.oid ?? null;
      const folder = listed.get(parentFolder(path));
      if (folder !== undefined && !folder.has(path)) return null;
      throw new Error(`"${path}" was neither read nor listed before the change was prepared; read it first.`);
    },
    file,
    text: async (path) => {
      const content = await file(path);
      return content === null ? null : decodeNoteText(content);
    },
    files,
    folder: async (folder) => {
      const entries = await host.folderEntries(repo, head, folder);
      listed.set(folder, new Set(entries.map((entry) => entry.path)));
      return entries;
    },
    links: (paths) => linksOnPaths(host, repo, head, paths),
  };
  return { read, lookAt: async (paths) => void (await files(paths.filter((path) => !looked(path)))) };
}

function parentFolder(path: string): string {
  const folder = posix.dirname(path);
  return folder === '.' ? '' : folder;
}

/** The refusal after the last attempt: which commits landed since the change was first prepared, and what they touched. */
async function conflictError(
  host: RepoHost,
  repo: string,
  from: string | null,
  last: { head: string | null; path?: string } | null,
  paths: string[],
): Promise<VaultError> {
  if (last?.path !== undefined) {
    return new VaultError(
      'conflict',
      `"${last.path}" has uncommitted changes in the work tree that kept changing while this change was being made, so nothing was written. Save or commit the edits there, read the note again, and retry.`,
      { path: last.path },
    );
  }
  let what = '';
  try {
    if (from !== null && last?.head) {
      const described = await host.describeConflict(repo, from, last.head, paths);
      const commits = described.commits.map(commitLine);
      const files = described.changed;
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

/** A commit as a conflict names it: "short id author: subject". */
function commitLine(line: CommitLine): string {
  return `${line.shortId} ${line.author}: ${line.subject}`;
}

const lastCommits = new WeakMap<object, Map<string, string>>();

/** The commit this process last made in `repo` through `host`; undefined when none (or after a conflict). */
function ownLastCommit(host: RepoHost, repo: string): string | undefined {
  return lastCommits.get(sharedStateKey(host))?.get(repo);
}

/** Forgets the process's last commit in `repo` (only if it is still `commit`, when given): the next write asks the host for its head. */
function forgetOwnCommit(host: RepoHost, repo: string, commit?: string): void {
  const perRepo = lastCommits.get(sharedStateKey(host));
  if (commit === undefined || perRepo?.get(repo) === commit) perRepo?.delete(repo);
}

function rememberCommit(host: RepoHost, repo: string, commit: string): void {
  let perRepo = lastCommits.get(sharedStateKey(host));
  if (perRepo === undefined) lastCommits.set(sharedStateKey(host), (perRepo = new Map()));
  perRepo.set(repo, commit);
}

const queues = new WeakMap<object, KeyedQueue>();

/** Runs `work` after every earlier write to the same repository of the same installation in this process. */
function inQueue<T>(host: RepoHost, repo: string, work: () => Promise<T>): Promise<T> {
  let perRepo = queues.get(sharedStateKey(host));
  if (perRepo === undefined) {
    perRepo = new KeyedQueue();
    queues.set(sharedStateKey(host), perRepo);
  }
  return perRepo.run(repo, work);
}

/** A short, jittered wait before the next attempt, so competing writers spread out. */
function pause(attempt: number): Promise<void> {
  const ms = Math.random() * 20 * attempt;
  return new Promise((resolve) => setTimeout(resolve, ms));
}

function short(commit: string | null): string {
  return commit === null ? 'an empty history' : commit.slice(0, 12);
}
