// The tool calls this process is answering, so that background work of a start (loading the
// tools' handlers) waits for them instead of holding the main thread while they run.

let inProgress = 0;
let whenIdle: (() => void)[] = [];

/**
 * Counts one tool call from now until the returned function is called (once; later calls do
 * nothing). create-server.ts counts every call, from its arrival to its answer.
 */
export function callStarted(): () => void {
  inProgress += 1;
  let ended = false;
  return () => {
    if (ended) return;
    ended = true;
    inProgress -= 1;
    if (inProgress > 0 || whenIdle.length === 0) return;
    const waiting = whenIdle;
    whenIdle = [];
    // After the answer's own work: the call that ended is written out first.
    setImmediate(() => {
      for (const resolve of waiting) resolve();
    });
  };
}

/** Resolves when no tool call is in progress: at once when none is, else once the last one answered. */
export function noCallsInProgress(): Promise<void> {
  if (inProgress === 0) return Promise.resolve();
  return new Promise((resolve) => whenIdle.push(resolve));
}
