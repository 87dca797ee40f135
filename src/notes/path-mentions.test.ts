import { describe, expect, it } from 'vitest';
import { findPathMentions, pathMentionNeedle } from './path-mentions.ts';

describe('findPathMentions', () => {
  it('finds a note in a folder by its path with or without .md, standing alone', () => {
    const text = [
      'see projects/plan.md',
      'or `projects/plan`',
      'not archive/projects/plan.md',
      'nor projects/plan.md.bak or projects/planning',
      'nor Projects/plan.md',
    ].join('\n');
    expect(findPathMentions(text, 'projects/plan.md').map((m) => [m.line, m.start, m.length])).toEqual([
      [1, 4, 16],
      [2, 4, 13],
    ]);
  });

  it('finds a root note only with its extension, and never inside link syntax', () => {
    const text = '# Plan\nThe Plan.\nPlan.md, and `[[Plan.md]]` or `[p](Plan.md)`\n`[[Plan.md]]` then Plan.md\n';
    expect(findPathMentions(text, 'Plan.md').map((m) => [m.line, m.start])).toEqual([
      [3, 0],
      [4, 19],
    ]);
    expect(pathMentionNeedle('Plan.md')).toBe('Plan.md');
    expect(pathMentionNeedle('a/Plan.md')).toBe('a/Plan');
    expect(pathMentionNeedle('images/logo.png')).toBe('images/logo.png');
  });
});
