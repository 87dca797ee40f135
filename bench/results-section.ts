// Writes one benchmark's section of bench/RESULTS.md, leaving the other sections as they are.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** bench/RESULTS.md. */
export const resultsFile = join(import.meta.dirname, 'RESULTS.md');

/**
 * Puts `body` under the level-2 heading `## title` of `file`: replaces that section (up to
 * the next level-2 heading) when it is there, else appends it. Creates the file, with a
 * title line, when it is missing.
 */
export function writeResultsSection(title: string, body: string, file: string = resultsFile): void {
  const heading = `## ${title}`;
  const before = existsSync(file)
    ? readFileSync(file, 'utf8')
    : '# Benchmark results\n\nWritten by the benchmarks in bench/; each section by its own benchmark.\n';
  const section = `${heading}\n\n${body.trim()}\n`;
  const lines = before.split('\n');
  const start = lines.findIndex((line) => line.trimEnd() === heading);
  if (start === -1) {
    writeFileSync(file, `${before.trimEnd()}\n\n${section}`);
    return;
  }
  let end = lines.findIndex((line, i) => i > start && line.startsWith('## '));
  if (end === -1) end = lines.length;
  const head = lines.slice(0, start).join('\n').trimEnd();
  const tail = lines.slice(end).join('\n').trim();
  writeFileSync(file, `${head}\n\n${section}${tail === '' ? '' : `\n${tail}\n`}`);
}
