// The installations a process keeps open: shared by concurrent runs, the least recently used
// idle one closed past the limit, none closed under a run, and a failed open tried again.
import { describe, expect, it } from 'vitest';
import { OpenInstallations } from './open-installations.ts';

function tracked(max: number) {
  const events: string[] = [];
  let failNext = false;
  const installations = new OpenInstallations<{ id: number }>({
    max,
    open: async (id) => {
      if (failNext) {
        failNext = false;
        throw new Error(`no database for ${id}`);
      }
      events.push(`open ${id}`);
      return { id };
    },
    close: async (value) => {
      events.push(`close ${value.id}`);
    },
  });
  return { installations, events, failOnce: () => (failNext = true) };
}

const tick = () => new Promise((resolve) => setTimeout(resolve, 5));

describe('OpenInstallations', () => {
  it('opens once for concurrent runs and closes the least recently used idle one past the limit', async () => {
    const { installations, events } = tracked(2);
    await Promise.all([installations.use(1, tick), installations.use(1, tick)]);
    await installations.use(2, tick);
    await installations.use(1, tick);
    await installations.use(3, tick);
    // 2 was used least recently: it goes.
    expect(events).toEqual(['open 1', 'open 2', 'open 3', 'close 2']);
    expect([installations.has(1), installations.has(2), installations.has(3)]).toEqual([true, false, true]);
  });

  it('never closes an installation a run is using', async () => {
    const { installations, events } = tracked(1);
    let release!: () => void;
    const held = installations.use(1, () => new Promise<void>((resolve) => (release = resolve)));
    await tick();
    await installations.use(2, tick);
    // 1 is busy: 2, idle, is the one closed to get back to the limit.
    expect(events).toEqual(['open 1', 'open 2', 'close 2']);
    release();
    await held;
    expect(events).toEqual(['open 1', 'open 2', 'close 2']);
    expect(installations.size).toBe(1);
  });

  it('tries again after a failed open, and forgets an installation once its runs end', async () => {
    const { installations, events, failOnce } = tracked(4);
    failOnce();
    await expect(installations.use(5, tick)).rejects.toThrow('no database for 5');
    expect(installations.has(5)).toBe(false);
    let release!: () => void;
    const held = installations.use(5, () => new Promise<void>((resolve) => (release = resolve)));
    await tick();
    const forgotten = installations.forget(5);
    await tick();
    expect(events).toEqual(['open 5']);
    release();
    await Promise.all([held, forgotten]);
    expect(events).toEqual(['open 5', 'close 5']);
    await installations.use(5, tick);
    await installations.closeAll();
    expect(events).toEqual(['open 5', 'close 5', 'open 5', 'close 5']);
  });
});
