// The table-cell rule of edit_note: a `|` inside a wiki-link on a table row gets its backslash.

/** One wiki-link whose `|` was escaped: the line (from 1) and the link as written afterwards. */
export interface EscapedPipe {
  line: number;
  link: string;
}

const DELIMITER_ROW = /^\s*\|?\s*:?-+:?\s*(?:\|\s*:?-+:?\s*)*\|?\s*$/;
const FENCE = /^\s{0,3}(`{3,}|~{3,})/;

/**
 * Escapes every bare `|` inside a wiki-link or embed (`[[note|label]]` → `[[note\|label]]`)
 * on the table rows of `text` that overlap `[start, end)` (the text an edit inserted), since
 * a bare `|` there would start a new cell (spec: edit_note `new_text`). Rows are the lines of
 * a GFM table (header, delimiter row, body rows up to the first line without `|`) outside
 * fenced code. Nothing outside `[start, end)` changes. Returns the new text, the new end of
 * the inserted range, and each link it escaped.
 */
export function escapeTablePipes(text: string, start: number, end: number): { text: string; end: number; escaped: EscapedPipe[] } {
  const escaped: EscapedPipe[] = [];
  if (!text.slice(start, end).includes('[[')) return { text, end, escaped };
  const rows = tableRows(text);
  let out = '';
  let from = 0;
  let shift = 0;
  let lineStart = 0;
  let line = 1;
  while (lineStart <= text.length) {
    const br = text.indexOf('\n', lineStart);
    const lineEnd = br === -1 ? text.length : br;
    const overlaps = lineEnd >= start && lineStart <= end && lineStart < text.length;
    if (overlaps && rows.has(line)) {
      const lo = Math.max(lineStart, start);
      const hi = Math.min(lineEnd, end);
      for (const link of wikiLinksIn(text, lineStart, lineEnd)) {
        let changed = '';
        let linkChanged = false;
        for (let i = link.start; i < link.end; i++) {
          const ch = text[i]!;
          if (ch === '|' && text[i - 1] !== '\\' && i >= lo && i < hi) {
            changed += '\\|';
            linkChanged = true;
          } else changed += ch;
        }
        if (!linkChanged) continue;
        out += text.slice(from, link.start) + changed;
        from = link.end;
        shift += changed.length - (link.end - link.start);
        escaped.push({ line, link: changed });
      }
    }
    if (br === -1) break;
    lineStart = br + 1;
    line++;
  }
  out += text.slice(from);
  return { text: out, end: end + shift, escaped };
}

/** The 1-based lines of `text` that are rows of a GFM table outside fenced code. */
function tableRows(text: string): Set<number> {
  const lines = text.split('\n').map((line) => (line.endsWith('\r') ? line.slice(0, -1) : line));
  const rows = new Set<number>();
  let fence: string | null = null;
  for (let i = 0; i < lines.length; i++) {
    const current = lines[i]!;
    const opened = FENCE.exec(current);
    if (fence !== null) {
      if (opened && opened[1]![0] === fence[0] && opened[1]!.length >= fence.length && current.trim() === opened[1]) fence = null;
      continue;
    }
    if (opened) {
      fence = opened[1]!;
      continue;
    }
    // A delimiter row under a header row, both with a `|` (a bare `---` makes a setext heading).
    if (i === 0 || !current.includes('|') || !DELIMITER_ROW.test(current) || !lines[i - 1]!.includes('|')) continue;
    rows.add(i); // the header, 1-based line i
    rows.add(i + 1);
    for (let j = i + 1; j < lines.length && lines[j]!.includes('|') && lines[j]!.trim() !== ''; j++) rows.add(j + 1);
  }
  return rows;
}

/** `[[…]]` spans (with a leading `!` for embeds) between `from` and `to`, outside code spans. */
function wikiLinksIn(text: string, from: number, to: number): Array<{ start: number; end: number }> {
  const links: Array<{ start: number; end: number }> = [];
  let i = from;
  while (i < to) {
    if (text[i] === '`') {
      const ticks = /^`+/.exec(text.slice(i, to))![0];
      const close = text.indexOf(ticks, i + ticks.length);
      if (close === -1 || close >= to) {
        i += ticks.length;
        continue;
      }
      i = close + ticks.length;
      continue;
    }
    if (text.startsWith('[[', i)) {
      const close = text.indexOf(']]', i + 2);
      if (close === -1 || close >= to) break;
      links.push({ start: i, end: close + 2 });
      i = close + 2;
      continue;
    }
    i++;
  }
  return links;
}
