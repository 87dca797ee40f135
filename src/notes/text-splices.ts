// A change to a text as replacements of its ranges: composed from an edit's steps, and carried onto another version of the text.
import { diffLines } from 'diff';

/** One replacement in a text: `[start, end)` (UTF-16 offsets into that text) replaced by `text`. */
export interface Splice {
  start: number;
  end: number;
  text: string;
}

/**
 * One change from a text to another version of it, as a splice of the first, plus `reach`: the
 * range `[reachStart, reachEnd]` of the first text the change could equally be said to stand on
 * (an insertion of `"o "` after `"open"` in `"open door"` is as well one of `" o"` before the
 * space), so a check against it does not depend on how the diff happened to align it.
 */
export interface TextChange extends Splice {
  reachStart: number;
  reachEnd: number;
}

/**
 * How many lines two versions may differ by before {@link textChanges} gives up (null): past
 * that, the versions are too different to carry a passage from one to the other.
 */
const MAX_EDIT_LINES = 1000;

/** `text` with `splices` (sorted by start, not overlapping) made. */
export function applySplices(text: string, splices: readonly Splice[]): string {
  let out = '';
  let at = 0;
  for (const splice of splices) {
    out += text.slice(at, splice.start) + splice.text;
    at = splice.end;
  }
  return out + text.slice(at);
}

/**
 * Replacements made one after the other on a text, each at offsets of the text the ones before
 * left (as edit_note's `more_edits`), kept as splices of the original text: sorted, and merged
 * where one replacement touches or overlaps what an earlier one inserted, so each splice covers
 * exactly the original text its passages stood on.
 */
export class SplicedText {
  private list: Splice[] = [];
  private current: string;

  readonly base: string;

  constructor(base: string) {
    this.base = base;
    this.current = base;
  }

  /** The text as the replacements so far left it. */
  get text(): string {
    return this.current;
  }

  /** The replacements so far, as splices of {@link base}. */
  get splices(): readonly Splice[] {
    return this.list;
  }

  /** Replaces `[start, end)` of the current {@link text} with `text`. */
  replace(start: number, end: number, text: string): void {
    const list = this.list;
    const shift = (splice: Splice) => splice.text.length - (splice.end - splice.start);
    let delta = 0; // current offset − original offset, after the splices passed so far
    let i = 0;
    while (i < list.length && list[i]!.start + delta + list[i]!.text.length < start) delta += shift(list[i++]!);
    const deltaBefore = delta;
    const first = i;
    while (i < list.length && list[i]!.start + delta <= end) delta += shift(list[i++]!);
    const touched = list.slice(first, i);
    const baseStart = Math.min(touched[0]?.start ?? Infinity, start - deltaBefore);
    const baseEnd = Math.max(touched[touched.length - 1]?.end ?? -Infinity, end - delta);
    const merged = {
      start: baseStart,
      end: baseEnd,
      text: this.current.slice(baseStart + deltaBefore, start) + text + this.current.slice(end, baseEnd + delta),
    };
    this.list = [...list.slice(0, first), merged, ...list.slice(i)];
    this.current = this.current.slice(0, start) + text + this.current.slice(end);
  }
}

/**
 * The changes from `base` to `other`: the hunks of a line diff (Myers, by the `diff` library, as
 * `git diff` finds them), each narrowed to the characters that differ, with its {@link TextChange
 * reach}. Null when the versions differ by more than {@link MAX_EDIT_LINES} lines.
 */
export function textChanges(base: string, other: string): TextChange[] | null {
  if (base === other) return [];
  const parts = diffLines(base, other, { maxEditLength: MAX_EDIT_LINES });
  if (parts === undefined) return null;
  const changes: TextChange[] = [];
  let at = 0;
  let hunk: { start: number; added: string } | null = null;
  const flush = () => {
    if (hunk !== null) changes.push(narrowed(base, hunk.start, at, hunk.added));
    hunk = null;
  };
  for (const part of parts) {
    if (!part.added && !part.removed) {
      flush();
      at += part.value.length;
      continue;
    }
    hunk ??= { start: at, added: '' };
    if (part.removed) at += part.value.length;
    else hunk.added += part.value;
  }
  flush();
  return changes;
}

