// move_note: moves a note or a folder and rewrites every link that reached the moved files, in one commit.
//
// Finding the links: the links index names the notes with a link to a moved name (old or new,
// so links the move would capture too), and every note changed since it was indexed is added,
// so the notes read are exactly as fresh as the commit's parent; only those notes' blobs are
// read (see linkingNotes), then a substring filter on the moved and new file names before
// parsing. Without an index every note of the snapshot is read.
import { movedTrailer } from '../../history/moved-trailer.ts';
import { posix } from 'node:path';
import { asWikiLink, fromWikiLink, rewriteBaseReferences } from '../../bases/base-references.ts';
import type { VaultConfig } from '../../config/vault-config.ts';
import { splitFrontmatter } from '../../notes/frontmatter.ts';
import { setFrontmatterField } from '../../notes/frontmatter-writer.ts';
import { LinkResolver } from '../../notes/link-resolver.ts';
import { folderAfterMove, relinkNote } from '../../notes/link-rewrite.ts';
import { findLinks } from '../../notes/links.ts';
import { decodeNoteText } from '../../notes/note-text.ts';
import { assertInFolders, isHiddenPath, isInFolders, isReadable, normalizeVaultPath } from '../../notes/vault-path.ts';
import { VaultError } from '../../vault-error.ts';
import { commitChange, writableVault, type PreparedFile, type WriteRead } from '../../writes/commit-change.ts';
import type { NoteChange } from '../../special-tools/engine.ts';
import { refuseGuarded } from '../../special-tools/guarded-change.ts';
import { sameFileAs } from '../../writes/same-path.ts';
import { assertPortablePath } from '../../writes/portable-path.ts';
import { linkRefusal } from '../../writes/symlinks.ts';
import { fitsPlace, isTypeExempt, placeRefusal, requireType, schemaProblems, schemaRefusal, typeNameOf } from '../../writes/type-rules.ts';
import { targetKey } from '../../note-index/note-index.ts';
import type { Snapshot } from '../../repo-host/repo-host.ts';
import { implement, type ToolContext } from '../tool.ts';
import { moveNote as definition } from '../../tools/move-note.ts';
import { ANSWER_LIMIT, fitAnswer } from './answer-budget.ts';
import { existingPath, withoutRepoPrefix } from './existing-path.ts';

/**
 * The resolver over the paths the last prepared move would leave (one only, of whatever
 * repository moved last: its maps over that repository's paths): used again only when it holds
 * exactly the paths of the next move's snapshot ({@link LinkResolver.holdsExactly}), so a stale
 * one is never read.
 */
let lastResolver: LinkResolver | null = null;

/** What a prepared move answers, before the commit is known. */
interface MoveResult {
  from: string;
  to: string;
  files: number;
  links: number;
  updated: Array<{ path: string; links: number }>;
  outsideReferences: number;
  notes: string[];
  /** Set when the move was already made: the commit that holds the target. */
  already: string | null;
}

/**
 * The `move_note` tool (spec: "move_note"; issue 4). Moves one note (or file), or a whole
 * folder, in one commit that also rewrites every link that resolved to a moved file, across
 * the repository's open folders (see {@link relinkNote} for how each link keeps its form; links
 * to a moved folder follow it too), and every note or folder a `.base` file names in its filters
 * and formulas (see {@link rewriteBaseReferences}); the answer lists as many updated files as
 * fit in 40,000 characters, its counts whole. Links from files outside the open folders are counted in `outsideReferences`, never named. The
 * target must not exist, except for a move that only changes case; missing folders appear by
 * themselves. `type` (one note only) changes the type field in the same commit: the target must
 * fit one of the new type's places and the note its schema. Without `type`, a target the note's
 * type does not allow is refused with the allowed places (for a folder: only notes that fitted
 * before and would not after). Called again after it succeeded, it answers the commit that holds
 * the target and changes nothing. The target must suit a checkout on macOS and Windows too (see
 * {@link assertPortablePath}): a name or folder that differs from one that stays only in case
 * is refused with `exists`, a name Windows cannot hold with `invalid_path`. A symbolic link is not a note: moving one, or a folder holding
 * one, is refused (`not_a_note`, naming where it points), and a link is never rewritten (its
 * target is, when it is a note).
 */
