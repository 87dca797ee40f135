import { describe, expect, it } from 'vitest';
import { LinkResolver } from './link-resolver.ts';

const files = [
  'Plan.md',
  'projects/apollo/Plan.md',
  'projects/apollo/notes/Kickoff.md',
  'projects/zeus/Plan.md',
  'archive/b/Plan.md',
  'archive/a/Plan.md',
  'images/diagram.png',
  'projects/apollo/diagram.png',
  'Über uns.md',
  'docs/Case Note.md',
  'docs/Overview.base',
];
const resolver = new LinkResolver(files);
const wiki = (target: string) => ({ kind: 'wiki' as const, target });
const md = (target: string) => ({ kind: 'markdown' as const, target });

describe('LinkResolver: wiki-links', () => {
  it('resolves a vault path with or without .md first', () => {
    expect(resolver.resolve(wiki('projects/zeus/Plan'), 'x.md')).toBe('projects/zeus/Plan.md');
    expect(resolver.resolve(wiki('projects/zeus/Plan.md'), 'x.md')).toBe('projects/zeus/Plan.md');
    expect(resolver.resolve(wiki('/projects/zeus/Plan'), 'x.md')).toBe('projects/zeus/Plan.md');
  });
  it("prefers the same-name note in the linking note's own folder", () => {
    expect(resolver.resolve(wiki('Plan'), 'projects/apollo/Other.md')).toBe('projects/apollo/Plan.md');
    expect(resolver.resolve(wiki('Plan'), 'projects/zeus/Other.md')).toBe('projects/zeus/Plan.md');
  });
  it('else takes the shortest path, then the first alphabetically', () => {
    expect(resolver.resolve(wiki('Plan'), 'elsewhere/x.md')).toBe('Plan.md');
    const noRoot = new LinkResolver(files.filter((f) => f !== 'Plan.md'));
    expect(noRoot.resolve(wiki('Plan'), 'elsewhere/x.md')).toBe('archive/a/Plan.md');
  });
  it('matches a folder part as the end of the path', () => {
    expect(resolver.resolve(wiki('zeus/Plan'), 'x.md')).toBe('projects/zeus/Plan.md');
    expect(resolver.resolve(wiki('b/Plan'), 'x.md')).toBe('archive/b/Plan.md');
    expect(resolver.resolve(wiki('apollo/notes/Kickoff'), 'x.md')).toBe('projects/apollo/notes/Kickoff.md');
    expect(resolver.resolve(wiki('nowhere/Plan'), 'x.md')).toBeNull();
  });
  it('resolves attachments by their whole file name', () => {
    expect(resolver.resolve({ kind: 'embed', target: 'diagram.png' }, 'projects/apollo/Plan.md')).toBe('projects/apollo/diagram.png');
    expect(resolver.resolve({ kind: 'embed', target: 'diagram.png' }, 'x.md')).toBe('images/diagram.png');
    expect(resolver.resolve(wiki('Overview.base'), 'x.md')).toBe('docs/Overview.base');
    expect(resolver.resolve(wiki('Overview'), 'x.md')).toBeNull();
  });
  it('falls back to ignoring case, and compares NFC', () => {
    expect(resolver.resolve(wiki('case note'), 'x.md')).toBe('docs/Case Note.md');
    expect(resolver.resolve(wiki('DOCS/case note'), 'x.md')).toBe('docs/Case Note.md');
    expect(resolver.resolve(wiki('U\u0308ber uns'), 'x.md')).toBe('Über uns.md');
  });
  it('resolves a same-note link to the note itself and a missing one to null', () => {
    expect(resolver.resolve(wiki(''), 'projects/apollo/Plan.md')).toBe('projects/apollo/Plan.md');
    expect(resolver.resolve(wiki('Missing'), 'x.md')).toBeNull();
  });
  it('follows ./ and ../ relative to the linking note', () => {
    expect(resolver.resolve(wiki('../Plan'), 'projects/apollo/notes/Kickoff.md')).toBe('projects/apollo/Plan.md');
    expect(resolver.resolve(wiki('../../../../Plan'), 'projects/apollo/notes/Kickoff.md')).toBeNull();
  });
});

