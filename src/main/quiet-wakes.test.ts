import { describe, expect, it } from 'vitest';
import { quietWakes } from './quiet-wakes.ts';

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('quietWakes', () => {
  it('runs a burst of wake-ups once it is quiet, each installation once', async () => {
    const woken: string[] = [];
    const wakes = quietWakes({ quietMs: 30, maxDelayMs: 1000 });
    wakes.add('a', () => woken.push('a'));
    await pause(10);
    wakes.add('b', () => woken.push('b'));
    wakes.add('a', () => woken.push('a again'));
    await pause(10);
    expect(woken).toEqual([]);
    await pause(60);
    expect(woken).toEqual(['a again', 'b']);
  });

  it('runs them at the latest after the longest delay, however busy', async () => {
    const woken: number[] = [];
    const wakes = quietWakes({ quietMs: 40, maxDelayMs: 80 });
    const started = Date.now();
    for (let i = 0; i < 8; i++) {
      wakes.add(String(i), () => woken.push(Date.now() - started));
      await pause(15);
    }
    expect(woken.length).toBeGreaterThan(0);
    expect(woken[0]).toBeLessThan(200);
    wakes.close();
  });

  it('drops what is pending when closed', async () => {
    const woken: string[] = [];
    const wakes = quietWakes({ quietMs: 10 });
    wakes.add('a', () => woken.push('a'));
    wakes.close();
    wakes.add('b', () => woken.push('b'));
    await pause(40);
    expect(woken).toEqual([]);
  });
});