export const moveNote = implement(definition, {
  async handler(input, ctx) {
    const vault = writableVault(ctx, input.repo);
    const config = vault.config;
    // The source by the spelling the repository holds (exactly as given first, then ignoring Unicode
    // normalisation); the target is a new name, in NFC.
    const from = (
      await existingPath(ctx.host, input.repo, input.from, 'folder', {
        repo: input.repo,
        lineBreaks: 'refuse',
        tool: 'move_note',
        folders: config.settings.folders,
      })
    ).path;
    // A target written `<repo>/<path>` is read by the same rule as `from` (withoutRepoPrefix).
    const to = normalizeVaultPath(await withoutRepoPrefix(ctx.host, input.repo, input.to, config.settings.folders), 'folder');
    if (from === '' || to === '')
      throw new VaultError(
        'bad_arguments',
        'The root of the repository cannot be moved, nor can anything be moved onto it. Give a note or folder path for both from and to.',
      );
    assertInFolders(from, config.settings.folders);
    assertInFolders(to, config.settings.folders);
    if (from.normalize('NFC') === to)
      throw new VaultError('bad_arguments', `"${from}" is already where to points. Give a different target.`, { path: from });
    const ignoreCase = await ctx.host.foldsCase(input.repo);
    const done = await commitChange(
      ctx,
      input.repo,
      { tool: 'move_note', summary: input.summary },
      (read) => prepareMove(ctx, input.repo, read, config, { from, to, type: input.type ?? null, ignoreCase }),
      // Every note is searched for links to what moves: the whole state is needed.
      { snapshot: true },
    );
    const result = done.result;
    // A move that touched hundreds of files still answers within the limit: the counts stay
    // whole, the list of updated files is cut and the note says so.
    return fitAnswer(result.updated, (kept, cut) => {
      const note = [
        ...result.notes,
        ...done.notes,
        ...(cut
          ? [
              `updated lists ${kept.length} of the ${result.updated.length} changed files, to stay within ${ANSWER_LIMIT} characters; links counts them all, and the commit holds every change.`,
            ]
          : []),
      ].join(' ');
      return {
        from: result.from,
        to: result.to,
        files: result.files,
        links: result.links,
        updated: [...kept],
        commit: result.already ?? done.commit ?? done.parent ?? '',
        outsideReferences: result.outsideReferences,
        ...(note === '' ? {} : { note }),
        repo: input.repo,
      };
    }).answer;
  },
});

