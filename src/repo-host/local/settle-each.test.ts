// settleEach: a commit's per-file disk steps side by side, never more than the bound at once.
import { describe, expect, it } from 'vitest';
import { eachSettled, settleEach } from './settle-each.ts';

describe('settleEach', () => {
  it('runs at most the bound at once, and gives every outcome in the items’ order', async () => {
    let running = 0;
    let most = 0;
    const items = Array.from({ length: 100 }, (_, i) => i);
    const outcomes = await settleEach(
      items,
      async (item) => {
        running++;
        most = Math.max(most, running);
        await new Promise((done) => setTimeout(done, (item * 7) % 5));
        running--;
        if (item % 10 === 3) throw new Error(`no ${item}`);
        return item * 2;
      },
      8,
    );
    expect(most).toBe(8);
    expect(outcomes).toHaveLength(100);
    for (const [i, outcome] of outcomes.entries()) {
      if (i % 10 === 3) expect(outcome).toEqual({ status: 'rejected', reason: new Error(`no ${i}`) });
      else expect(outcome).toEqual({ status: 'fulfilled', value: i * 2 });
    }
  });

  it('eachSettled waits for every step, then throws the first failure in order', async () => {
    const done: number[] = [];
    const failing = eachSettled([0, 1, 2, 3], async (item) => {
      await new Promise((resolve) => setTimeout(resolve, 10 - item * 3));
      done.push(item);
      if (item >= 1) throw new Error(`no ${item}`);
    });
    await expect(failing).rejects.toThrow('no 1');
    expect(done.sort()).toEqual([0, 1, 2, 3]);
    await expect(eachSettled([], async () => undefined)).resolves.toBeUndefined();
  });
});
