// One `git cat-file --batch` that tells what a commit needs to know about the paths it changes.
import { parseCatFileBatch } from '../git/cat-file-batch.ts';
import { runGit } from '../git/run-git.ts';

/** An entry of a Git tree: mode as Git writes it (`100644`, `100755`, `120000`, `160000`, `040000`) and object id. */
export interface TreeItem {
  mode: string;
  oid: string;
}

/** What {@link lookAtPaths} found. */
export interface PathLook {
  /** The commit HEAD resolves to now; null for an unborn branch. */
  head: string | null;
  /** Each asked path's entry in the parent's tree (files, links, submodules, folders); absent paths are left out. */
  entries: Map<string, TreeItem>;
  /**
   * Paths whose way down the parent's tree is blocked by something that is not a folder:
   * path → the ancestor that is a file (or link, or submodule).
   */
  blocked: Map<string, string>;
  /** With `index`: each path's stage-0 blob id in the index, or null when the index has none. */
  indexOids: Map<string, string | null>;
  /** The parent's raw tree objects at the root ('') and each folder on the way to a path; a folder it lacks is left out. */
  trees: Map<string, Buffer>;
}

/** Reads objects by names whose answers never change (KeptCatFiles.objects): null for a missing one. */
export type StableObjectReader = (
  gitDir: string,
  names: readonly string[],
) => Promise<Array<{ oid: string; type: string; content: Buffer } | null>>;

/**
 * What the caller knows already of the state under the index lock, from a snapshot proven
 * current (LocalSnapshots.beforeOwnCommit): the head, and that none of the paths has
 * uncommitted changes (so each path's index entry is the head's).
 */
export interface KnownState {
  head: string | null;
}

/**
 * Asks one `git cat-file --batch` (Git's object names: `HEAD`, `<commit>^{tree}`,
 * `<commit>:<folder>`, `:0:<path>`) for the current head, the parent's tree along every path
 * (the root and each folder on the way, parsed from Git's tree format: `<mode> <name>\0<raw id>`)
 * and, with `index`, each path's index entry. Paths must be validated repository paths without
 * line breaks (the batch protocol is line-based). One process instead of rev-parse, ls-tree and
 * ls-files.
 *
 * With `known` (the caller's head and a promise that no path has uncommitted changes) and
 * `objects` (a kept `cat-file`), no process is started: the head is `known.head`, the trees are
 * read from `objects` level by level by their ids (never a name that may be missing), and each
 * path's index entry is its entry at the head (a blob or link; null for anything else or none).
 */
export async function lookAtPaths(
  gitDir: string,
  parent: string | null,
  paths: readonly string[],
  options: { index: boolean; known?: KnownState; objects?: StableObjectReader },
): Promise<PathLook> {
  const folders = new Set<string>();
  if (parent !== null) {
    for (const path of paths) {
      const segments = path.split('/');
      for (let i = 0; i < segments.length; i++) folders.add(segments.slice(0, i).join('/'));
    }
  }
  const folderList = [...folders];
  const trees = new Map<string, Map<string, TreeItem>>();
  const rawTrees = new Map<string, Buffer>();
  let head: string | null;
  let indexAnswers: Array<{ type: string; oid: string } | null> | null = null;
  if (options.known !== undefined && options.objects !== undefined) {
    head = options.known.head;
    if (parent !== null && head === parent) await readTreesByLevel(gitDir, parent, folderList, options.objects, trees, rawTrees);
  } else {
    const names = [
      'HEAD',
      ...folderList.map((folder) => (folder === '' ? `${parent}^{tree}` : `${parent}:${folder}`)),
      ...(options.index ? paths.map((path) => `:0:${path}`) : []),
    ];
    const { stdout } = await runGit(['cat-file', '--batch'], { gitDir, input: `${names.join('\n')}\n` });
    const answers = parseCatFileBatch(stdout, names);
    const headAnswer = answers[0];
    head = headAnswer?.type === 'commit' ? headAnswer.oid : null;
    folderList.forEach((folder, i) => {
      const answer = answers[1 + i];
      if (answer?.type === 'tree') {
        trees.set(folder, parseTree(answer.content, answer.oid.length / 2));
        rawTrees.set(folder, answer.content);
      }
    });
    if (options.index) indexAnswers = answers.slice(1 + folderList.length);
  }

  const entries = new Map<string, TreeItem>();
  const blocked = new Map<string, string>();
  if (parent !== null) {
    for (const path of paths) {
      const segments = path.split('/');
      for (let i = 0; i < segments.length; i++) {
        const folder = segments.slice(0, i).join('/');
        const item = trees.get(folder)?.get(segments[i]!);
        if (item === undefined) break;
        const here = segments.slice(0, i + 1).join('/');
        if (i === segments.length - 1) entries.set(path, item);
        else if (item.mode !== '040000') {
          blocked.set(path, here);
          break;
        }
      }
    }
  }

  const indexOids = new Map<string, string | null>();
  if (options.index) {
    paths.forEach((path, i) => {
      if (indexAnswers !== null) {
        const answer = indexAnswers[i];
        indexOids.set(path, answer?.type === 'blob' ? answer.oid : null);
      } else {
        // Known unchanged since the head: the index holds the head's entry (folders and submodules are no blob).
        const entry = entries.get(path);
        indexOids.set(path, entry !== undefined && entry.mode !== '040000' && entry.mode !== '160000' ? entry.oid : null);
      }
    });
  }
  return { head, entries, blocked, indexOids, trees: rawTrees };
}