async function prepareMove(
  ctx: ToolContext,
  repo: string,
  read: WriteRead,
  config: VaultConfig,
  move: { from: string; to: string; type: string | null; ignoreCase: boolean },
): Promise<{ files: PreparedFile[]; result: MoveResult; trailers?: string[] }> {
  const paths = read.snapshot!.files.map((file) => file.path);
  const { from, to } = move;
  const source = sameFileAs(paths, from, move.ignoreCase);
  const folderPrefix = `${from.normalize('NFC')}/`;
  const members = source !== null ? [source] : paths.filter((path) => path.normalize('NFC').startsWith(folderPrefix));
  const isFolder = source === null;
  if (members.length === 0) {
    const there = sameFileAs(paths, to, move.ignoreCase) ?? paths.find((path) => path.startsWith(`${to}/`));
    if (there !== undefined && there !== null) {
      // Already moved: the call was made before (move_note is idempotent).
      const commit = await changedLastBy(ctx, repo, read.head, to);
      return {
        files: [],
        result: {
          from,
          to,
          files: 0,
          links: 0,
          updated: [],
          outsideReferences: 0,
          notes: [`Nothing was at "${from}"; "${to}" is already there, so nothing was moved.`],
          already: commit,
        },
      };
    }
    const link = (await read.links([from])).get(from);
    if (link !== undefined)
      throw linkRefusal(from, link, 'move_note', 'would replace it with a copy of what it points to', 'Move', config.settings.folders);
    throw new VaultError('note_not_found', `There is no note or folder "${from}". Check the path with tree or list_notes.`, { path: from });
  }
  // A symbolic link is not a note: moving it would write a copy of what it points to.
  const memberLinks = await read.links(members);
  if (memberLinks.size > 0) {
    if (!isFolder)
      throw linkRefusal(
        source!,
        memberLinks.get(source!)!,
        'move_note',
        'would replace it with a copy of what it points to',
        'Move',
        config.settings.folders,
      );
    // A target the tools cannot read (hidden, closed) is not named: it reads as absent everywhere.
    const named = [...memberLinks.values()]
      .slice(0, 5)
      .map((link) =>
        link.target === null || !isReadable({ path: link.target }, config.settings.folders)
          ? `"${link.link}"`
          : `"${link.link}" → "${link.target}"`,
      );
    throw new VaultError(
      'not_a_note',
      `"${from}" holds ${memberLinks.size} symbolic link(s) (${named.join(', ')}${memberLinks.size > 5 ? ', …' : ''}), which move_note cannot carry over (each would become a copy of what it points to), so it cannot be moved as a whole. Move its notes one by one, or move or remove the links outside these tools first. Nothing was written.`,
      { path: from, links: [...memberLinks.keys()] },
    );
  }
  if (isFolder && (to === from || to.startsWith(folderPrefix))) {
    throw new VaultError(
      'bad_arguments',
      `"${to}" lies inside "${from}", and a folder cannot move into itself. Choose a target outside it.`,
      { path: to },
    );
  }
  if (!isFolder && posix.extname(source!).toLowerCase() !== posix.extname(to).toLowerCase()) {
    throw new VaultError(
      'bad_arguments',
      `"${to}" does not end in ${posix.extname(source!) || 'the same extension'} like "${source}". Give the whole new file path, for example "${posix.dirname(to) === '.' ? '' : `${posix.dirname(to)}/`}${posix.basename(source!)}".`,
      { path: to },
    );
  }
  if (isFolder && move.type !== null)
    throw new VaultError(
      'bad_arguments',
      'type changes the type of one note; a folder move cannot take it. Move the folder, then change types note by note.',
    );
  const hidden = members.filter((path) => isHiddenPath(path));
  if (hidden.length > 0) {
    throw new VaultError(
      'hidden_path',
      `"${from}" holds ${hidden.length} hidden file(s) (a name starting with a dot), which no tool may touch, so it cannot be moved as a whole. Move its notes one by one, or move the hidden files by hand.`,
      { path: from },
    );
  }

  // The target must not exist yet, except for a rename that only changes upper and lower case
  // (spec: move_note): a folder is never merged into another, nor moved onto a file.
  if (isFolder && to.toLowerCase() !== from.normalize('NFC').toLowerCase()) {
    const file = sameFileAs(paths, to, move.ignoreCase);
    const key = fold(to, move.ignoreCase);
    const inside = paths.find((path) => fold(path, move.ignoreCase).startsWith(`${key}/`));
    if (file !== null || inside !== undefined) {
      const what = file !== null ? `"${file}" is a file` : `"${to}" is a folder already (it holds "${inside}")`;
      throw new VaultError(
        'exists',
        `${what}, and a move never merges folders or replaces a file. Choose a target that does not exist yet, or move the notes one by one.`,
        { path: file ?? to },
      );
    }
  }

  const moved = new Map<string, string>();
  for (const path of members) moved.set(path, isFolder ? `${to}/${path.normalize('NFC').slice(folderPrefix.length)}` : to);
  const caseOnly = [...moved].every(([old, next]) => old.toLowerCase() === next.toLowerCase());
  for (const next of moved.values()) {
    const clash = sameFileAs(paths, next, move.ignoreCase || caseOnly);
    if (clash !== null && !(moved.has(clash) && clash.toLowerCase() === next.toLowerCase())) {
      throw new VaultError(
        'exists',
        `"${clash}" already exists, and a move never replaces a file. Choose another target, or move or rename "${clash}" first.`,
        { path: clash },
      );
    }
  }
  if (!isFolder && to.toLowerCase() !== from.normalize('NFC').toLowerCase()) {
    const folderClash = paths.find((path) => path.startsWith(`${to}/`));
    if (folderClash !== undefined)
      throw new VaultError('exists', `"${to}" is a folder already. Give the note's whole new path, ending in .md.`, { path: to });
  }

  // The target must suit every checkout (macOS, Windows), beside what stays where it is.
  await assertPortablePath(to, namesBeside(paths, new Set(members), to), {
    what: 'target',
    instead: (other) => `Choose another target, or move or rename "${other}" first.`,
  });

  // Read every note and base once: the moved ones are rewritten, the others searched for links.
  const notePaths = paths.filter((path) => path.endsWith('.md') && !isHiddenPath(path));
  const basePaths = paths.filter((path) => path.toLowerCase().endsWith('.base') && !isHiddenPath(path));
  const movedFolder = isFolder ? { from, to } : null;
  const needles = linkNeedles(moved, movedFolder);
  const searched = (await linkingNotes(ctx, repo, read.snapshot!, moved, movedFolder, needles)) ?? notePaths;
  const contents = await read.files([...new Set([...searched, ...basePaths, ...members])]);
  // The last move's resolver after it is this one's before when the repository's paths are
  // what that move left (moves in a row, back and forth): building one over every path costs
  // ~18 ms for obsidian-help's 6,289, checking it ~1 ms.
  const before = lastResolver?.holdsExactly(paths) ? lastResolver : new LinkResolver(paths);
  const after = before.withMoves(moved);
  lastResolver = after;
  const folders = config.settings.folders;
  const texts = new Map<string, string>();
  const updated: Array<{ path: string; links: number }> = [];
  const lostNotes: string[] = [];
  let links = 0;
  let outsideReferences = 0;
  const candidates = new Map<string, string>();
  for (const path of notePaths) {
    const content = contents.get(path);
    const text = content === undefined ? null : decodeNoteText(content);
    if (text === null) continue;
    if (!moved.has(path)) {
      const lower = text.toLowerCase();
      if (!needles.some((needle) => lower.includes(needle))) continue;
    }
    candidates.set(path, text);
  }
  // A symbolic link shows its target's text, but is no note: its target is rewritten on its own.
  for (const path of (await read.links([...candidates.keys()].filter((path) => !moved.has(path)))).keys()) candidates.delete(path);
  for (const [path, text] of candidates) {
    const pathAfter = moved.get(path) ?? path;
    const relinked = relinkNote({ text, links: findLinks(text), pathBefore: path, pathAfter, before, after, moved, movedFolder });
    if (!isInFolders(path, folders)) {
      outsideReferences += relinked.toMoved;
      continue;
    }
    if (relinked.rewritten > 0) {
      texts.set(path, relinked.text);
      updated.push({ path: pathAfter, links: relinked.rewritten });
      links += relinked.rewritten;
    }
    for (const link of relinked.lost) lostNotes.push(`${link.raw} on line ${link.line} of "${pathAfter}"`);
  }
  // Bases name notes and folders in their filters and formulas: rewritten in the same commit,
  // so each table shows the same rows afterwards.
  const bases = new Map<string, string>();
  for (const path of basePaths) {
    const content = contents.get(path);
    const text = content === undefined ? null : decodeNoteText(content);
    if (text === null) continue;
    const lower = text.toLowerCase();
    if (moved.has(path) || needles.some((needle) => lower.includes(needle))) bases.set(path, text);
  }
  for (const path of (await read.links([...bases.keys()].filter((path) => !moved.has(path)))).keys()) bases.delete(path);
  for (const [path, text] of bases) {
    const pathAfter = moved.get(path) ?? path;
    let toMoved = 0;
    const relinked = rewriteBaseReferences(text, (ref) => {
      if (ref.kind === 'folder') {
        const folder = ref.value.replace(/^\/+|\/+$/g, '');
        const next = folder === '' ? folder : folderAfterMove(folder, movedFolder);
        if (next === folder) return null;
        toMoved++;
        return ref.value.replace(folder, next);
      }
      const wiki = asWikiLink(ref.value);
      if (wiki === null) return null;
      const one = relinkNote({ text: wiki, links: findLinks(wiki), pathBefore: path, pathAfter, before, after, moved });
      toMoved += one.toMoved;
      return one.rewritten === 0 ? null : fromWikiLink(ref.value, one.text);
    });
    if (!isInFolders(path, folders)) {
      outsideReferences += toMoved;
      continue;
    }
    if (relinked === null) {
      lostNotes.push(`a filter or formula of "${pathAfter}"`);
      continue;
    }
    if (relinked.rewritten > 0) {
      texts.set(path, relinked.text);
      updated.push({ path: pathAfter, links: relinked.rewritten });
      links += relinked.rewritten;
    }
  }

  const notes: string[] = [];
  if (lostNotes.length > 0)
    notes.push(`These links could not be rewritten in their own form and were left as written: ${lostNotes.slice(0, 10).join('; ')}.`);
  for (const [old, next] of moved) {
    if (!old.endsWith('.md')) continue;
    const text = texts.get(old) ?? (contents.has(old) ? decodeNoteText(contents.get(old)!) : null);
    if (text === null) continue;
    const checked = checkType(config, old, next, text, isFolder ? null : move.type, isFolder);
    if (checked.text !== text) texts.set(old, checked.text);
    notes.push(...checked.notes);
  }

  // A guard of this repository's special tools may own what moves or what a rewritten link changes.
  const original = (path: string) => (contents.has(path) ? decodeNoteText(contents.get(path)!) : null);
  const changes: NoteChange[] = [];
  for (const [old, next] of moved) {
    const text = old.endsWith('.md') ? original(old) : null;
    if (text !== null) changes.push({ before: { path: old, text }, after: { path: next, text: texts.get(old) ?? text } });
  }
  for (const [path, text] of texts) {
    const was = moved.has(path) ? null : original(path);
    if (was !== null) changes.push({ before: { path, text: was }, after: { path, text } });
  }
  refuseGuarded(repo, config, 'move_note', changes);

  const files: PreparedFile[] = [];
  for (const old of moved.keys()) files.push({ path: old, content: null });
  for (const [old, next] of moved) {
    const text = texts.get(old);
    files.push({ path: next, content: text !== undefined ? Buffer.from(text, 'utf8') : contents.get(old)!, from: old });
  }
  for (const [path, text] of texts) if (!moved.has(path)) files.push({ path, content: Buffer.from(text, 'utf8') });
  updated.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  // The commit says which path became which (one line for a whole folder): note_history
  // follows it where Git's rename detection cannot (a short note whose links changed).
  const trailers = [movedTrailer({ from, to, folder: isFolder })];
  return { files, result: { from, to, files: moved.size, links, updated, outsideReferences, notes, already: null }, trailers };
}

