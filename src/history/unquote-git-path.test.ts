import { describe, expect, it } from 'vitest';
import { unquoteGitPath } from './unquote-git-path.ts';

describe('unquoteGitPath', () => {
  it('returns unquoted names as they are', () => {
    expect(unquoteGitPath('notes/plan #1.md')).toBe('notes/plan #1.md');
    expect(unquoteGitPath('notes/für.md')).toBe('notes/für.md');
  });

  it('reads C escapes and octal bytes back into exact Unicode', () => {
    expect(unquoteGitPath('"notes/odd \\"name\\"\\ttab\\\\x.md"')).toBe('notes/odd "name"\ttab\\x.md');
    expect(unquoteGitPath('"notes/f\\303\\274r.md"')).toBe('notes/für.md');
    expect(unquoteGitPath('"notes/😀 \\"x\\".md"')).toBe('notes/😀 "x".md');
  });
});
