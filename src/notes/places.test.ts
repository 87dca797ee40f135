import { describe, expect, it } from 'vitest';
import { isVaultError } from '../vault-error.ts';
import { buildPlace, matchPlace, placeFields } from './places.ts';

const place = 'active/{project:slug}/decisions/{title:slug}.md';

describe('matchPlace', () => {
  it('returns the placeholder values when the path fits', () => {
    expect(matchPlace(place, 'active/apollo/decisions/pick-a-date.md')).toEqual({ project: 'apollo', title: 'pick-a-date' });
    expect(matchPlace(place, 'active/apollo/decisions/Pick a date.md')).toEqual({ project: 'apollo', title: 'Pick a date' });
  });
  it('answers null when it does not fit', () => {
    expect(matchPlace(place, 'active/apollo/notes/pick-a-date.md')).toBeNull();
    expect(matchPlace(place, 'active/a/b/decisions/x.md')).toBeNull();
    expect(matchPlace(place, 'active/apollo/decisions/x.txt')).toBeNull();
    expect(matchPlace(place, 'active/apollo/decisions/.md')).toBeNull();
  });
  it('with strictSlugs needs slug pieces to be slugs', () => {
    expect(matchPlace(place, 'active/apollo/decisions/Pick a date.md', { strictSlugs: true })).toBeNull();
    expect(matchPlace(place, 'active/apollo/decisions/pick-a-date.md', { strictSlugs: true })).not.toBeNull();
  });
  it('handles several placeholders in one segment and plain ones', () => {
    expect(matchPlace('log/{date}-{title:slug}.md', 'log/2026-01-05-kickoff.md')).toEqual({ date: '2026', title: '01-05-kickoff' });
    expect(matchPlace('people/{name}.md', 'people/Anna Ölz.md')).toEqual({ name: 'Anna Ölz' });
  });
  it('lists the fields', () => {
    expect(placeFields(place)).toEqual(['project', 'title']);
  });
});

describe('buildPlace', () => {
  it('builds the path from the fields', () => {
    expect(buildPlace(place, { project: 'Apollo', title: 'Über den Starttermin?' })).toBe(
      'active/apollo/decisions/ueber-den-starttermin.md',
    );
    expect(buildPlace('log/{date}-{title:slug}.md', { date: '2026-01-05T10:00:00Z', title: 'Kick off' })).toBe(
      'log/2026-01-05-kick-off.md',
    );
  });
  it.each([
    [{ project: 'apollo' }, 'title'],
    [{ project: 'apollo', title: '' }, 'title'],
    [{ project: '!!!', title: 'x' }, 'project'],
  ])('refuses %j with bad_arguments naming %s', (values, field) => {
    try {
      buildPlace(place, values);
      expect.unreachable();
    } catch (error) {
      expect(isVaultError(error, 'bad_arguments')).toBe(true);
      expect((error as Error).message).toContain(`"${field}"`);
    }
  });
  it('refuses a plain field with a slash', () => {
    expect(() => buildPlace('people/{name}.md', { name: 'a/b' })).toThrow(/slashes/);
  });
  it('refuses a built path that is hidden', () => {
    try {
      buildPlace('people/{name}.md', { name: '.secret' });
      expect.unreachable();
    } catch (error) {
      expect(isVaultError(error, 'hidden_path')).toBe(true);
    }
  });
});