describe('LinkResolver: Markdown links', () => {
  it('resolves relative to the linking note first', () => {
    expect(resolver.resolve(md('Plan.md'), 'projects/zeus/x.md')).toBe('projects/zeus/Plan.md');
    expect(resolver.resolve(md('notes/Kickoff.md'), 'projects/apollo/Plan.md')).toBe('projects/apollo/notes/Kickoff.md');
    expect(resolver.resolve(md('../zeus/Plan.md'), 'projects/apollo/Plan.md')).toBe('projects/zeus/Plan.md');
    expect(resolver.resolve(md('Über uns.md'), 'README.md')).toBe('Über uns.md');
  });
  it('treats a Markdown image like a Markdown link', () => {
    const withRootImg = new LinkResolver([...files, 'img/a.png', 'docs/img/a.png']);
    expect(withRootImg.resolve({ kind: 'embed', target: 'img/a.png', raw: '![](img/a.png)' }, 'docs/x.md')).toBe('docs/img/a.png');
    expect(withRootImg.resolve({ kind: 'embed', target: 'img/a.png', raw: '![[img/a.png]]' }, 'docs/x.md')).toBe('img/a.png');
  });
  it('then from the root and by name, as Obsidian does', () => {
    expect(resolver.resolve(md('projects/zeus/Plan.md'), 'docs/x.md')).toBe('projects/zeus/Plan.md');
    expect(resolver.resolve(md('Kickoff.md'), 'docs/x.md')).toBe('projects/apollo/notes/Kickoff.md');
  });
});

describe('LinkResolver.shortestTarget', () => {
  it('uses the name when it resolves uniquely, else the path', () => {
    expect(resolver.shortestTarget('projects/apollo/notes/Kickoff.md', 'x.md')).toBe('Kickoff');
    expect(resolver.shortestTarget('projects/zeus/Plan.md', 'x.md')).toBe('projects/zeus/Plan');
    expect(resolver.shortestTarget('projects/zeus/Plan.md', 'projects/zeus/y.md')).toBe('Plan');
    expect(resolver.shortestTarget('images/diagram.png', 'x.md')).toBe('diagram.png');
  });
});

describe('LinkResolver: scale', () => {
  it('resolves many links over many files', () => {
    const paths = Array.from({ length: 20_000 }, (_, i) => `folder${i % 50}/note ${i}.md`);
    const big = new LinkResolver(paths);
    let found = 0;
    for (let i = 0; i < 50_000; i++) if (big.resolve(wiki(`note ${i % 25_000}`), `folder${i % 50}/x.md`)) found++;
    expect(found).toBe(40_000);
  });
});

describe('LinkResolver: add and delete', () => {
  it('answers as a resolver built on the paths after the changes', () => {
    const kept = new LinkResolver(files);
    const paths = new Set(files);
    // A move, a new note with a name taken, a removal that empties folders, an NFD spelling of a held path, and back.
    const steps: Array<[string, 'add' | 'delete']> = [
      ['projects/apollo/Plan.md', 'delete'],
      ['moved/Plan.md', 'add'],
      ['archive/b/Plan.md', 'delete'],
      ['archive/a/Plan.md', 'delete'],
      ['docs/New.md', 'add'],
      ['U\u0308ber uns.md', 'add'],
      ['Über uns.md', 'delete'],
      ['projects/apollo/Plan.md', 'add'],
    ];
    const targets = ['Plan', 'projects/apollo/Plan', 'archive/a/Plan', 'New', 'Über uns', 'apollo/Plan', 'diagram.png'];
    const from = ['x.md', 'projects/apollo/Other.md', 'archive/b/Other.md', 'docs/Other.md'];
    for (const [path, op] of steps) {
      if (op === 'add') {
        kept.add(path);
        paths.add(path);
      } else {
        kept.delete(path);
        paths.delete(path);
      }
      const built = new LinkResolver(paths);
      for (const target of targets) {
        for (const source of from) {
          expect(kept.resolve(wiki(target), source), `${op} ${path}: ${target} from ${source}`).toBe(built.resolve(wiki(target), source));
          expect(kept.resolve(md(target), source)).toBe(built.resolve(md(target), source));
        }
      }
      for (const folder of ['archive', 'archive/a', 'projects/apollo', 'moved', 'docs']) {
        expect(kept.resolveFolder(folder, 'x.md'), `${op} ${path}: folder ${folder}`).toBe(built.resolveFolder(folder, 'x.md'));
      }
      expect(kept.has('Über uns.md')).toBe(built.has('Über uns.md'));
    }
  });
});

