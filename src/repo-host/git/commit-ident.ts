// Makes a person's name and e-mail safe to put in a commit's author and committer lines.

/**
 * Removes what could forge or break a Git identity line: control characters (CR, LF, NUL,
 * tabs…), Unicode line and paragraph separators, and `<`/`>` (which delimit the e-mail in
 * `author Name <email> time zone`); collapses runs of spaces and trims. Letters of every
 * script are kept (`Chloé Çelik` stays as written).
 */
export function cleanIdentPart(value: string): string {
  return value
    .replace(/[\p{Cc}\u2028\u2029<>]/gu, ' ')
    .replace(/\s+/gu, ' ')
    .trim();
}
