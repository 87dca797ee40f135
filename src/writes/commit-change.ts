// The shared write flow: read, prepare, commit with compare-and-swap, retry on a moved head,
// then bring the index up to date. Every write tool goes through commitChange.
import { readdir } from 'node:fs/promises';
import { join, posix } from 'node:path';
import { decodeNoteText } from '../notes/note-text.ts';
import { blobId, type ObjectFormat } from '../repo-host/git/blob-id.ts';
import { catFileBatch } from '../repo-host/git/cat-file-batch.ts';
import { runGit, splitNul } from '../repo-host/git/run-git.ts';
import type { FileChange, Mirror, RepoHost, Snapshot } from '../repo-host/repo-host.ts';
import type { ToolContext, Vault } from '../instance/tool.ts';
import { isVaultError, VaultError } from '../vault-error.ts';
import { commitMessage } from './commit-message.ts';
import { linksOnPaths, type LinkOnPath } from './symlinks.ts';

/** How many times a change is prepared and committed before a moving head is a conflict. */
export const MAX_ATTEMPTS = 6;

/** An entry directly in a folder of the current state, as {@link WriteRead.folder} lists it. */
export interface FolderEntry {
  /** Repository path of the entry. */
  path: string;
  /** `file` (regular), `symlink`, `submodule` (a repository inside) or `folder`. */
  kind: 'file' | 'symlink' | 'submodule' | 'folder';
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
 * 1. reads the head, then calls `prepare` with reads of the current state (with
 *    `options.snapshot`, of a full snapshot);
 * 2. commits `files` on the snapshot's head with `ctx.host.commit` (compare-and-swap:
 *    `update-ref NEW OLD` locally), authored by `ctx.access.person`, with the message of
 *    {@link commitMessage}, and `preparedFrom` = the blob id each changed path had when it was
 *    read (null: absent), so a work tree's uncommitted edit the change was made on top of is not a
 *    conflict, and anything that appeared or changed at a path meanwhile is;
 * 3. when the head moved (or a work-tree file changed) in between, starts over from 1 on the
 *    new state: `prepare` re-reads and re-applies, so a passage edit still lands when its
 *    passage is still there exactly once. After {@link MAX_ATTEMPTS} tries: VaultError
 *    `conflict` naming the commits that landed meanwhile and the files they touched;
 * 4. logs the write (`event: "write"`: repository, tool, commit, person) and awaits
 *    `ctx.refresh(repo)`, so the next read sees the write.
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
  options: CommitChangeOptions = {},
): Promise<CommittedChange<R>> {
  writableVault(ctx, repo);
  const message = commitMessage({ summary: parts.summary, tool: parts.tool, clientName: ctx.clientName });
  return inQueue(ctx.host, repo, async () => {
    let firstHead: string | null | undefined;
    let lastConflict: { head: string | null; path?: string } | null = null;
    const touched = new Set<string>();
    const mirror = await ctx.host.mirror(repo);
    for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) {
      const head = attempt === 1 ? lastCommitOf(ctx.host, repo) : undefined;
      const { read, lookAt } = options.snapshot ? snapshotReader(ctx.host, repo, mirror, await ctx.host.snapshot(repo)) : await pathReader(ctx.host, repo, mirror, head);
      if (firstHead === undefined) firstHead = read.head;
      let prepared: PreparedChange<R>;
      try {
        prepared = await prepare(read);
      } catch (error) {
        if (attempt > 1 && isVaultError(error) && error.code !== 'conflict') {
          throw new VaultError(error.code, `The repository changed while this call was being made (now at ${short(read.head)}), and on the new state: ${error.message}`, error.details);
        }
        throw error;
      }
      if (prepared.files.length === 0) return { commit: null, parent: read.head, result: prepared.result, notes: [] };
      // A path the tool wrote without reading it counts as prepared from what is there now.
      await lookAt(prepared.files.map((file) => file.path));
      const preparedFrom = new Map<string, string | null>();
      for (const file of prepared.files) {
        preparedFrom.set(file.path, read.oid(file.path));
        touched.add(file.path);
      }
      const outcome = await ctx.host.commit(repo, { parent: read.head, files: prepared.files, author: ctx.access.person, message }, preparedFrom);
      if (outcome.ok) {
        rememberCommit(ctx.host, repo, outcome.commit);
        ctx.log.info(
          { event: 'write', repo, tool: parts.tool, commit: outcome.commit, person: ctx.access.person.login, files: prepared.files.length },
          `${parts.tool} by ${ctx.access.person.login} committed ${outcome.commit.slice(0, 12)} to ${repo}`,
        );
        const notes: string[] = [];
        try {
          await ctx.refresh(repo);
        } catch {
          notes.push('The change is committed; the index did not take it in yet and catches up within seconds, so a search right now may not show it.');
        }
        return { commit: outcome.commit, parent: read.head, result: prepared.result, notes };
      }
      lastCommits.get(ctx.host)?.delete(repo);
      lastConflict = outcome.path === undefined ? { head: outcome.head } : { head: outcome.head, path: outcome.path };
      if (attempt < MAX_ATTEMPTS) await pause(attempt);
    }
    throw await conflictError(ctx.host, repo, firstHead ?? null, lastConflict, [...touched]);
  });
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
function snapshotReader(host: RepoHost, repo: string, mirror: Mirror, snapshot: Snapshot): Reader {
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
    folder: (folder) => listFolder(mirror, snapshot.head, folder),
    links: (paths) => linksOnPaths(mirror, snapshot.head, paths),
  };
  return { read, lookAt: async () => undefined };
}

