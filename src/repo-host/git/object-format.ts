// A repository's object format (SHA-1 or SHA-256), asked of git once per process.
import type { ObjectFormat } from './blob-id.ts';
import { runGit } from './run-git.ts';

const formats = new Map<string, Promise<ObjectFormat>>();

/**
 * The object format of the repository at `gitDir` (`git rev-parse --show-object-format`),
 * asked once per process and folder (a repository never changes it); a failed ask is not kept.
 */
export function objectFormatOf(gitDir: string): Promise<ObjectFormat> {
  let format = formats.get(gitDir);
  if (format === undefined) {
    format = runGit(['rev-parse', '--show-object-format'], { gitDir }).then((out) =>
      out.stdout.toString('utf8').trim() === 'sha256' ? 'sha256' : 'sha1',
    );
    format.catch(() => formats.delete(gitDir));
    formats.set(gitDir, format);
  }
  return format;
}
