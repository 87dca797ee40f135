// The machine a benchmark ran on, as one Markdown line for bench/RESULTS.md.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { availableParallelism, cpus, loadavg, totalmem } from 'node:os';

/** What is known about this machine and the tree that ran. */
export interface Machine {
  /** Logical processors (what `nproc` prints). */
  nproc: number;
  cpuModel: string;
  /** Total memory in GiB. */
  memoryGiB: number;
  node: string;
  /** `rg --version`'s first line, or "absent". */
  ripgrep: string;
  git: string;
  /** The one-, five- and fifteen-minute load averages when the benchmark started (others share the machine). */
  load: [number, number, number];
  /** The checkout's commit (short), "+ changes" when the work tree differs from it. */
  commit: string;
  /** ISO date and time the benchmark ran. */
  date: string;
}

/** Describes this machine and checkout (`root`: the repository to name the commit of). */
export function describeMachine(root: string): Machine {
  const model = /^model name\s*:\s*(.+)$/m.exec(safeRead('/proc/cpuinfo'))?.[1] ?? cpus()[0]?.model ?? 'unknown';
  const [one, five, fifteen] = loadavg();
  return {
    nproc: availableParallelism(),
    cpuModel: model.trim(),
    memoryGiB: Math.round((totalmem() / 2 ** 30) * 10) / 10,
    node: process.version,
    ripgrep: firstLine('rg', ['--version']),
    git: firstLine('git', ['--version']),
    load: [one ?? 0, five ?? 0, fifteen ?? 0],
    commit: checkoutCommit(root),
    date: new Date().toISOString().replace(/\.\d+Z$/, 'Z'),
  };
}

/** The machine as a Markdown paragraph. */
export function machineMarkdown(machine: Machine): string {
  return [
    `Machine: ${machine.cpuModel}, ${machine.nproc} logical processors (\`nproc\`), ${machine.memoryGiB} GiB memory; ` +
      `Node ${machine.node}, ${machine.ripgrep}, ${machine.git}.`,
    `Run ${machine.date} on commit ${machine.commit}; load average at the start ${machine.load.map((value) => value.toFixed(2)).join(' / ')} (the machine is shared).`,
  ].join('\n');
}

function safeRead(path: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return '';
  }
}

function firstLine(command: string, args: string[]): string {
  try {
    return execFileSync(command, args, { encoding: 'utf8' }).split('\n')[0]!.trim();
  } catch {
    return `${command} absent`;
  }
}

function checkoutCommit(root: string): string {
  try {
    const commit = execFileSync('git', ['-C', root, 'rev-parse', '--short', 'HEAD'], { encoding: 'utf8' }).trim();
    const changed = execFileSync('git', ['-C', root, 'status', '--porcelain', '--untracked-files=no'], { encoding: 'utf8' }).trim() !== '';
    return changed ? `${commit} + changes` : commit;
  } catch {
    return 'unknown';
  }
}