/**
 * Reads the trees of `folders` ('' the root) at `parent` into `trees` (parsed) and `rawTrees`, through `objects`: the
 * root by `<parent>^{tree}`, then each deeper folder by the id its parent tree gives it, one
 * batch per depth; a folder the parent's tree lacks (or holds as something else) is left out.
 */
async function readTreesByLevel(
  gitDir: string,
  parent: string,
  folders: readonly string[],
  objects: StableObjectReader,
  trees: Map<string, Map<string, TreeItem>>,
  rawTrees: Map<string, Buffer>,
): Promise<void> {
  const byDepth = new Map<number, string[]>();
  for (const folder of folders) {
    const depth = folder === '' ? 0 : folder.split('/').length;
    const list = byDepth.get(depth);
    if (list === undefined) byDepth.set(depth, [folder]);
    else list.push(folder);
  }
  const depths = [...byDepth.keys()].sort((a, b) => a - b);
  for (const depth of depths) {
    const asked: Array<{ folder: string; name: string }> = [];
    for (const folder of byDepth.get(depth)!) {
      if (folder === '') {
        asked.push({ folder, name: `${parent}^{tree}` });
        continue;
      }
      const slash = folder.lastIndexOf('/');
      const item = trees.get(slash === -1 ? '' : folder.slice(0, slash))?.get(folder.slice(slash + 1));
      if (item?.mode === '040000') asked.push({ folder, name: item.oid });
    }
    if (asked.length === 0) continue;
    const answers = await objects(
      gitDir,
      asked.map((one) => one.name),
    );
    asked.forEach(({ folder }, i) => {
      const answer = answers[i];
      if (answer?.type === 'tree') {
        trees.set(folder, parseTree(answer.content, answer.oid.length / 2));
        rawTrees.set(folder, answer.content);
      }
    });
  }
}

/** Parses a raw tree object (`<mode> <name>\0<id bytes>` repeated) into name → entry. */
export function parseTree(content: Buffer, idBytes: number): Map<string, TreeItem> {
  const items = new Map<string, TreeItem>();
  let at = 0;
  while (at < content.length) {
    const space = content.indexOf(0x20, at);
    const nul = content.indexOf(0x00, space + 1);
    if (space === -1 || nul === -1 || nul + 1 + idBytes > content.length) throw new Error('Malformed tree object from git cat-file');
    const mode = content.toString('latin1', at, space).padStart(6, '0');
    const name = content.toString('utf8', space + 1, nul);
    items.set(name, { mode, oid: content.toString('hex', nul + 1, nul + 1 + idBytes) });
    at = nul + 1 + idBytes;
  }
  return items;
}
