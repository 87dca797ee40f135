// The key that decides which file a link resolves to, stored with each link so a change of paths re-resolves only a few.

/** The key of a file path or link target that decides resolution: file name, lower case, without `.md`. */
export function targetKey(pathOrTarget: string): string {
  const name = pathOrTarget
    .slice(pathOrTarget.lastIndexOf('/') + 1)
    .normalize('NFC')
    .toLowerCase();
  return name.endsWith('.md') ? name.slice(0, -3) : name;
}