/**
 * The type rules of a move for one note: with `newType`, sets the type field and checks the
 * place and schema; without, refuses a target the note's type does not allow (for a folder
 * move only when the note fitted before). Returns the note's text (type field changed) and notes.
 */
function checkType(
  config: VaultConfig,
  oldPath: string,
  newPath: string,
  text: string,
  newType: string | null,
  isFolder: boolean,
): { text: string; notes: string[] } {
  const notes: string[] = [];
  if (newType !== null) {
    const type = requireType(config, newType);
    const changed = setFrontmatterField(text, config.settings.typeField, newType);
    if (!isTypeExempt(config, newPath)) {
      if (type.places.length > 0 && !fitsPlace(type, newPath)) throw placeRefusal(type, newPath);
      const problems = schemaProblems(type, splitFrontmatter(changed).data ?? {});
      if (problems.length > 0) throw schemaRefusal(type, newPath, problems);
    }
    return { text: changed, notes };
  }
  if (isTypeExempt(config, newPath)) return { text, notes };
  const name = typeNameOf(config, splitFrontmatter(text).data);
  const type = name === null ? undefined : config.types.get(name);
  if (type === undefined || type.places.length === 0 || fitsPlace(type, newPath)) return { text, notes };
  if (!isFolder || fitsPlace(type, oldPath)) throw placeRefusal(type, newPath);
  notes.push(`"${newPath}" is not at a place of its type "${type.name}" (nor was it before).`);
  return { text, notes };
}

