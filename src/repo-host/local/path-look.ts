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
}

/**
 * Asks one `git cat-file --batch` (Git's object names: `HEAD`, `<commit>^{tree}`,
 * `<commit>:<folder>`, `:0:<path>`) for the current head, the parent's tree along every path
 * (the root and each folder on the way, parsed from Git's tree format: `<mode> <name>\0<raw id>`)
 * and, with `index`, each path's index entry. Paths must be validated repository paths without
 * line breaks (the batch protocol is line-based). One process instead of rev-parse, ls-tree and
 * ls-files.
 */
export async function lookAtPaths(
  gitDir: string,
  parent: string | null,
  paths: readonly string[],
  options: { index: boolean },
): Promise<PathLook> {
  const folders = new Set<string>();
  if (parent !== null) {
    for (const path of paths) {
      const segments = path.split('/');
      for (let i = 0; i < segments.length; i++) folders.add(segments.slice(0, i).join('/'));
    }
  }
  const folderList = [...folders];
  const names = [
    'HEAD',
    ...folderList.map((folder) => (folder === '' ? `${parent}^{tree}` : `${parent}:${folder}`)),
    ...(options.index ? paths.map((path) => `:0:${path}`) : []),
  ];
  const { stdout } = await runGit(['cat-file', '--batch'], { gitDir, input: `${names.join('\n')}\n` });

  const answers = parseCatFileBatch(stdout, names);

  const headAnswer = answers[0];
  const head = headAnswer?.type === 'commit' ? headAnswer.oid : null;
  const trees = new Map<string, Map<string, TreeItem>>();
  folderList.forEach((folder, i) => {
    const answer = answers[1 + i];
    if (answer?.type === 'tree') trees.set(folder, parseTree(answer.content, answer.oid.length / 2));
  });

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
      const answer = answers[1 + folderList.length + i];
      indexOids.set(path, answer?.type === 'blob' ? answer.oid : null);
    });
  }
  return { head, entries, blocked, indexOids };
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
