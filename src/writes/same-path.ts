// When two paths name the same file: Unicode normalisation always, case where the host folds it.

/**
 * The existing path among `paths` that names the same file as `path`, or null: equal after
 * NFC normalisation, or (with `ignoreCase`) equal ignoring case as well. An exact match wins.
 */
export function sameFileAs(paths: Iterable<string>, path: string, ignoreCase: boolean): string | null {
  const key = fold(path, ignoreCase);
  let found: string | null = null;
  for (const existing of paths) {
    if (existing === path) return existing;
    if (found === null && fold(existing, ignoreCase) === key) found = existing;
  }
  return found;
}

function fold(path: string, ignoreCase: boolean): string {
  const nfc = path.normalize('NFC');
  return ignoreCase ? nfc.toLowerCase() : nfc;
}
