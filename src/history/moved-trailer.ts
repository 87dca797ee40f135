// The `Moved:` trailers move_note writes into its commit message, and reading them back, so a
// note's history follows a move that Git's rename detection cannot see (a short note whose
// relative links the move rewrote).
import { unquoteGitPath } from './unquote-git-path.ts';

/** The trailer's key, as `git interpret-trailers` would write it: `Moved: <old> -> <new>`. */
export const MOVED_KEY = 'Moved';
const ARROW = ' -> ';

/**
 * One move a commit records: the note's old path and new path, or for a folder (`folder`
 * true) the old and new folder paths without their trailing `/`.
 */
export interface MovedEntry {
  from: string;
  to: string;
  folder: boolean;
}

/**
 * The trailer line for one move: `Moved: <from> -> <to>`, a folder written with a trailing
 * `/` on both sides (`Moved: kit/ -> tools/kit/`: one line covers every note in it, however
 * many). A path with a control character, `"`, `\`, the arrow ` -> `, or a leading or
 * trailing space is written C-quoted as Git quotes paths (`"a\"b.md"`), read back by
 * {@link parseMovedTrailers}.
 */
export function movedTrailer(move: MovedEntry): string {
  const side = (path: string) => quote(move.folder ? `${path}/` : path);
  return `${MOVED_KEY}: ${side(move.from)}${ARROW}${side(move.to)}`;
}

function quote(path: string): string {
  if (!/[\u0000-\u001f\u007f"\\]|^\s|\s$| -> /.test(path)) return path;
  const escaped = path.replace(/[\u0000-\u001f\u007f"\\]/g, (char) => {
    if (char === '"' || char === '\\') return `\\${char}`;
    if (char === '\n') return '\\n';
    if (char === '\t') return '\\t';
    return `\\${char.charCodeAt(0).toString(8).padStart(3, '0')}`;
  });
  return `"${escaped}"`;
}

/**
 * The moves recorded in a commit message's trailers (its last paragraph, as
 * `git interpret-trailers --parse` reads it): every `Moved: <from> -> <to>` line there, in
 * order. Lines that do not parse are skipped: a hand-written message never breaks a history.
 */
export function parseMovedTrailers(message: string): MovedEntry[] {
  const paragraphs = message
    .replace(/\r\n?/g, '\n')
    .trimEnd()
    .split(/\n{2,}/);
  if (paragraphs.length < 2) return [];
  const moves: MovedEntry[] = [];
  for (const line of (paragraphs[paragraphs.length - 1] ?? '').split('\n')) {
    const match = /^Moved:\s*(.*)$/i.exec(line);
    if (!match) continue;
    const value = match[1] ?? '';
    const first = token(value);
    if (first === null || !value.startsWith(ARROW, first.end)) continue;
    const rest = value.slice(first.end + ARROW.length);
    const second = token(rest);
    if (second === null || second.end !== rest.length) continue;
    const folder = first.path.endsWith('/') && second.path.endsWith('/');
    const from = folder ? first.path.slice(0, -1) : first.path;
    const to = folder ? second.path.slice(0, -1) : second.path;
    if (from === '' || to === '' || first.path.endsWith('/') !== second.path.endsWith('/')) continue;
    moves.push({ from, to, folder });
  }
  return moves;
}

/** One path at the start of `text`: quoted (up to its closing quote) or plain (up to the arrow or the end). */
function token(text: string): { path: string; end: number } | null {
  if (text.startsWith('"')) {
    for (let i = 1; i < text.length; i += 1) {
      if (text[i] === '\\') i += 1;
      else if (text[i] === '"') return { path: unquoteGitPath(text.slice(0, i + 1)), end: i + 1 };
    }
    return null;
  }
  const arrow = text.indexOf(ARROW);
  const end = arrow === -1 ? text.length : arrow;
  return end === 0 ? null : { path: text.slice(0, end), end };
}

/**
 * The path `path` had before the move `moves` records, when one of them brought it there
 * (the note itself, or a note inside a moved folder); null otherwise. Compares in Unicode
 * NFC, as move_note names its targets.
 */
export function pathBeforeMove(moves: readonly MovedEntry[], path: string): string | null {
  const wanted = path.normalize('NFC');
  for (const move of moves) {
    const to = move.to.normalize('NFC');
    if (!move.folder && to === wanted) return move.from;
    if (move.folder && wanted.startsWith(`${to}/`)) return `${move.from}/${wanted.slice(to.length + 1)}`;
  }
  return null;
}
