import { describe, expect, it } from 'vitest';
import { LinkResolver } from './link-resolver.ts';
import { findLinks } from './links.ts';
import { relinkNote } from './link-rewrite.ts';

/** Moves `moves` within `paths` and relinks `text` written at `at`. */
function relink(paths: string[], moves: Record<string, string>, at: string, text: string) {
  const moved = new Map(Object.entries(moves));
  const afterPaths = paths.map((path) => moved.get(path) ?? path);
  return relinkNote({
    text,
    links: findLinks(text),
    pathBefore: at,
    pathAfter: moved.get(at) ?? at,
    before: new LinkResolver(paths),
    after: new LinkResolver(afterPaths),
    moved,
  });
}

describe('relinkNote', () => {
  const paths = ['index.md', 'a/Plan.md', 'b/Other.md', 'b/Plan.md', 'img/pic one.png'];

  it('keeps every part of a wiki-link but its target', () => {
    const text = 'See [[a/Plan#Goals|the plan]], ![[a/Plan#^b1]], [[a/Plan.md]] and | [[a/Plan\\|cell]] |\n';
    const result = relink(paths, { 'a/Plan.md': 'c/Roadmap.md' }, 'index.md', text);
    expect(result.text).toBe('See [[c/Roadmap#Goals|the plan]], ![[c/Roadmap#^b1]], [[c/Roadmap.md]] and | [[c/Roadmap\\|cell]] |\n');
    expect(result.rewritten).toBe(4);
    expect(result.toMoved).toBe(4);
  });

  it('leaves a bare wiki-link that still resolves, and writes the path when the name is taken', () => {
    const only = ['index.md', 'a/Solo.md', 'a/Plan.md', 'b/Plan.md'];
    expect(relink(only, { 'a/Solo.md': 'z/Solo.md' }, 'index.md', '[[Solo]]').text).toBe('[[Solo]]');
    // [[Plan]] from index.md meant a/Plan.md (shortest path, then alphabetical); after a/Plan.md
    // moves deeper, the bare name would reach b/Plan.md: the path is written.
    expect(relink(only, { 'a/Plan.md': 'x/y/Plan.md' }, 'index.md', '[[Plan]]').text).toBe('[[x/y/Plan]]');
  });

  it('renames a bare wiki-link to the new name', () => {
    expect(relink(paths, { 'b/Other.md': 'b/Renamed.md' }, 'index.md', 'x [[Other|o]] y').text).toBe('x [[Renamed|o]] y');
  });

  it('recomputes relative Markdown links, keeping encoding, fragment and title', () => {
    const text = '[p](a/Plan.md#Goals "T") [pic](<img/pic one.png>) ![pic](img/pic%20one.png)\n';
    const result = relink(paths, { 'a/Plan.md': 'deep/er/Plan B.md', 'img/pic one.png': 'media/pic one.png' }, 'index.md', text);
    expect(result.text).toBe('[p](deep/er/Plan%20B.md#Goals "T") [pic](<media/pic one.png>) ![pic](media/pic%20one.png)\n');
  });

  it('recomputes links out of a moved note and keeps links inside a moved folder', () => {
    const tree = ['proj/readme.md', 'proj/sub/notes.md', 'shared/glossary.md'];
    const text = '[g](../shared/glossary.md) [n](sub/notes.md) [[sub/notes]]';
    const result = relink(
      tree,
      { 'proj/readme.md': 'archive/proj/readme.md', 'proj/sub/notes.md': 'archive/proj/sub/notes.md' },
      'proj/readme.md',
      text,
    );
    // [[sub/notes]] still resolves by name and folder suffix, so it is left alone.
    expect(result.text).toBe('[g](../../shared/glossary.md) [n](sub/notes.md) [[sub/notes]]');
    expect(result.rewritten).toBe(1);
  });

  it('encodes non-ASCII letters only when the link did', () => {
    const tree = ['n.md', 'Ärger.md'];
    expect(relink(tree, { 'Ärger.md': 'x/Ärger neu.md' }, 'n.md', '[a](%C3%84rger.md) [b](Ärger.md)').text).toBe(
      '[a](x/%C3%84rger%20neu.md) [b](x/Ärger%20neu.md)',
    );
  });

  it('never touches code', () => {
    const text = '`[[a/Plan]]`\n```\n[[a/Plan]]\n```\n[[a/Plan]]\n';
    expect(relink(paths, { 'a/Plan.md': 'c/Plan.md' }, 'index.md', text).text).toBe('`[[a/Plan]]`\n```\n[[a/Plan]]\n```\n[[c/Plan]]\n');
  });

  it('keeps a link from being captured by a moved note that takes its name', () => {
    const tree = ['b/n.md', 'c/Plan.md', 'a/Plan.md'];
    // From b/n.md, [[Plan]] meant a/Plan.md (same length, alphabetical); c/Plan.md moving into b/ would capture it.
    const result = relink(tree, { 'c/Plan.md': 'b/Plan.md' }, 'b/n.md', '[[Plan]]');
    expect(result.text).toBe('[[a/Plan]]');
  });
});
