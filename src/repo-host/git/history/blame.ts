// Who last changed each line of a note: `git blame --porcelain -M -C`, grouped into runs.
import { LRUCache } from 'lru-cache';
import type { BlameRun, EarlyBlame, NoteBlame } from '../../history.ts';
import { GitError, startGit } from '../run-git.ts';
import type { Mirror } from '../mirror.ts';
import { splitLines } from '../../../notes/lines.ts';
import { mirrorGit } from './mirror-git.ts';
import { decodeNoteText } from '../../../notes/note-text.ts';
import { blobAt } from './note-blobs.ts';
import { parseMovedTrailers, pathBeforeMove, type MovedEntry } from '../../../history/moved-trailer.ts';
import { recordedMove } from './note-log.ts';
import { unquoteGitPath } from '../../../history/unquote-git-path.ts';

interface CommitInfo {
  author: string;
  date: string;
  subject: string;
}

const HEADER = /^([0-9a-f]{40}|[0-9a-f]{64}) (\d+) (\d+)(?: \d+)?$/;
const UNCOMMITTED = /^0+$/;

/**
 * Starts `git blame --porcelain -M -C --contents - -- <path>` (in a work tree; without one,
 * of HEAD) for the whole note at once, so Git starts while the caller still reads the note
 * and checks its path: {@link blame} takes it when the lines asked are all of them, and
 * otherwise stops it and runs its own. Git waits on standard input for the content before
 * it reads anything of the history: `feed` hands it over as soon as the caller has read it,
 * and `finish` with other content answers null (the caller then runs its own blame).
 */
export function startWholeBlame(mirror: Mirror, path: string): EarlyBlame {
  const chunks: Buffer[] = [];
  const args = ['blame', '--porcelain', '-M', '-C', ...(mirror.workTree ? ['--contents', '-'] : ['HEAD']), '--', path];
  const git = startGit(args, {
    gitDir: mirror.gitDir,
    ...(mirror.workTree ? { workTree: mirror.workTree, cwd: mirror.workTree } : { cwd: mirror.gitDir }),
    onStdout: (chunk) => chunks.push(chunk),
  });
  git.done.catch(() => undefined); // reported by finish, or not needed
  if (!mirror.workTree) git.end();
  let fed: Buffer | undefined;
  const feed = (content: Buffer) => {
    if (!mirror.workTree || fed !== undefined) return;
    fed = content;
    git.write(content);
    git.end();
  };
  return {
    path,
    feed,
    async finish(content) {
      feed(content);
      if (fed !== undefined && fed !== content && !fed.equals(content)) {
        git.stop();
        return null;
      }
      const ended = await git.done;
      if (ended.stopped) throw new Error('The early blame was cancelled before it was used');
      return Buffer.concat(chunks);
    },
    cancel: () => git.stop(),
  };
}

/**
 * Blames the note at `path` whose content now is `content` (from `noteNow`: the work tree's
 * file when the mirror has one, else HEAD's), lines `fromLine`–`toLine` (clamped to the
 * note; the caller checks `fromLine` against the note's lines first). In a work tree Git
 * gets `content` on standard input (`--contents -`) and never reads the path from disk, so
 * a link swapped in meanwhile leads nowhere. `-M -C` follow lines moved within the note and
 * moved or copied from other files changed in the same commit, and whole-file renames are
 * followed by blame itself, so a commit that only moved lines never takes the blame for
 * them. A move Git took for a new file (too much of a short note changed: its relative
 * links) but whose commit records it in a `Moved:` trailer is followed too: the lines it
 * left as they were go to who wrote them before ({@link creditRecordedMoves}). `early` (from {@link startWholeBlame}) is used when the lines are all of the note,
 * and stopped otherwise. `copies: false` leaves out `-C`: lines come only from the note's
 * own earlier versions (renames followed). Returns null when `content` is not text.
 */
export async function blame(
  mirror: Mirror,
  path: string,
  content: Buffer,
  fromLine?: number,
  toLine?: number,
  early?: EarlyBlame,
  copies = true,
): Promise<NoteBlame | null> {
  const text = decodeNoteText(content);
  if (text === null) {
    early?.cancel();
    return null;
  }
  const lines = splitLines(text);
  const total = lines.length;
  if (total === 0) {
    early?.cancel();
    return { runs: [], totalLines: 0 };
  }
  const from = Math.min(fromLine ?? 1, total);
  const to = Math.min(toLine ?? total, total);
  const whole = copies && early !== undefined && early.path === path && from === 1 && to === total;
  if (!whole) early?.cancel();
  const args = [
    'blame',
    '--porcelain',
    '-M',
    ...(copies ? ['-C'] : []),
    '-L',
    `${from},${to}`,
    ...(mirror.workTree ? ['--contents', '-'] : ['HEAD']),
    '--',
    path,
  ];
  try {
    // The early blame answers null when it was fed other content than this (read earlier).
    const stdout =
      (whole ? await early.finish(content) : null) ?? (await mirrorGit(mirror, args, mirror.workTree ? { input: content } : {})).stdout;
    return { runs: groupRuns(await creditRecordedMoves(mirror, parsePorcelain(stdout)), lines), totalLines: total };
  } catch (error) {
    if (!(error instanceof GitError) || (await blobAt(mirror, 'HEAD', path)) !== null) throw error;
    // Never committed under this path (a new file in the work tree): every line is uncommitted.
    return { runs: [{ from_line: from, to_line: to, commit: null, content: lines.slice(from - 1, to).join('\n') }], totalLines: total };
  }
}

