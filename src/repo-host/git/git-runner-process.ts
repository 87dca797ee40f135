// The git runner: a small Node process that starts `git` for the server (git-runner.ts).
// Starting a child forks the process that starts it; forking this one (tens of MiB) instead
// of the server (hundreds) is quicker, and the server's event loop never waits on the fork.
// It speaks the runner protocol (RunnerRequest / RunnerEvent) over Node's IPC channel with
// the `advanced` serialization, so bytes travel as Buffers. Started by GitRunner only: it
// imports nothing of the project, so it runs on plain Node (type stripping) without the
// server's start-up.
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { setPriority } from 'node:os';
import type { RunnerEvent, RunnerRequest } from './git-runner.ts';

const children = new Map<number, ChildProcessWithoutNullStreams>();

function send(event: RunnerEvent): void {
  // The server is gone when the channel is closed: the 'disconnect' handler below ends this
  // process. A send that fails (EPIPE: the server has just ended) is let go the same way.
  if (process.connected) process.send!(event, undefined, undefined, ignoreFailedSend);
}

function ignoreFailedSend(): void {
  /* the channel closes with it, and 'disconnect' ends this process */
}

function start(request: Extract<RunnerRequest, { t: 'spawn' }>): void {
  const { id } = request;
  let child: ChildProcessWithoutNullStreams;
  try {
    child = spawn('git', request.args, {
      cwd: request.cwd,
      env: request.env,
      stdio: ['pipe', 'pipe', 'pipe'],
      timeout: request.timeoutMs,
    });
  } catch (error) {
    send({ t: 'error', id, message: error instanceof Error ? error.message : String(error), code: codeOf(error) });
    return;
  }
  children.set(id, child);
  send({ t: 'spawned', id, pid: child.pid ?? null });
  child.stdout.on('data', (data: Buffer) => send({ t: 'stdout', id, data }));
  child.stderr.on('data', (data: Buffer) => send({ t: 'stderr', id, data }));
  child.stdin.on('error', () => {
    /* git may exit before reading all input; the exit code tells what happened */
  });
  child.on('error', (error) => {
    // Only a failed start comes without a 'close' after it.
    if (child.pid === undefined) {
      children.delete(id);
      send({ t: 'error', id, message: error.message, code: codeOf(error) });
    }
  });
  child.on('close', (code, signal) => {
    children.delete(id);
    send({ t: 'close', id, code, signal });
  });
}

function codeOf(error: unknown): string | null {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : null;
}

process.on('message', (request: RunnerRequest) => {
  if (request.t === 'ping') return send({ t: 'pong' });
  if (request.t === 'spawn') return start(request);
  const child = children.get(request.id);
  if (child === undefined) return;
  if (request.t === 'stdin') child.stdin.write(request.data);
  else if (request.t === 'end') child.stdin.end();
  else if (request.t === 'kill') {
    child.stdin.destroy();
    child.kill(request.signal);
  } else if (request.t === 'nice' && child.pid !== undefined && child.exitCode === null) {
    try {
      setPriority(child.pid, request.value);
    } catch {
      /* not allowed here, or git has just exited: it runs on as it was */
    }
  }
});
send({ t: 'ready' });
// The server ended (or let go of this runner): its git processes are left to finish on their own.
process.on('disconnect', () => process.exit(0));
