import { describe, expect, it } from 'vitest';
import { KeyedQueue } from './keyed-queue.ts';

const tick = () => new Promise((resolve) => setTimeout(resolve, 5));

describe('KeyedQueue', () => {
  it('runs one key in call order, one at a time, and other keys beside it', async () => {
    const queue = new KeyedQueue();
    const log: string[] = [];
    const step = (name: string) => async () => {
      log.push(`${name} start`);
      await tick();
      log.push(`${name} end`);
      return name;
    };
    const results = await Promise.all([queue.run('a', step('a1')), queue.run('a', step('a2')), queue.run('b', step('b1'))]);
    expect(results).toEqual(['a1', 'a2', 'b1']);
    expect(log.indexOf('a2 start')).toBeGreaterThan(log.indexOf('a1 end'));
    expect(log.indexOf('b1 start')).toBeLessThan(log.indexOf('a1 end'));
  });

  it('goes on after a failure, and forgets a key once its work is done', async () => {
    const queue = new KeyedQueue();
    const failed = queue.run('a', async () => {
      throw new Error('boom');
    });
    const after = queue.run('a', async () => 'next');
    await expect(failed).rejects.toThrow('boom');
    await expect(after).resolves.toBe('next');
    await tick();
    expect(queue.size).toBe(0);
  });
});
