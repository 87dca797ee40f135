// Reads many objects through one `git cat-file --batch` process: the fast path for blob contents.
import { runGit } from './run-git.ts';

/** One object as `cat-file --batch` answered: its content, or null when the object is missing. */
export type BatchObject = { oid: string; type: string; content: Buffer } | { oid: string; type: 'missing'; content: null };

const OBJECT_ID = /^(?:[0-9a-f]{40}|[0-9a-f]{64})$/;

/**
 * Asks one `git cat-file --batch` for every id in `oids` (lowercase hex, 40 or 64 digits) and
 * returns the answers in the same order; a missing object comes back as `type: 'missing'`.
 * Throws an Error for an id that is not hex (it would break the line protocol) and a GitError
 * when git fails. Output is parsed from the `<oid> <type> <size>\n<content>\n` records.
 */
export async function catFileBatch(gitDir: string, oids: readonly string[]): Promise<BatchObject[]> {
  if (oids.length === 0) return [];
  for (const oid of oids) {
    if (!OBJECT_ID.test(oid)) throw new Error(`Not an object id: ${JSON.stringify(oid)}`);
  }
  const { stdout } = await runGit(['cat-file', '--batch'], { gitDir, input: oids.join('\n') + '\n' });
  const objects: BatchObject[] = [];
  let at = 0;
  for (const asked of oids) {
    const lineEnd = stdout.indexOf(0x0a, at);
    if (lineEnd === -1) throw new Error(`git cat-file --batch ended early, before ${asked}`);
    const header = stdout.toString('utf8', at, lineEnd);
    at = lineEnd + 1;
    const [oid = '', type = '', sizeText] = header.split(' ');
    if (type === 'missing' || type === 'ambiguous') {
      objects.push({ oid: asked, type: 'missing', content: null });
      continue;
    }
    const size = Number(sizeText);
    if (oid !== asked || !Number.isSafeInteger(size)) throw new Error(`git cat-file --batch answered ${JSON.stringify(header)} for ${asked}`);
    objects.push({ oid, type, content: stdout.subarray(at, at + size) });
    at += size + 1; // the content is followed by one newline
  }
  return objects;
}
