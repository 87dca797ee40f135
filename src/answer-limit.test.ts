import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ANSWER_LIMIT } from './answer-limit.ts';

describe('ANSWER_LIMIT', () => {
  it('is the size the listed tool descriptions name, which stay literal (spec acme-tools-list.json)', () => {
    const listed = readFileSync(new URL('../test/fixtures/acme-tools-list.json', import.meta.url), 'utf8');
    const named = [...listed.matchAll(/one answer carries \((\d+) characters\)/g)].map((match) => Number(match[1]));
    expect(named.length).toBeGreaterThan(0);
    expect(new Set(named)).toEqual(new Set([ANSWER_LIMIT]));
  });
});