describe('LinkResolver.withMoves', () => {
  it('answers as a resolver built on the moved paths, and leaves the original as it was', () => {
    const original = new LinkResolver(files);
    // A folder emptied by the move, a name that now exists twice, a case-only rename and an NFD spelling.
    const moves = new Map([
      ['projects/apollo/Plan.md', 'moved/deep/Plan.md'],
      ['projects/apollo/notes/Kickoff.md', 'projects/apollo/notes/kickoff.md'],
      ['archive/a/Plan.md', 'archive/b/Plan (2).md'],
      ['Über uns.md', 'team/U\u0308ber uns.md'],
    ]);
    const moved = original.withMoves(moves);
    const built = new LinkResolver(files.map((path) => moves.get(path) ?? path));
    const targets = [
      'Plan',
      'projects/apollo/Plan',
      'deep/Plan',
      'Kickoff',
      'kickoff',
      'Plan (2)',
      'archive/a/Plan',
      'Über uns',
      'diagram.png',
    ];
    const from = ['x.md', 'projects/apollo/Other.md', 'moved/deep/Other.md', 'archive/b/Other.md', 'team/Other.md'];
    for (const target of targets) {
      for (const source of from) {
        expect(moved.resolve(wiki(target), source), `${target} from ${source}`).toBe(built.resolve(wiki(target), source));
        expect(moved.resolve(md(target), source)).toBe(built.resolve(md(target), source));
        expect(original.resolve(wiki(target), source), `original: ${target} from ${source}`).toBe(resolver.resolve(wiki(target), source));
      }
    }
    for (const folder of ['archive', 'archive/a', 'projects/apollo', 'projects/apollo/notes', 'moved', 'moved/deep', 'team']) {
      expect(moved.resolveFolder(folder, 'x.md'), `folder ${folder}`).toBe(built.resolveFolder(folder, 'x.md'));
      expect(original.resolveFolder(folder, 'x.md'), `original: folder ${folder}`).toBe(resolver.resolveFolder(folder, 'x.md'));
    }
    for (const path of [...files, ...moves.values()]) expect(moved.has(path), path).toBe(built.has(path));
  });
});

describe('LinkResolver.holdsExactly', () => {
  it('is true only for the same set of paths, each in NFC', () => {
    const nfc = ['a/Plan.md', 'b/Plan.md', 'Über uns.md', 'c/d/e.png'];
    const built = new LinkResolver(nfc);
    expect(built.holdsExactly(nfc)).toBe(true);
    expect(built.holdsExactly([...nfc].reverse()), 'in another order').toBe(true);
    expect(built.holdsExactly(nfc.slice(1)), 'one fewer').toBe(false);
    expect(built.holdsExactly([...nfc, 'f.md']), 'one more').toBe(false);
    expect(built.holdsExactly([...nfc.slice(1), 'f.md']), 'one other').toBe(false);
    expect(built.holdsExactly([...nfc.slice(0, 3), 'c/d/e.PNG']), 'another case').toBe(false);
    // The same name in NFD: resolves alike, but the set differs in spelling (a rebuild decides).
    expect(built.holdsExactly([...nfc.slice(0, 2), 'U\u0308ber uns.md', 'c/d/e.png'])).toBe(false);
    const nfd = new LinkResolver(['U\u0308ber uns.md']);
    expect(nfd.holdsExactly(['U\u0308ber uns.md']), 'a path not in NFC').toBe(false);
    const twice = new LinkResolver(['Über uns.md', 'U\u0308ber uns.md']);
    expect(twice.holdsExactly(['Über uns.md', 'U\u0308ber uns.md']), 'two spellings of one path').toBe(false);
    expect(twice.holdsExactly(['Über uns.md']), 'one of two spellings').toBe(false);
  });

  it('holds for a resolver made by withMoves exactly when the moved paths are given', () => {
    const before = ['a/Plan.md', 'b/Other.md', 'b/deep/x.md'];
    const after = new LinkResolver(before).withMoves(new Map([['b/deep/x.md', 'c/x.md']]));
    expect(after.holdsExactly(['a/Plan.md', 'b/Other.md', 'c/x.md'])).toBe(true);
    expect(after.holdsExactly(before)).toBe(false);
  });
});
