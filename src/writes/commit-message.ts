// The message of every commit the server makes: the caller's summary, then what the server adds.
import { VaultError } from '../vault-error.ts';

/** At most this many characters in the first line of `summary` (spec: edit_note `summary`). */
export const SUMMARY_MAX = 60;
/** A client name longer than this is cut: it is a label, not content. */
const CLIENT_MAX = 40;

/** The parts of a commit message: the caller's summary, the tool that wrote, the MCP client's name. */
export interface CommitMessageParts {
  summary: string;
  tool: string;
  clientName: string | null;
}

/**
 * The commit message for a write (spec: `summary`: "First line: what changed, at most 60
 * characters, no client or project (the server adds it). More lines, optional: why."):
 *
 * ```text
 * <summary's first line> (<tool> via <client>)
 *
 * <summary's further lines, if any>
 * ```
 *
 * Without a known client the subject ends in `(<tool>)`. The client's name comes from the
 * MCP `initialize` request, cleaned by {@link cleanClientName} (no parentheses, at most 40
 * characters, cut at a word). Trailing spaces are trimmed from every line; blank lines between the first
 * line and the body collapse to one. Throws VaultError `summary_too_long` when the first line
 * is longer than {@link SUMMARY_MAX} characters, `bad_arguments` when it is empty.
 */
export function commitMessage(parts: CommitMessageParts): string {
  const lines = parts.summary
    .replace(/\r\n?/g, '\n')
    .replace(/[\u0000-\u0008\u000b-\u001f\u007f]/g, ' ')
    .split('\n');
  const subject = (lines[0] ?? '').trim();
  if (subject === '') {
    throw new VaultError(
      'bad_arguments',
      'The first line of summary is empty. Say in a few words what changed, for example "Marked trial price as an assumption".',
    );
  }
  const length = [...subject].length;
  if (length > SUMMARY_MAX) {
    throw new VaultError(
      'summary_too_long',
      `The first line of summary has ${length} characters; at most ${SUMMARY_MAX} fit. Shorten it to what changed (the server adds the tool and client), and put the why on further lines.`,
      { length, max: SUMMARY_MAX },
    );
  }
  const client = parts.clientName === null ? '' : cleanClientName(parts.clientName);
  const head = `${subject} (${parts.tool}${client === '' ? '' : ` via ${client}`})`;
  const body = lines
    .slice(1)
    .map((line) => line.trimEnd())
    .join('\n')
    .replace(/^\n+|\n+$/g, '');
  return body === '' ? `${head}\n` : `${head}\n\n${body}\n`;
}

/**
 * `message` (from {@link commitMessage}) with `trailers` (full lines such as
 * `Moved: a.md -> b.md`) added as its last paragraph, in `git interpret-trailers` style: the
 * subject stays as it is. No trailers: `message` unchanged.
 */
export function withTrailers(message: string, trailers: readonly string[] | undefined): string {
  if (trailers === undefined || trailers.length === 0) return message;
  return `${message.replace(/\n+$/, '')}\n\n${trailers.join('\n')}\n`;
}

/**
 * A client's name as the subject can carry it: control characters, line breaks and
 * parentheses (which close the subject's own `(<tool> via <client>)`) become spaces, runs of
 * space collapse; a name longer than {@link CLIENT_MAX} characters is cut after its last whole
 * word that fits (mid-word only when its first word is that long) and ends in `…`.
 */
export function cleanClientName(value: string): string {
  const clean = value
    .replace(/[\p{Cc}\u2028\u2029()]/gu, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  const points = [...clean];
  if (points.length <= CLIENT_MAX) return clean;
  const fits = points.slice(0, CLIENT_MAX - 1).join('');
  // The cut falls on a space when the next character is one; otherwise back to the last space.
  const atWord = points[CLIENT_MAX - 1] === ' ' ? fits : fits.slice(0, Math.max(0, fits.lastIndexOf(' ')));
  return `${(atWord.trim() === '' ? fits : atWord).trimEnd()}…`;
}
