// The in-process queue: one run at a time per key, and a burst of triggers coalesced into one next run.
import { describe, expect, it } from 'vitest';
import { InProcessQueue } from './in-process-queue.ts';

/** A promise and the function that settles it. */
function gate(): { opened: Promise<void>; open: () => void } {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { opened, open };
}

describe('InProcessQueue', () => {
  it('coalesces a burst of triggers for one key into the run going on plus one', async () => {
    const queue = new InProcessQueue();
    const first = gate();
    const runs: string[] = [];
    let active = 0;
    let most = 0;
    queue.work('index', async (repo) => {
      active += 1;
      most = Math.max(most, active);
      runs.push(repo);
      if (runs.length === 1) await first.opened;
      active -= 1;
    });
    const started = queue.send('index', 'notes');
    const burst = Array.from({ length: 10 }, () => queue.send('index', 'notes'));
    // Every trigger of the burst waits for the same queued run.
    expect(new Set(burst).size).toBe(1);
    first.open();
    await Promise.all([started, ...burst]);
    expect(runs).toEqual(['notes', 'notes']);
    expect(most).toBe(1);
    // Nothing runs now: the next trigger starts a run of its own.
    await queue.send('index', 'notes');
    expect(runs).toHaveLength(3);
  });

  it('resolves a trigger only after a run that started after it, and runs other keys meanwhile', async () => {
    const queue = new InProcessQueue();
    const slow = gate();
    const seen: string[] = [];
    let version = 0;
    queue.work('index', async (repo) => {
      const at = version;
      if (repo === 'notes' && seen.length === 0) {
        seen.push(`notes@${at}`);
        await slow.opened;
        return;
      }
      seen.push(`${repo}@${at}`);
    });
    const running = queue.send('index', 'notes');
    version = 1;
    const later = queue.send('index', 'notes');
    await queue.send('index', 'handbook');
    expect(seen).toEqual(['notes@0', 'handbook@1']);
    slow.open();
    await Promise.all([running, later]);
    expect(seen).toEqual(['notes@0', 'handbook@1', 'notes@1']);
  });

  it('passes a run’s failure to its triggers and goes on with the next run', async () => {
    const queue = new InProcessQueue();
    let calls = 0;
    queue.work('index', async () => {
      calls += 1;
      if (calls === 1) throw new Error('the repository went away');
    });
    await expect(queue.send('index', 'notes')).rejects.toThrow('the repository went away');
    await expect(queue.send('index', 'notes')).resolves.toBeUndefined();
    expect(() => queue.work('index', async () => undefined)).toThrow();
    expect(() => queue.send('catalogue', 'notes')).toThrow();
  });
});
