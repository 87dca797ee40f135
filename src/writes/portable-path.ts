// Names every checkout can hold: teams clone on macOS and Windows, where case does not count and some names are not allowed.
import { VaultError } from '../vault-error.ts';

/** Characters Windows does not allow in a file or folder name (control characters and `\` are refused earlier). */
const WINDOWS_CHARACTERS = /[<>:"|?*]/g;
/** Device names Windows reserves, with or without an extension: `CON`, `nul.md`, `COM1.txt`, `LPT¹`. */
const WINDOWS_DEVICE = /^(?:CON|PRN|AUX|NUL|COM[0-9¹²³]|LPT[0-9¹²³])$/i;

/**
 * Why Windows cannot hold a file or folder named `segment` (one path segment), or null when it
 * can: one of `< > : " | ? *`; a device name (`CON`, `PRN`, `AUX`, `NUL`, `COM0`–`COM9`,
 * `LPT0`–`LPT9`, any case) as the whole name or before its first dot; a trailing dot or space.
 * Unicode, spaces inside, `#`, `'`, `&`, `,` and brackets are fine.
 */
export function windowsNameProblem(segment: string): string | null {
  const characters = [...new Set(segment.match(WINDOWS_CHARACTERS) ?? [])];
  if (characters.length > 0)
    return `holds ${characters.map((c) => `"${c}"`).join(', ')}, which Windows does not allow in a name (nor any of < > : " | ? *)`;
  const base = segment.split('.')[0]!.trimEnd();
  if (WINDOWS_DEVICE.test(base))
    return `uses "${base}", a device name Windows reserves (CON, PRN, AUX, NUL, COM0-9 and LPT0-9, with any extension)`;
  if (/[. ]$/.test(segment)) return 'ends in a dot or a space, which Windows drops from a name';
  return null;
}

/** A name Windows can hold, close to `segment`: characters replaced by "-", a device name prefixed with "_", trailing dots and spaces dropped. */
export function windowsSafeName(segment: string): string {
  let name = segment.replace(WINDOWS_CHARACTERS, '-').replace(/[. ]+$/, '');
  if (WINDOWS_DEVICE.test(name.split('.')[0]!.trimEnd())) name = `_${name}`;
  return name === '' ? '_' : name;
}

/** A name as compared for "the same name on macOS and Windows": NFC, lower case. */
function fold(name: string): string {
  return name.normalize('NFC').toLowerCase();
}

/**
 * Refuses a new path that a checkout on macOS or Windows could not hold beside what is there.
 * For each segment of `path` (normalised, `/`-separated), `namesIn(folder)` gives the names
 * directly in that folder ('' for the root) as the repository has them after the change, apart
 * from what the change adds. A segment already there under exactly its name is fine. A new one
 * is refused:
 * - `invalid_path` when Windows cannot hold its name ({@link windowsNameProblem}), naming the
 *   segment and a path with a name it can hold;
 * - `exists` when it differs from a name in its folder only in case or Unicode normalisation,
 *   naming the existing path, and for a folder the path spelt as it is there; for the last
 *   segment, `words.instead(existing)` says what to do instead.
 * `words.what` names the path in the refusal ("note path", "target").
 */
export async function assertPortablePath(
  path: string,
  namesIn: (folder: string) => Promise<readonly string[]> | readonly string[],
  words: { what: string; instead: (existing: string) => string },
): Promise<void> {
  const segments = path.split('/');
  for (const [i, name] of segments.entries()) {
    const folder = segments.slice(0, i).join('/');
    const names = await namesIn(folder);
    if (names.includes(name)) continue;
    const last = i === segments.length - 1;
    const problem = windowsNameProblem(name);
    if (problem !== null) {
      const safe = [...segments.slice(0, i), windowsSafeName(name), ...segments.slice(i + 1)].join('/');
      throw new VaultError(
        'invalid_path',
        `The ${words.what} "${path}" cannot be checked out on Windows: ${last ? 'its name' : `its folder "${name}"`} ${problem}. Choose another name, for example "${safe}".`,
        { path, segment: name },
      );
    }
    const key = fold(name);
    const existing = names.find((other) => fold(other) === key);
    if (existing === undefined) continue;
    const existingPath = folder === '' ? existing : `${folder}/${existing}`;
    const spelt = [...segments.slice(0, i), existing, ...segments.slice(i + 1)].join('/');
    const how = existing.normalize('NFC') === name.normalize('NFC') ? 'only in Unicode normalisation' : 'only in upper and lower case';
    throw new VaultError(
      'exists',
      last
        ? `"${path}" differs ${how} from "${existingPath}", which already exists: on macOS and Windows, where case does not count, a checkout holds only one of them. ${words.instead(existingPath)}`
        : `"${path}" goes through the folder "${name}", which differs ${how} from the existing folder "${existingPath}": on macOS and Windows, where case does not count, they would be one folder. Use "${spelt}" instead.`,
      { path, existing: existingPath },
    );
  }
}
