import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeRepo, tempDir } from '../../../../test/support/git-fixture.ts';
import { gitEnv } from '../run-git.ts';
import { LOG_FORMAT, LogParser, parseLog } from './parse-log.ts';

let temp: { path: string; cleanup: () => void };
let output: Buffer;

beforeAll(() => {
  temp = tempDir('mv-parse-log-');
  const dir = join(temp.path, 'repo');
  makeRepo(dir, [
    { message: 'Create', files: { 'a.md': 'one\ntwo\n', 'für "x".md': 'ä\n', 'bin.png': Buffer.from([0, 1, 2]) } },
    { message: 'Move and edit', renames: { 'a.md': 'b/a.md' }, files: { 'für "x".md': 'ä\nö\n' } },
    { message: 'Nothing', allowEmpty: true },
    { message: 'Tab\tin the subject', files: { 'b/a.md': 'one\ntwo\nthree\n', 'bin.png': null } },
  ]);
  output = execFileSync('git', ['log', '-z', LOG_FORMAT, '--raw', '--numstat', '--no-abbrev', '-M', 'HEAD'], {
    cwd: dir,
    env: { ...process.env, ...gitEnv },
  });
});

afterAll(() => temp?.cleanup());

describe('LogParser', () => {
  it('gives the commits parseLog gives, however the output is cut', () => {
    const whole = parseLog(output);
    expect(whole.map((c) => c.subject)).toEqual(['Tab\tin the subject', 'Nothing', 'Move and edit', 'Create']);
    expect(whole[2]?.files.find((f) => f.status === 'R')).toMatchObject({ path: 'b/a.md', oldPath: 'a.md', added: 0, removed: 0 });
    for (const size of [1, 2, 3, 7, 64]) {
      const parser = new LogParser();
      const commits = [];
      for (let at = 0; at < output.length; at += size) commits.push(...parser.push(output.subarray(at, at + size)));
      commits.push(...parser.end());
      expect(commits).toEqual(whole);
    }
  });

  it('settles a commit once all of its files are printed, and gives it once', () => {
    const parser = new LogParser();
    const firstEnd = output.indexOf('\x1e', 1);
    const settled = [];
    const pushed = [...parser.push(output.subarray(0, firstEnd))];
    const early = parser.settled();
    if (early !== null) settled.push(early);
    pushed.push(...parser.push(output.subarray(firstEnd)), ...parser.end());
    expect(settled.map((c) => c.subject)).toEqual(['Tab\tin the subject']);
    expect([...settled, ...pushed].map((c) => c.subject)).toEqual(['Tab\tin the subject', 'Nothing', 'Move and edit', 'Create']);
    expect(new LogParser().settled()).toBeNull();
  });
});