/** One line of `git blame --porcelain` output: the commit it is credited to, its line number and path there. */
interface BlameLine {
  sha: string;
  origLine: number;
  filename: string;
  info: CommitInfo;
}

/** Groups lines (by line number now, from 1) into runs; line text is taken from `lines` (the note now). */
function groupRuns(blamed: ReadonlyMap<number, BlameLine>, lines: readonly string[]): BlameRun[] {
  const runs: BlameRun[] = [];
  for (const [finalLine, line] of [...blamed].sort((a, b) => a[0] - b[0])) {
    const committed = !UNCOMMITTED.test(line.sha);
    const last = runs[runs.length - 1];
    const content = lines[finalLine - 1] ?? '';
    if (
      last &&
      last.to_line === finalLine - 1 &&
      last.commit === (committed ? line.sha : null) &&
      (!committed || last.path === line.filename)
    ) {
      last.to_line = finalLine;
      last.content += `\n${content}`;
    } else if (committed) {
      runs.push({
        from_line: finalLine,
        to_line: finalLine,
        commit: line.sha,
        date: line.info.date,
        author: line.info.author,
        subject: line.info.subject,
        path: line.filename,
        content,
      });
    } else {
      runs.push({ from_line: finalLine, to_line: finalLine, commit: null, content });
    }
  }
  return runs;
}

/** Reads `git blame --porcelain` output: each line's commit, its line number and path there, by its line number now. */
function parsePorcelain(stdout: Buffer): Map<number, BlameLine> {
  const commits = new Map<string, CommitInfo>();
  const filenames = new Map<string, string>();
  const blamed = new Map<number, BlameLine>();
  let sha = '';
  let finalLine = 0;
  let origLine = 0;
  let info: Partial<CommitInfo> & { time?: string; tz?: string } = {};
  let filename = '';
  for (const row of stdout.toString('utf8').split('\n')) {
    if (row.startsWith('\t')) {
      if (!commits.has(sha))
        commits.set(sha, {
          author: info.author ?? '',
          subject: info.subject ?? '',
          date: isoDate(Number(info.time ?? 0), info.tz ?? '+0000'),
        });
      blamed.set(finalLine, { sha, origLine, filename, info: commits.get(sha) as CommitInfo });
      continue;
    }
    const header = HEADER.exec(row);
    if (header) {
      sha = header[1] ?? '';
      origLine = Number(header[2]);
      finalLine = Number(header[3]);
      if (!commits.has(sha)) info = {};
      // Git repeats `filename` only for a commit seen under more than one path.
      filename = filenames.get(sha) ?? '';
      continue;
    }
    const space = row.indexOf(' ');
    const key = space === -1 ? row : row.slice(0, space);
    const value = space === -1 ? '' : row.slice(space + 1);
    if (key === 'author') info.author = value;
    else if (key === 'committer-time') info.time = value;
    else if (key === 'committer-tz') info.tz = value;
    else if (key === 'summary') info.subject = value;
    else if (key === 'filename') {
      filename = unquoteGitPath(value);
      filenames.set(sha, filename);
    }
  }
  return blamed;
}

/**
 * The `Moved:` trailers of each commit whose message a blame has read, by commit id (a commit's
 * message never changes, and an id names the same commit in every repository): a note blamed
 * again asks Git for no message it has seen. Bounded by size (about 2 bytes per character of
 * the paths, plus 100 per commit), 4 MB in all.
 */
const movedTrailersByCommit = new LRUCache<string, MovedEntry[]>({
  maxSize: 4 * 1024 * 1024,
  sizeCalculation: (entries, commit) =>
    100 + commit.length + entries.reduce((sum, entry) => sum + 2 * (entry.from.length + entry.to.length) + 32, 0),
});

/** At most this many recorded moves are followed back for one blame. */
const MAX_MOVE_HOPS = 100;

/**
 * `blamed` with every line credited to a move that Git took for a new file (a commit that
 * added the note and records the move in a `Moved:` trailer, see {@link recordedMove}) but
 * that the move left as it was credited instead to whoever wrote it before: the old path is
 * blamed in the move's parent, and the lines the move kept are matched through the diff of
 * the two versions (`git diff -U0`). Lines the move changed (rewritten links) stay the move's.
 */