/**
 * The names directly in each folder on the way to `target` ('' for the root), made of `paths`
 * apart from those `leaving`: a lookup by folder, for {@link assertPortablePath}.
 */
function namesBeside(paths: readonly string[], leaving: ReadonlySet<string>, target: string): (folder: string) => string[] {
  const segments = target.split('/');
  const names = new Map<string, Set<string>>(segments.map((_, i) => [segments.slice(0, i).join('/'), new Set<string>()]));
  for (const path of paths) {
    if (leaving.has(path)) continue;
    for (const [folder, inFolder] of names) {
      if (folder !== '' && !path.startsWith(`${folder}/`)) continue;
      inFolder.add(path.slice(folder === '' ? 0 : folder.length + 1).split('/')[0]!);
    }
  }
  return (folder) => [...(names.get(folder) ?? [])];
}

/** A path as compared for "the same file": NFC, and lower case on a case-insensitive checkout. */
function fold(path: string, ignoreCase: boolean): string {
  const nfc = path.normalize('NFC');
  return ignoreCase ? nfc.toLowerCase() : nfc;
}

/**
 * Lower-case strings one of which every note linking to a moved file or folder (or that a
 * moved file could capture) contains: each moved file's old and new name, without `.md` for
 * notes, and the moved folder's old and new name, as written and URL-encoded.
 */
