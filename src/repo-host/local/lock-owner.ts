// Who made a lock or a journal in a `.git` folder, and whether that process still runs.
import { readFileSync } from 'node:fs';
import { hostname } from 'node:os';

/**
 * A process as a lock names it: its id, when it started (on Linux the start time in clock ticks
 * since boot from `/proc/<pid>/stat`, so a reused id is told apart; elsewhere the start in ms
 * since the epoch, which only this process can check) and the machine it runs on.
 */
export interface LockOwner {
  pid: number;
  start: string;
  host: string;
}

let self: LockOwner | null = null;

/** This process as {@link LockOwner}. */
export function thisProcess(): LockOwner {
  self ??= {
    pid: process.pid,
    start: procStart(process.pid) ?? `ms:${Math.round(Date.now() - process.uptime() * 1000)}`,
    host: hostname(),
  };
  return self;
}

/**
 * Whether the process that made a lock may still be running: true for another machine (its
 * processes cannot be seen from here), for this process, and for a live process whose start
 * time matches (or cannot be read); false when the id is gone or now names a later process.
 */
export function ownerAlive(owner: LockOwner): boolean {
  const me = thisProcess();
  if (owner.host !== me.host) return true;
  if (owner.pid === me.pid) return owner.start === me.start;
  if (!processRuns(owner.pid)) return false;
  const start = procStart(owner.pid);
  return start === null || !owner.start.startsWith('ticks:') || start === owner.start;
}

/** The owner as one line: `major-vault pid=<pid> start=<start> host=<host>`. */
export function formatOwner(owner: LockOwner): string {
  return `major-vault pid=${owner.pid} start=${owner.start} host=${encodeURIComponent(owner.host)}\n`;
}

/** The owner a line of {@link formatOwner} names; null for anything else (Git's own lock holds index data, or nothing). */
export function parseOwner(text: string | Buffer): LockOwner | null {
  const line = (typeof text === 'string' ? text : text.subarray(0, 400).toString('latin1')).split('\n')[0] ?? '';
  const match = /^major-vault pid=(\d+) start=(\S+) host=(\S*)$/.exec(line);
  if (match === null) return null;
  try {
    return { pid: Number(match[1]), start: match[2]!, host: decodeURIComponent(match[3]!) };
  } catch {
    return null;
  }
}

/** Field 22 of `/proc/<pid>/stat` (start time, clock ticks since boot) as `ticks:<n>`; null off Linux or when gone. */
function procStart(pid: number): string | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name (field 2) may hold spaces and parentheses: count from the last ')'.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const ticks = fields[19];
    return ticks === undefined ? null : `ticks:${ticks}`;
  } catch {
    return null;
  }
}

/** Whether a process with id `pid` runs on this machine now (this process included; one of another user counts). */
export function processRuns(pid: number): boolean {
  if (pid === process.pid) return true;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
