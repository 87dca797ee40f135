// The page for a sign-in that fails in the browser: an authorization request the front cannot
// send back to its client (RFC 6749 §4.1.2.1: an unknown client or a redirect URI that does
// not match must not be redirected to), or a GitHub sign-in that did not complete.
import { escapeHtml, pageLayout } from './page-layout.ts';

/** What went wrong, as plain text (escaped here). */
export interface ErrorPageOptions {
  /** A short heading, e.g. `This sign-in cannot continue`. */
  title: string;
  /** What was wrong, e.g. `The client's redirect address does not match the one it registered.` */
  message: string;
  /** How to succeed, e.g. `Start the sign-in again from your assistant.` */
  hint?: string;
}

/** The HTML of the error page. Send it with `htmlResponse` and a 4xx or 5xx status. */
export function errorPage(options: ErrorPageOptions): string {
  const hint = options.hint ? `\n<p>${escapeHtml(options.hint)}</p>` : '';
  return pageLayout({
    title: options.title,
    body: `<h1>${escapeHtml(options.title)}</h1>
<p>${escapeHtml(options.message)}</p>${hint}`,
  });
}
