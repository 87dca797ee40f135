// Builds the rows of a base straight from file contents with the notes model (for tests,
// benchmarks and callers without an index): frontmatter, tags, links and embeds, resolved.
import { LinkResolver } from '../notes/link-resolver.ts';
import { decodeNoteText } from '../notes/note-text.ts';
import { parseNote } from '../notes/parse-note.ts';
import type { BaseLinkRef, BaseNote, BaseVaultInput } from './base-vault.ts';

/** One file: its repository path, content, and optionally its Git created/modified times. */
export interface BaseSourceFile {
  path: string;
  content: Buffer | string;
  ctime?: Date | null;
  mtime?: Date | null;
}

/**
 * Reads every file into a {@link BaseNote}: a `.md` file that is text becomes a note
 * (frontmatter, frontmatter and inline tags, links and embeds resolved the way Obsidian
 * does); any other file keeps only its file properties. Returns the rows and the resolver
 * over all their paths, ready for renderBaseView.
 */
export function baseNotesFromFiles(files: readonly BaseSourceFile[]): BaseVaultInput {
  const resolver = new LinkResolver(files.map((file) => file.path));
  const notes: BaseNote[] = files.map((file) => {
    const buffer = typeof file.content === 'string' ? Buffer.from(file.content, 'utf8') : file.content;
    const base = { path: file.path, size: buffer.length, ctime: file.ctime ?? null, mtime: file.mtime ?? null };
    const text = file.path.toLowerCase().endsWith('.md') ? decodeNoteText(buffer) : null;
    if (text === null) return { ...base, frontmatter: null, tags: [], links: [], embeds: [] };
    const parsed = parseNote(file.path, text, { typeField: 'type', summaryField: 'summary' });
    const links: BaseLinkRef[] = [];
    const embeds: BaseLinkRef[] = [];
    for (const link of parsed.links) {
      const ref = { target: link.target === '' ? file.path.replace(/\.md$/, '') : link.target, path: resolver.resolve(link, file.path) };
      (link.kind === 'embed' ? embeds : links).push(ref);
    }
    return { ...base, frontmatter: parsed.frontmatter.data ?? {}, tags: parsed.tags, links, embeds };
  });
  return { notes, resolveLink: (target, fromPath) => resolver.resolveTarget(target, fromPath) };
}
