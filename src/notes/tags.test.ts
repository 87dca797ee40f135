import { describe, expect, it } from 'vitest';
import { findTags } from './tags.ts';

describe('findTags', () => {
  it('joins frontmatter tags and inline tags, each once', () => {
    const text = '---\ntags: [project, "#alpha"]\n---\n# Title #beta\nText #project and #area/sub, #Ünïcode.\n';
    expect(findTags(text, { tags: ['project', '#alpha'] })).toEqual(['project', 'alpha', 'beta', 'area/sub', 'Ünïcode']);
  });
  it('splits a frontmatter text at commas and spaces', () => {
    expect(findTags('', { tags: 'a, b c' })).toEqual(['a', 'b', 'c']);
    expect(findTags('', { tag: 'single' })).toEqual(['single']);
  });
  it('skips numbers, anchors, code, links and headings', () => {
    const text = 'Issue #123 https://x.example/#frag a#b [[Note#Head]] `#code` [t](#local)\n```\n#fenced\n```\n# Heading\n';
    expect(findTags(text, null)).toEqual([]);
  });
});
