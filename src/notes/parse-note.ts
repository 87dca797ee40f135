// One note read once: frontmatter, title, type, summary, headings, links, tags and grades.
import { fieldText } from './field-text.ts';
import { splitFrontmatter, type Frontmatter } from './frontmatter.ts';
import { findGrades, type Graded } from './grades.ts';
import { findHeadings, type Heading } from './headings.ts';
import { findLinks, type Link } from './links.ts';
import { scanMarkdownLines } from './markdown-lines.ts';
import { findTags } from './tags.ts';

/**
 * Everything the index and the read tools take from one note.
 * `title`: the frontmatter `title` (as text), else the file name without `.md`.
 * `type`/`summary`: the text of the `typeField`/`summaryField` frontmatter values, null
 * when absent or empty. `totalLines`: the note's lines as splitLines (lines.ts) counts them.
 */
export interface ParsedNote {
  frontmatter: Frontmatter;
  title: string;
  type: string | null;
  summary: string | null;
  headings: Heading[];
  links: Link[];
  tags: string[];
  grades: Graded[];
  totalLines: number;
}

/**
 * Parses the note at `path` (repository-relative) with text `text` (DESIGN.md "The
 * repository model": title from `title` or the file name, type from the `typeField`).
 * Never throws: a broken frontmatter is reported in `frontmatter.error`, and the rest of
 * the note is still read.
 */
export function parseNote(path: string, text: string, fields: { typeField: string; summaryField: string }): ParsedNote {
  const frontmatter = splitFrontmatter(text);
  const lines = scanMarkdownLines(text, frontmatter);
  const data = frontmatter.data;
  return {
    frontmatter,
    title: scalarText(data?.title) ?? fileTitle(path),
    type: scalarText(data?.[fields.typeField]),
    summary: scalarText(data?.[fields.summaryField]),
    headings: findHeadings(text, lines),
    links: findLinks(text, lines),
    tags: findTags(text, data, lines),
    grades: findGrades(text, lines),
    totalLines: lines.length,
  };
}

/** The file name of `path` without its `.md` (any case): a note's title when the frontmatter gives none. */
export function fileTitle(path: string): string {
  const name = path.slice(path.lastIndexOf('/') + 1);
  return name.replace(/\.md$/i, '');
}

/** A frontmatter value as non-empty text, or null (lists and objects are not a title or type). */
function scalarText(value: unknown): string | null {
  if (value === null || value === undefined || typeof value === 'object') return null;
  const text = fieldText(value).trim();
  return text === '' ? null : text;
}
