import { describe, expect, it } from 'vitest';
import { isVaultError } from '../vault-error.ts';
import { assertInFolders, existingPathForms, isExempt, isHiddenPath, isInFolders, normalizeVaultPath } from './vault-path.ts';

function codeOf(fn: () => unknown): string | null {
  try {
    fn();
    return null;
  } catch (error) {
    return isVaultError(error) ? error.code : `not a VaultError: ${String(error)}`;
  }
}

describe('normalizeVaultPath', () => {
  it('keeps a good path and NFC-normalises it', () => {
    expect(normalizeVaultPath('projects/apollo/plan.md')).toBe('projects/apollo/plan.md');
    expect(normalizeVaultPath('Bu\u0308ro/Pla\u0308ne.md')).toBe('Büro/Pläne.md');
    expect(normalizeVaultPath('a//b.md')).toBe('a/b.md');
    expect(normalizeVaultPath('  a/b.md ')).toBe('a/b.md');
    expect(normalizeVaultPath('100% done.md')).toBe('100% done.md');
    expect(normalizeVaultPath('a%20b.md')).toBe('a%20b.md');
  });

  it('treats folders: trailing slash dropped, empty and "/" are the root', () => {
    expect(normalizeVaultPath('projects/apollo/', 'folder')).toBe('projects/apollo');
    expect(normalizeVaultPath('', 'folder')).toBe('');
    expect(normalizeVaultPath('/', 'folder')).toBe('');
  });

  it.each([
    ['', 'invalid_path'],
    ['../secret.md', 'invalid_path'],
    ['a/../../b.md', 'invalid_path'],
    ['a/./b.md', 'invalid_path'],
    ['/etc/passwd', 'invalid_path'],
    ['C:/x.md', 'invalid_path'],
    ['a\\b.md', 'invalid_path'],
    ['a\u0000b.md', 'invalid_path'],
    ['a\nb.md', 'invalid_path'],
    ['%2e%2e/secret.md', 'invalid_path'],
    ['a%2Fb.md', 'invalid_path'],
    ['%252e%252e/x.md', 'invalid_path'],
    ['a%5cb.md', 'invalid_path'],
    ['a%00.md', 'invalid_path'],
    ['notes/', 'invalid_path'],
    ['.git/config', 'hidden_path'],
    ['a/.obsidian/workspace.json', 'hidden_path'],
    ['.vault/settings.jsonc', 'hidden_path'],
    ['a/.hidden.md', 'hidden_path'],
  ])('refuses %j with %s', (input, code) => {
    expect(codeOf(() => normalizeVaultPath(input))).toBe(code);
  });

  it('says how to succeed', () => {
    try {
      normalizeVaultPath('../x.md');
    } catch (error) {
      expect((error as Error).message).toContain('relative to the repository root');
    }
  });
});

describe('normalizeVaultPath for new names', () => {
  it.each(['a\tb.md', 'a\nb.md', 'a\u0007b.md'])('refuses %j, saying a new name may not hold a control character', (input) => {
    expect(() => normalizeVaultPath(input)).toThrow(/control character .*create or move/);
  });
});

describe('existingPathForms', () => {
  it('keeps the path exactly as given first (no NFC), then trimmed', () => {
    expect(existingPathForms('Tests/cafe\u0301.md')).toEqual(['Tests/cafe\u0301.md']);
    expect(existingPathForms('a//b.md')).toEqual(['a/b.md']);
    expect(existingPathForms(' a/b.md ')).toEqual([' a/b.md ', 'a/b.md']);
    expect(existingPathForms('a/b/', 'folder')).toEqual(['a/b']);
    expect(existingPathForms('/', 'folder')).toEqual(['']);
  });

  it('takes a tab, a line break and other control characters, as Git holds them', () => {
    expect(existingPathForms('Tests/tab\tname.md')).toEqual(['Tests/tab\tname.md']);
    expect(existingPathForms('a\nb.md')).toEqual(['a\nb.md']);
    expect(existingPathForms('a\u0007b.md')).toEqual(['a\u0007b.md']);
  });

  it('refuses a line break for a tool that cannot reach such a file, naming the tool and read_note', () => {
    expect(() => existingPathForms('a\nb.md', 'note', { lineBreaks: 'refuse', tool: 'note_history' })).toThrow(
      /line break.*read_note.*note_history/,
    );
    expect(existingPathForms('a\tb.md', 'note', { lineBreaks: 'refuse', tool: 'note_history' })).toEqual(['a\tb.md']);
  });

  it.each([
    ['a\u0000b.md', 'invalid_path'],
    ['../secret.md', 'invalid_path'],
    [' ../secret.md', 'invalid_path'],
    ['/etc/passwd', 'invalid_path'],
    ['a\\b.md', 'invalid_path'],
    ['%2e%2e/x.md', 'invalid_path'],
    ['.git/config', 'hidden_path'],
    [' .vault/settings.jsonc', 'hidden_path'],
  ])('refuses %j with %s', (input, code) => {
    expect(codeOf(() => existingPathForms(input))).toBe(code);
  });
});

describe('isHiddenPath', () => {
  it('sees a dot at the start of any segment', () => {
    expect(isHiddenPath('.git/x')).toBe(true);
    expect(isHiddenPath('a/.b/c.md')).toBe(true);
    expect(isHiddenPath('a/b.c/d.md')).toBe(false);
    for (const path of ['a/b/.c', '..', 'a//.b', '.', 'a/b/c.md.', 'a./b', '', 'a/ .b', 'ä/.ü/x.md', 'a/b/'])
      expect(isHiddenPath(path), path).toBe(path.split('/').some((segment) => segment.startsWith('.')));
  });
});

describe('folders', () => {
  const folders = ['active/', 'archive/'];
  it('opens only the listed folders', () => {
    expect(isInFolders('active/launch/plan.md', folders)).toBe(true);
    expect(isInFolders('active', folders)).toBe(true);
    expect(isInFolders('activeX/plan.md', folders)).toBe(false);
    expect(isInFolders('src/index.ts', folders)).toBe(false);
    expect(isInFolders('README.md', folders)).toBe(false);
  });
  it('opens everything for "/" or no folders', () => {
    expect(isInFolders('src/x.md', ['/'])).toBe(true);
    expect(isInFolders('src/x.md', [])).toBe(true);
  });
  it('refuses outside with outside_folders naming the open folders', () => {
    expect(codeOf(() => assertInFolders('src/x.md', folders))).toBe('outside_folders');
    try {
      assertInFolders('src/x.md', folders);
    } catch (error) {
      expect((error as Error).message).toContain('"active/", "archive/"');
    }
    expect(codeOf(() => assertInFolders('archive/x.md', folders))).toBeNull();
  });
});

describe('isExempt', () => {
  it('matches folders, exact paths and globs; README.md always', () => {
    const exempt = ['templates/', 'inbox/*.md', 'drafts/**/scratch.md', 'TODO.md'];
    expect(isExempt('templates/decision.md', exempt)).toBe(true);
    expect(isExempt('templates/sub/x.md', exempt)).toBe(true);
    expect(isExempt('inbox/a.md', exempt)).toBe(true);
    expect(isExempt('inbox/sub/a.md', exempt)).toBe(false);
    expect(isExempt('drafts/a/b/scratch.md', exempt)).toBe(true);
    expect(isExempt('TODO.md', exempt)).toBe(true);
    expect(isExempt('x/TODO.md', exempt)).toBe(false);
    expect(isExempt('active/README.md', [])).toBe(true);
    expect(isExempt('active/plan.md', exempt)).toBe(false);
  });
});
