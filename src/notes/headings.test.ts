import { describe, expect, it } from 'vitest';
import { findHeadings, sectionRange } from './headings.ts';

describe('findHeadings', () => {
  it('reads ATX headings and strips closing #s', () => {
    expect(findHeadings('# One\n## Two ##\n### Three #  \n#### Four#\n###### Six\n####### Seven\n')).toEqual([
      { line: 1, level: 1, text: 'One' },
      { line: 2, level: 2, text: 'Two' },
      { line: 3, level: 3, text: 'Three' },
      { line: 4, level: 4, text: 'Four#' },
      { line: 5, level: 6, text: 'Six' },
    ]);
  });
  it('needs a space after the #s: a tag is not a heading', () => {
    expect(findHeadings('#tag\n#\n   # Indented three\n    # Four is code\n')).toEqual([{ line: 3, level: 1, text: 'Indented three' }]);
  });
  it('reads setext headings but never the frontmatter fence', () => {
    expect(findHeadings('---\ntitle: x\n---\nTitle\n=====\n\nSub\ntitle\n---\n\n---\n')).toEqual([
      { line: 4, level: 1, text: 'Title' },
      { line: 7, level: 2, text: 'Sub title' },
    ]);
  });
  it('does not take a list item or thematic break for a setext heading', () => {
    expect(findHeadings('- item\n---\n\n***\n---\n')).toEqual([]);
  });
  it('finds none in fenced or indented code', () => {
    const text = '# Real\n```\n# not\n```\n~~~md\n## not\n~~~\n\n    # not either\n## Also real\n';
    expect(findHeadings(text)).toEqual([
      { line: 1, level: 1, text: 'Real' },
      { line: 10, level: 2, text: 'Also real' },
    ]);
  });
  it('numbers lines over the whole file with a BOM and CRLF', () => {
    expect(findHeadings('\uFEFF---\r\na: 1\r\n---\r\n# Head\r\n')).toEqual([{ line: 4, level: 1, text: 'Head' }]);
    expect(findHeadings('\uFEFF# First\n')).toEqual([{ line: 1, level: 1, text: 'First' }]);
  });
});

describe('sectionRange', () => {
  const text = '# Plan\nintro\n## Open Questions\nq1\n### Detail\nd\n## 3. Timeline\nt\n# Next\nn\n';
  const headings = findHeadings(text);
  it('runs to the next heading of the same or a higher level', () => {
    expect(sectionRange(text, headings, 'Open Questions')).toMatchObject({ fromLine: 3, toLine: 6 });
    expect(sectionRange(text, headings, '3. Timeline')).toMatchObject({ fromLine: 7, toLine: 8 });
    expect(sectionRange(text, headings, 'Plan')).toMatchObject({ fromLine: 1, toLine: 8 });
    expect(sectionRange(text, headings, 'Next')).toMatchObject({ fromLine: 9, toLine: 10 });
  });
  it('accepts #s and other case, and answers null for none', () => {
    expect(sectionRange(text, headings, '## open questions')?.heading.text).toBe('Open Questions');
    expect(sectionRange(text, headings, 'Missing')).toBeNull();
  });
});
