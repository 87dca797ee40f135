import { describe, expect, it } from 'vitest';
import { headingAnchor, headingRenames, relinkHeadings } from './heading-links.ts';
import { LinkResolver } from './link-resolver.ts';
import { applyEdits } from './link-rewrite.ts';
import { findLinks } from './links.ts';

describe('headingRenames', () => {
  it('finds a heading changed in place, one for one, at the same level', () => {
    expect(headingRenames('# A\n\n## Old\n\ntext\n', '# A\n\n## New name\n\ntext\n')).toEqual([{ from: 'Old', to: 'New name', level: 2 }]);
    expect(headingRenames('Old\n===\n', 'New\n===\n')).toEqual([{ from: 'Old', to: 'New', level: 1 }]);
  });

  it('finds none when headings are added, removed, re-levelled, or only re-spaced or re-cased', () => {
    expect(headingRenames('## Old\n', '## New\n## More\n')).toEqual([]);
    expect(headingRenames('## Old\n## Two\n', '## New\n')).toEqual([]);
    expect(headingRenames('## Old\n', '### New\n')).toEqual([]);
    expect(headingRenames('## Old  name\n', '## old name\n')).toEqual([]);
  });
});

describe('headingAnchor', () => {
  it('writes the anchor as GitHub does', () => {
    expect(headingAnchor('Open questions: who pays?')).toBe('open-questions-who-pays');
    expect(headingAnchor('Größe & Maße_2')).toBe('größe--maße_2');
  });
});

describe('relinkHeadings', () => {
  it('rewrites only links that reach the renamed note, in their own form', () => {
    const text = '[[plan#Old]] [[other#Old]] [[plan#^block]] [x](plan.md#old) [y](<plan.md#Old>)\n';
    const resolver = new LinkResolver(['plan.md', 'other.md', 'a.md']);
    const { edits } = relinkHeadings(findLinks(text), 'a.md', 'plan.md', [{ from: 'Old', to: 'New one', level: 2 }], resolver);
    expect(applyEdits(text, edits)).toBe('[[plan#New one]] [[other#Old]] [[plan#^block]] [x](plan.md#new-one) [y](<plan.md#New one>)\n');
  });

  it('writes |, < and > encoded in a link in angle brackets, where they would end it or split a table cell', () => {
    const text = '| a | [z](<plan.md#Old>) |\n';
    const resolver = new LinkResolver(['plan.md', 'a.md']);
    const { edits } = relinkHeadings(findLinks(text), 'a.md', 'plan.md', [{ from: 'Old', to: 'Ze | ta <b>', level: 2 }], resolver);
    expect(applyEdits(text, edits)).toBe('| a | [z](<plan.md#Ze %7C ta %3Cb%3E>) |\n');
  });
});
