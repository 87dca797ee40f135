import { describe, expect, it } from 'vitest';
import { isVaultError } from '../vault-error.ts';
import { gitDate, localMoment } from './local-time.ts';

process.env.TZ = 'Europe/Berlin';

describe('localMoment', () => {
  it('reads a day from its first second, or to its last, in local time', () => {
    expect(localMoment('2026-01-12', 'start', 'since')).toBe(Date.parse('2026-01-12T00:00:00+01:00') / 1000);
    expect(localMoment('2026-01-12', 'end', 'until')).toBe(Date.parse('2026-01-12T23:59:59+01:00') / 1000);
    expect(localMoment('2026-07-01', 'start', 'since')).toBe(Date.parse('2026-07-01T00:00:00+02:00') / 1000);
  });

  it('reads a day and a time as that minute, for since and until alike', () => {
    expect(localMoment('2026-01-12T18:30', 'start', 'since')).toBe(Date.parse('2026-01-12T18:30:00+01:00') / 1000);
    expect(localMoment('2026-01-12T18:30', 'end', 'until')).toBe(Date.parse('2026-01-12T18:30:00+01:00') / 1000);
  });

  it('counts a day that changes the clock to its real end', () => {
    expect(localMoment('2026-03-29', 'end', 'until') - localMoment('2026-03-29', 'start', 'since')).toBe(23 * 3600 - 1);
  });

  it.each(['2026-02-29', '2026-13-01', '2026-01-00', '2026-01-12T24:00', '2026-01-12T10:60', '0099-01-01'])('refuses %s', (text) => {
    expect(() => localMoment(text, 'start', 'since')).toThrow(expect.objectContaining({ code: 'bad_arguments' }));
    try {
      localMoment(text, 'start', 'since');
    } catch (error) {
      expect(isVaultError(error, 'bad_arguments') && error.message).toContain('since');
    }
  });

  it.each(['2026-09-24T24:00', '2026-01-12T10:60', '2026-12-31T25:00'])('names the time, not the day, in the refusal of %s', (text) => {
    expect(() => localMoment(text, 'start', 'since')).toThrow(/the day is fine, but \d\d:\d\d is not a time of day/);
  });

  it('still names the day when the day does not exist, time or not', () => {
    expect(() => localMoment('2026-02-30T24:00', 'start', 'since')).toThrow(/not a day that exists/);
  });
});

describe('gitDate', () => {
  it('gives the commit-header form, which Git reads exactly before March 1973 too', () => {
    expect(gitDate(0)).toBe('@0 +0000');
    expect(gitDate(31_536_000)).toBe('@31536000 +0000');
    expect(gitDate(localMoment('2026-01-12', 'start', 'since'))).toBe(`@${Date.parse('2026-01-12T00:00:00+01:00') / 1000} +0000`);
  });

  it('gives nothing before 1970, when Git has no commits', () => {
    expect(gitDate(localMoment('1970-01-01', 'start', 'since'))).toBeNull();
    expect(gitDate(localMoment('1900-01-01', 'start', 'since'))).toBeNull();
  });
});
