// The adapter's last guard on a repository path a caller gives.
import { VaultError } from '../../vault-error.ts';

/**
 * Refuses a path that could leave the repository or reach into `.git`, or that no file system
 * could hold: empty, absolute, NUL, CR or LF (Git's line-based batch input), `.`/`..`/empty
 * segments, a `.git` segment (any case), a segment longer than 255 bytes in UTF-8 (the limit of
 * ext4, APFS, NTFS…), or more than 4,000 bytes in all. Other characters Git allows (tabs,
 * quotes, `#`, any script) pass: the tools apply the vault's own path rules first
 * (notes/vault-path.ts); this is the adapter's last guard. VaultError `invalid_path`.
 */
export function assertRepoPath(path: string): void {
  const segments = path.split('/');
  const bad =
    path === '' ||
    /[\0\r\n]/.test(path) ||
    segments.some((segment) => segment === '' || segment === '.' || segment === '..' || segment.toLowerCase() === '.git');
  if (bad)
    throw new VaultError('invalid_path', `"${path}" is not a path inside the repository; give a relative path such as "notes/plan.md".`, {
      path,
    });
  const long = segments.find((segment) => Buffer.byteLength(segment, 'utf8') > 255);
  if (long !== undefined) {
    throw new VaultError(
      'invalid_path',
      `The name "${long}" in "${path}" is ${Buffer.byteLength(long, 'utf8')} bytes long in UTF-8, and file systems hold at most 255 bytes per name (a letter of Japanese or Chinese takes 3). Choose a shorter name.`,
      { path },
    );
  }
  if (Buffer.byteLength(path, 'utf8') > 4000)
    throw new VaultError(
      'invalid_path',
      `"${path.slice(0, 80)}…" is ${Buffer.byteLength(path, 'utf8')} bytes long; a path may have at most 4,000. Choose a shorter one.`,
      { path },
    );
}