async function creditRecordedMoves(mirror: Mirror, blamed: Map<number, BlameLine>): Promise<Map<number, BlameLine>> {
  const checked = new Map<string, Promise<{ parent: string; oldPath: string } | null>>();
  const messages = new Map<string, MovedEntry[]>();
  for (let hop = 0; hop < MAX_MOVE_HOPS; hop += 1) {
    const groups = new Map<string, { sha: string; filename: string; lines: number[] }>();
    for (const [finalLine, line] of blamed) {
      if (UNCOMMITTED.test(line.sha)) continue;
      const key = JSON.stringify([line.sha, line.filename]);
      let group = groups.get(key);
      if (group === undefined) groups.set(key, (group = { sha: line.sha, filename: line.filename, lines: [] }));
      group.lines.push(finalLine);
    }
    // One read of the messages of the commits not seen yet: only those recording a move of the path are checked further.
    const unseen: string[] = [];
    for (const sha of new Set([...groups.values()].map((group) => group.sha))) {
      const kept = messages.has(sha) ? undefined : movedTrailersByCommit.get(sha);
      if (kept !== undefined) messages.set(sha, kept);
      else if (!messages.has(sha)) unseen.push(sha);
    }
    if (unseen.length > 0) {
      const { stdout } = await mirrorGit(mirror, ['log', '--no-walk=unsorted', '-z', '--format=%H%x1f%B', ...unseen]);
      for (const record of stdout.toString('utf8').split('\0')) {
        const split = record.indexOf('\x1f');
        if (split === -1) continue;
        const [sha, moves] = [record.slice(0, split).trim(), parseMovedTrailers(record.slice(split + 1))];
        messages.set(sha, moves);
        movedTrailersByCommit.set(sha, moves);
      }
    }
    let changed = false;
    for (const [key, group] of groups) {
      if (pathBeforeMove(messages.get(group.sha) ?? [], group.filename) === null) continue;
      let move = checked.get(key);
      if (move === undefined) checked.set(key, (move = recordedMove(mirror, group.sha, group.filename)));
      const found = await move;
      if (found === null) continue;
      const kept = await keptLines(mirror, `${found.parent}:${found.oldPath}`, `${group.sha}:${group.filename}`);
      const before = parsePorcelain(
        (await mirrorGit(mirror, ['blame', '--porcelain', '-M', '-C', found.parent, '--', found.oldPath])).stdout,
      );
      for (const finalLine of group.lines) {
        const line = blamed.get(finalLine) as BlameLine;
        const oldLine = kept.get(line.origLine);
        const earlier = oldLine === undefined ? undefined : before.get(oldLine);
        if (earlier === undefined) continue;
        blamed.set(finalLine, earlier);
        changed = true;
      }
    }
    if (!changed) break;
  }
  return blamed;
}

/** The lines of blob `after` that `git diff -U0 before after` leaves unchanged: line in `after` → line in `before` (from 1). */
async function keptLines(mirror: Mirror, before: string, after: string): Promise<Map<number, number>> {
  const [{ stdout: diff }, { stdout: text }] = await Promise.all([
    mirrorGit(mirror, ['diff', '-U0', '--no-color', before, after]),
    mirrorGit(mirror, ['cat-file', '-p', after]),
  ]);
  const total = splitLines(text.toString('utf8')).length;
  const kept = new Map<number, number>();
  let next = 1; // the next line of `after` not yet mapped
  let offset = 0; // line in before = line in after + offset, outside the hunks
  for (const match of diff.toString('utf8').matchAll(/^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@/gm)) {
    const oldStart = Number(match[1]);
    const oldCount = match[2] === undefined ? 1 : Number(match[2]);
    const newStart = Number(match[3]);
    const newCount = match[4] === undefined ? 1 : Number(match[4]);
    // With a count of 0 the start names the line before the hunk.
    const firstNew = newCount === 0 ? newStart + 1 : newStart;
    for (; next < firstNew; next += 1) kept.set(next, next + offset);
    next = firstNew + newCount;
    const oldEnd = (oldCount === 0 ? oldStart + 1 : oldStart) + oldCount;
    offset = oldEnd - next;
  }
  for (; next <= total; next += 1) kept.set(next, next + offset);
  return kept;
}

/** `seconds` since the epoch shown in the zone `tz` (`+0100`), ISO 8601 with offset like `%cI`. */
export function isoDate(seconds: number, tz: string): string {
  const match = /^([+-])(\d{2})(\d{2})$/.exec(tz);
  const sign = match?.[1] === '-' ? -1 : 1;
  const offsetMinutes = sign * (Number(match?.[2] ?? 0) * 60 + Number(match?.[3] ?? 0));
  const local = new Date((seconds + offsetMinutes * 60) * 1000).toISOString().slice(0, 19);
  return `${local}${match ? `${match[1]}${match[2]}:${match[3]}` : '+00:00'}`;
}