/**
 * Reads of the current state path by path, without a snapshot: the head first (`rev-parse`, or
 * `knownHead`: the commit this process made last, which saves a git process per call while no
 * one else commits; when someone did, the compare-and-swap refuses it and the retry reads the
 * head afresh), then each file as the host has it now (`readFile`: the work tree's file, hashed here for its
 * blob id; in a bare repository the head's blob, by `ls-tree` + one `cat-file --batch`). A file
 * read after the head may be newer than it; the commit's compare-and-swap and `preparedFrom`
 * turn that into a retry, never into a lost change.
 */
async function pathReader(host: RepoHost, repo: string, mirror: Mirror, knownHead: string | undefined): Promise<Reader> {
  const head = knownHead ?? (await currentHead(mirror.gitDir));
  const format = await objectFormat(mirror.gitDir);
  const seen = new Map<string, { oid: string; content: Buffer } | null>();
  const listed = new Map<string, Set<string>>();
  const files = async (paths: readonly string[]): Promise<Map<string, Buffer>> => {
    const unread = [...new Set(paths.filter((path) => !seen.has(path)))];
    if (unread.length > 0) {
      if (mirror.workTree !== null) {
        const contents = await Promise.all(unread.map((path) => host.readFile(repo, path)));
        unread.forEach((path, i) => {
          const content = contents[i] ?? null;
          seen.set(path, content === null ? null : { oid: blobId(content, format), content });
        });
      } else {
        for (const [path, entry] of await blobsAtHead(mirror.gitDir, head, unread)) seen.set(path, entry);
      }
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
      const entries = await listFolder(mirror, head, folder);
      listed.set(folder, new Set(entries.map((entry) => entry.path)));
      return entries;
    },
    links: (paths) => linksOnPaths(mirror, head, paths),
  };
  return { read, lookAt: async (paths) => void (await files(paths.filter((path) => !looked(path)))) };
}

/** The commit HEAD resolves to, or null for an unborn branch. */
async function currentHead(gitDir: string): Promise<string | null> {
  const { stdout, code } = await runGit(['rev-parse', '-q', '--verify', 'HEAD^{commit}'], { gitDir, okCodes: [0, 1] });
  return code === 0 ? stdout.toString('utf8').trim() : null;
}

const formats = new Map<string, Promise<ObjectFormat>>();

