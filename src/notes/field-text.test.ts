import { describe, expect, it } from 'vitest';
import { fieldText } from './field-text.ts';

describe('fieldText', () => {
  it('shows strings as they are', () => {
    expect(fieldText('draft')).toBe('draft');
    expect(fieldText('2026-01-05')).toBe('2026-01-05');
    expect(fieldText('no')).toBe('no');
  });
  it('shows dates as YYYY-MM-DD', () => {
    expect(fieldText('2026-01-05T23:30:00-05:00')).toBe('2026-01-05');
    expect(fieldText('2026-01-05 10:00')).toBe('2026-01-05');
    expect(fieldText(new Date('2026-01-05T10:00:00Z'))).toBe('2026-01-05');
  });
  it('shows numbers, booleans, lists, objects and null', () => {
    expect(fieldText(1.1)).toBe('1.1');
    expect(fieldText(false)).toBe('false');
    expect(fieldText(['a', 2, '2026-01-05T00:00:00Z'])).toBe('a, 2, 2026-01-05');
    expect(fieldText({ a: 1, b: [2] })).toBe('{"a":1,"b":[2]}');
    expect(fieldText(null)).toBe('');
    expect(fieldText(undefined)).toBe('');
  });
  it('joins a list of links with commas; nested objects stay compact JSON', () => {
    expect(fieldText(['[[Published]]'])).toBe('[[Published]]');
    expect(fieldText(['[[Published]]', '[[Draft]]'])).toBe('[[Published]], [[Draft]]');
    expect(fieldText([{ a: 1 }, 'b'])).toBe('{"a":1}, b');
    expect(fieldText({ links: ['[[A]]'] })).toBe('{"links":["[[A]]"]}');
  });
});
