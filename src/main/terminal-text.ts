// Untrusted text (an account name from a webhook, a name from the Store) made safe to print on
// an operator's terminal: control characters would otherwise be obeyed by it.

/**
 * Characters a terminal obeys or that reorder what it shows: C0 controls (U+0000–U+001F), DEL
 * and C1 controls (U+007F–U+009F, CSI among them), the bidirectional controls (U+061C,
 * U+200E–U+200F, U+202A–U+202E, U+2066–U+2069), the line and paragraph separators, and `\`
 * (so an escape in the output always means one).
 */
const unsafe = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069\\]/g;

/**
 * `text` with every {@link unsafe} character written as an escape: `\\` for a backslash,
 * `\u{1b}` (its code point in hex) for the others. Everything else is kept as it is.
 */
export function terminalText(text: string): string {
  return text.replace(unsafe, (char) => (char === '\\' ? '\\\\' : `\\u{${char.codePointAt(0)!.toString(16)}}`));
}
