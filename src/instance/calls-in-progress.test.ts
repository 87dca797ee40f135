import { describe, expect, it } from 'vitest';
import { callStarted, noCallsInProgress } from './calls-in-progress.ts';

describe('noCallsInProgress', () => {
  it('resolves at once when no call is in progress', async () => {
    await expect(noCallsInProgress()).resolves.toBeUndefined();
  });

  it('waits for the last call in progress to end, counting each end once', async () => {
    const first = callStarted();
    const second = callStarted();
    let idle = false;
    const waiting = noCallsInProgress().then(() => (idle = true));
    first();
    first();
    await new Promise((resolve) => setImmediate(resolve));
    expect(idle).toBe(false);
    second();
    await waiting;
    expect(idle).toBe(true);
  });
});
