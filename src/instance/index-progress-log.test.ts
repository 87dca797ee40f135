import { describe, expect, it } from 'vitest';
import { capturedLog } from '../../test/support/captured-log.ts';
import { indexProgressLog } from './index-progress-log.ts';

describe('indexProgressLog', () => {
  it('logs the first report of a repository, then one line per interval, and the last', () => {
    const logged = capturedLog();
    let now = 0;
    const progress = indexProgressLog(logged.log, { intervalMs: 5000, now: () => now });
    progress('empty', 0, 0);
    for (const [at, done] of [
      [0, 0],
      [1000, 100],
      [4999, 200],
      [5000, 300],
      [6000, 400],
      [7000, 500],
    ] as const) {
      now = at;
      progress('notes', done, 500);
    }
    progress('handbook', 0, 20);
    expect(logged.events('index_progress').map((line) => [line['repo'], line['done'], line['total']])).toEqual([
      ['notes', 0, 500],
      ['notes', 300, 500],
      ['notes', 500, 500],
      ['handbook', 0, 20],
    ]);
    expect(logged.lines[0]).toMatchObject({ level: 30, msg: 'indexing notes: 0 of 500 files' });
  });
});