/** A hunk `base[start, end)` → `added`, narrowed to what differs, with its reach. */
function narrowed(base: string, start: number, end: number, added: string): TextChange {
  const old = base.slice(start, end);
  // Narrowed from the front first, then from the back first: together they bound every alignment.
  const p1 = commonPrefix(old, added, Math.min(old.length, added.length));
  const q1 = commonSuffix(old, added, Math.min(old.length, added.length) - p1);
  const q2 = commonSuffix(old, added, Math.min(old.length, added.length));
  const p2 = commonPrefix(old, added, Math.min(old.length, added.length) - q2);
  const change: TextChange = {
    start: start + p1,
    end: end - q1,
    text: added.slice(p1, added.length - q1),
    reachStart: start + Math.min(p1, p2),
    reachEnd: end - Math.min(q1, q2),
  };
  // A pure insertion or deletion can slide along repeated characters, past the hunk's own
  // lines too, but not over a line break: the line diff's alignment of whole lines stands.
  if (change.start === change.end && change.text !== '') {
    const inserted = change.text;
    let left = change.start;
    for (
      let j = inserted.length - 1;
      left > 0 && base[left - 1] !== '\n' && base[left - 1] === inserted[j];
      j = (j - 1 + inserted.length) % inserted.length
    )
      left--;
    let right = change.end;
    for (let j = 0; right < base.length && base[right] !== '\n' && base[right] === inserted[j]; j = (j + 1) % inserted.length) right++;
    change.reachStart = Math.min(change.reachStart, left);
    change.reachEnd = Math.max(change.reachEnd, right);
  } else if (change.text === '' && change.end > change.start) {
    let [a, b] = [change.start, change.end];
    while (a > 0 && base[a - 1] !== '\n' && base[a - 1] === base[b - 1]) [a, b] = [a - 1, b - 1];
    change.reachStart = Math.min(change.reachStart, a);
    [a, b] = [change.start, change.end];
    while (b < base.length && base[b] !== '\n' && base[b] === base[a]) [a, b] = [a + 1, b + 1];
    change.reachEnd = Math.max(change.reachEnd, b);
  }
  return change;
}

function commonPrefix(a: string, b: string, max: number): number {
  let n = 0;
  while (n < max && a[n] === b[n]) n++;
  return n;
}

function commonSuffix(a: string, b: string, max: number): number {
  let n = 0;
  while (n < max && a[a.length - 1 - n] === b[b.length - 1 - n]) n++;
  return n;
}

/**
 * `splices`, made on `base`, carried onto `other` (another version of the same text), the way a
 * three-way merge (`git merge-file`) carries one side's hunks onto the other, but per passage:
 * every change from `base` to `other` must stay clear of every splice, not touching it even at
 * its edges (an insertion right after a passage may be what the passage's author meant to
 * replace). Two changes on one line merge when their characters are apart. Gives the text of
 * `other` with the splices made, or the changes that touch one (all of them, as one, when the
 * versions are too far apart to compare).
 */
export function rebaseSplices(base: string, splices: readonly Splice[], other: string): { text: string } | { touching: TextChange[] } {
  const changes = textChanges(base, other);
  if (changes === null) return { touching: [{ start: 0, end: base.length, text: other, reachStart: 0, reachEnd: base.length }] };
  const touching = changes.filter((change) => splices.some((splice) => change.reachStart <= splice.end && change.reachEnd >= splice.start));
  if (touching.length > 0) return { touching };
  const moved: Splice[] = [];
  let delta = 0;
  let k = 0;
  for (const splice of splices) {
    while (k < changes.length && changes[k]!.end < splice.start) {
      delta += changes[k]!.text.length - (changes[k]!.end - changes[k]!.start);
      k++;
    }
    moved.push({ start: splice.start + delta, end: splice.end + delta, text: splice.text });
  }
  return { text: applySplices(other, moved) };
}

/**
 * The change from `base` to `changed` as splices of `base`, each covering its whole reach, so that
 * carrying them elsewhere with {@link rebaseSplices} is refused wherever the diff's alignment
 * could matter. Null when the two are too far apart to compare.
 */
export function splicesBetween(base: string, changed: string): Splice[] | null {
  const changes = textChanges(base, changed);
  if (changes === null) return null;
  // Reaches may overlap: such changes become one splice.
  const groups: TextChange[][] = [];
  for (const change of changes) {
    const last = groups[groups.length - 1];
    if (last !== undefined && change.reachStart < Math.max(...last.map((c) => c.reachEnd))) last.push(change);
    else groups.push([change]);
  }
  return groups.map((group) => {
    const start = Math.min(...group.map((c) => c.reachStart));
    const end = Math.max(...group.map((c) => c.reachEnd));
    const inner = group.map((c) => ({ start: c.start - start, end: c.end - start, text: c.text }));
    return { start, end, text: applySplices(base.slice(start, end), inner) };
  });
}
