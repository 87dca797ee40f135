import { describe, expect, it } from 'vitest';
import { openRoots } from './open-roots.ts';

describe('openRoots', () => {
  it('opens everything without folders or with "/"', () => {
    expect(openRoots([], '')).toEqual(['']);
    expect(openRoots(['/'], 'a/b')).toEqual(['a/b']);
  });

  it('keeps a scope inside an open folder, or narrows a wider scope to the open folders below it', () => {
    expect(openRoots(['active/', 'archive/'], 'active/launch')).toEqual(['active/launch']);
    expect(openRoots(['active/', 'archive/'], '')).toEqual(['active', 'archive']);
    expect(openRoots(['projects/active/', 'archive/'], 'projects')).toEqual(['projects/active']);
    expect(openRoots(['active/'], 'activeX')).toBeNull();
    expect(openRoots(['active/'], 'other/x.md')).toBeNull();
  });
});
