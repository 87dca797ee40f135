// Per-file disk steps of a commit, side by side but bounded: a move of a folder of thousands
// of notes must not open thousands of files at once.

/** How many of a commit's per-file disk steps run at once. */
export const DISK_STEPS_AT_ONCE = 16;

/**
 * Runs `step` for every item, at most `atOnce` at a time, and waits for every one to settle:
 * the outcomes in the items' order, as `Promise.allSettled` gives them. A step that throws
 * does not stop the others.
 */
export async function settleEach<T, R>(
  items: readonly T[],
  step: (item: T, index: number) => Promise<R>,
  atOnce = DISK_STEPS_AT_ONCE,
): Promise<PromiseSettledResult<R>[]> {
  const outcomes = new Array<PromiseSettledResult<R>>(items.length);
  let next = 0;
  const lane = async () => {
    while (next < items.length) {
      const index = next++;
      try {
        outcomes[index] = { status: 'fulfilled', value: await step(items[index]!, index) };
      } catch (reason) {
        outcomes[index] = { status: 'rejected', reason };
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(atOnce, items.length) }, lane));
  return outcomes;
}

/** {@link settleEach}, then throws the first failure in the items' order, if any. */
export async function eachSettled<T>(items: readonly T[], step: (item: T) => Promise<unknown>): Promise<void> {
  const failed = (await settleEach(items, step)).find((outcome) => outcome.status === 'rejected');
  if (failed !== undefined) throw failed.reason;
}