function linkNeedles(moved: ReadonlyMap<string, string>, movedFolder: { from: string; to: string } | null): string[] {
  const needles = new Set<string>();
  const named = [...moved].map(([old, next]) => [old, next]);
  if (movedFolder !== null) named.push([movedFolder.from, movedFolder.to]);
  for (const [old, next] of named) {
    for (const path of [old!, next!]) {
      const name = posix.basename(path).replace(/\.md$/i, '').normalize('NFC').toLowerCase();
      if (name === '') continue;
      needles.add(name);
      needles.add(encodeURIComponent(name).toLowerCase());
      needles.add(name.normalize('NFD'));
    }
  }
  return [...needles];
}

/**
 * The notes a move must read to find every link it rewrites, asked of the links index instead
 * of reading every note: those with a link whose target key ({@link targetKey}) is the old or
 * new name of a moved file (a link to it, or one the move would capture), of the moved folder
 * or of a folder inside it; for a folder, also those with a link to a folder path (`…/`) that
 * holds one of `needles`. The index may lag the state the move is prepared on (an edit not yet
 * taken in, a commit made elsewhere, uncommitted work-tree edits): every note whose blob id in
 * `snapshot` differs from the index's, or that the index lacks (outside the open folders, new),
 * is read as well, so the answer is the same as reading every note. Null (read every note)
 * when the repository has no index yet or the index cannot be asked.
 */
async function linkingNotes(
  ctx: ToolContext,
  repo: string,
  snapshot: Snapshot,
  moved: ReadonlyMap<string, string>,
  movedFolder: { from: string; to: string } | null,
  needles: readonly string[],
): Promise<string[] | null> {
  const keys = new Set<string>();
  for (const [old, next] of moved) keys.add(targetKey(old)).add(targetKey(next));
  if (movedFolder !== null) {
    keys.add(targetKey(movedFolder.from)).add(targetKey(movedFolder.to)).add('');
    for (const old of moved.keys()) {
      const inside = old
        .slice(movedFolder.from.length + 1)
        .split('/')
        .slice(0, -1);
      for (const folder of inside) keys.add(targetKey(folder));
    }
  }
  keys.delete('.');
  let indexed: Map<string, string>;
  let sources: Map<string, string[]>;
  try {
    // Asked side by side: a repository the index lacks answers nothing that is used.
    const [state, oids, found] = await Promise.all([
      ctx.index.repoState(repo),
      ctx.index.fileOids(repo),
      ctx.index.linkSourcesByKey(repo, [...keys]),
    ]);
    if (state === null) return null;
    [indexed, sources] = [oids, found];
  } catch {
    return null; // no index to ask (a process without one): every note is read
  }
  const out: string[] = [];
  for (const entry of snapshot.files) {
    if (!entry.path.endsWith('.md') || isHiddenPath(entry.path)) continue;
    if (indexed.get(entry.path) !== entry.oid) {
      out.push(entry.path);
      continue;
    }
    const targets = sources.get(entry.path);
    if (targets === undefined) continue;
    // A link found by the key '' is kept only when it names a folder path holding a needle.
    const byName = targets.some((target) => keys.has(targetKey(target)) && targetKey(target) !== '');
    const lowered = targets.map((target) => target.normalize('NFC').toLowerCase());
    if (byName || lowered.some((target) => target !== '' && needles.some((needle) => target.includes(needle)))) out.push(entry.path);
  }
  return out;
}

/** The commit that last changed `path` (a file or folder) up to `head` (RepoHost.lastCommit); the head when none did. */
async function changedLastBy(ctx: ToolContext, repo: string, head: string | null, path: string): Promise<string | null> {
  if (head === null) return null;
  return (await ctx.host.lastCommit(repo, head, path)) ?? head;
}