/** The repository's object format (SHA-1 or SHA-256), asked once per process. */
function objectFormat(gitDir: string): Promise<ObjectFormat> {
  let format = formats.get(gitDir);
  if (format === undefined) {
    format = runGit(['rev-parse', '--show-object-format'], { gitDir }).then((out) => (out.stdout.toString('utf8').trim() === 'sha256' ? 'sha256' : 'sha1'));
    format.catch(() => formats.delete(gitDir));
    formats.set(gitDir, format);
  }
  return format;
}

/** Regular files (not links or submodules) among `paths` at `head` of a bare repository, with their blobs; absent ones map to null. */
async function blobsAtHead(gitDir: string, head: string | null, paths: readonly string[]): Promise<Map<string, { oid: string; content: Buffer } | null>> {
  const found = new Map<string, { oid: string; content: Buffer } | null>(paths.map((path) => [path, null]));
  if (head === null) return found;
  const { stdout } = await runGit(['ls-tree', '-z', '--full-tree', head, '--', ...paths], { gitDir, env: LITERAL });
  const oids = new Map<string, string>();
  for (const record of splitNul(stdout)) {
    const tab = record.indexOf('\t');
    const [mode = '', type = '', oid = ''] = record.slice(0, tab).split(' ');
    const path = record.slice(tab + 1);
    if (type === 'blob' && mode !== '120000' && found.has(path)) oids.set(path, oid);
  }
  const blobs = await catFileBatch(gitDir, [...oids.values()]);
  [...oids.keys()].forEach((path, i) => {
    const blob = blobs[i];
    if (blob?.content) found.set(path, { oid: blob.oid, content: blob.content });
  });
  return found;
}

/**
 * See {@link WriteRead.folder}. In a work tree the disk is the current state: the folder's
 * entries as `readdir` gives them (a checked-out submodule is a folder there). In a bare
 * repository: `ls-tree` of the folder at the head.
 */
async function listFolder(mirror: Mirror, head: string | null, folder: string): Promise<FolderEntry[]> {
  const entries: FolderEntry[] = [];
  const prefix = folder === '' ? '' : `${folder}/`;
  if (mirror.workTree !== null) {
    const onDisk = await readdir(join(mirror.workTree, ...(folder === '' ? [] : folder.split('/'))), { withFileTypes: true }).catch(() => []);
    for (const dirent of onDisk) {
      if (folder === '' && dirent.name === '.git') continue;
      entries.push({ path: `${prefix}${dirent.name}`, kind: dirent.isSymbolicLink() ? 'symlink' : dirent.isDirectory() ? 'folder' : 'file' });
    }
  } else if (head !== null) {
    const { stdout } = await runGit(['ls-tree', '-z', '--full-tree', head, ...(folder === '' ? [] : ['--', prefix])], { gitDir: mirror.gitDir, env: LITERAL });
    for (const record of splitNul(stdout)) {
      const tab = record.indexOf('\t');
      const mode = record.slice(0, tab).split(' ')[0] ?? '';
      const path = record.slice(tab + 1);
      if (parentFolder(path) !== folder) continue;
      entries.push({ path, kind: mode === '120000' ? 'symlink' : mode === '160000' ? 'submodule' : mode === '040000' ? 'folder' : 'file' });
    }
  }
  return entries.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

function parentFolder(path: string): string {
  const folder = posix.dirname(path);
  return folder === '.' ? '' : folder;
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
      const changed = await runGit(['diff', '--name-only', '-z', from, last.head, '--', ...paths], { gitDir: mirror.gitDir, env: LITERAL });
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

/** Pathspecs are literal: a `*` or `:` in a file name is just a character. */
const LITERAL = { GIT_LITERAL_PATHSPECS: '1' };

const lastCommits = new WeakMap<RepoHost, Map<string, string>>();

/** The commit this process last made in `repo` through `host`; undefined when none (or after a conflict). */
function lastCommitOf(host: RepoHost, repo: string): string | undefined {
  return lastCommits.get(host)?.get(repo);
}

function rememberCommit(host: RepoHost, repo: string, commit: string): void {
  let perRepo = lastCommits.get(host);
  if (perRepo === undefined) lastCommits.set(host, (perRepo = new Map()));
  perRepo.set(repo, commit);
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
