// The consent page shown on every sign-in, before GitHub's: which client is asking, where the
// sign-in goes back to, and which installation (MCP authorization, "Confused Deputy Problem":
// a proxy server must get the person's consent for each client; spec: "4. Sign in").
import { escapeHtml, pageLayout } from './page-layout.ts';

/** What the consent page shows and where its answer goes. */
export interface ConsentPageOptions {
  /** The installation's name, e.g. `acme`. */
  installationName: string;
  /** The installation's MCP address, e.g. `https://vlt.example/acme` (the request's `resource`, RFC 8707). */
  resource: string;
  /** The client's name as the client describes itself (`client_name`): untrusted, shown escaped and marked as self-described; null if it gives none. */
  clientName: string | null;
  /** A URL (Client ID Metadata Document) or an opaque id from dynamic registration (RFC 7591). */
  clientId: string;
  /** True: `clientId` is a URL, and its host is shown as where the description came from. */
  clientIdIsUrl: boolean;
  /** The client's home page from its metadata (`client_uri`): untrusted, shown as text, never as a link. */
  clientUri: string | null;
  /** Where the browser goes after the sign-in (`redirect_uri`, already matched exactly against the client's). */
  redirectUri: string;
  /** True for a loopback redirect (localhost, 127.0.0.0/8, ::1; RFC 8252 §7.3): the page warns that only this computer's programs receive it. */
  redirectIsLocal: boolean;
  /** Where the form POSTs, on the front's own origin. */
  formAction: string;
  /** Sent back with the answer as hidden inputs: the CSRF token and the sealed request. */
  hiddenFields: Record<string, string>;
}

/** The longest untrusted text shown as is, in characters; the rest is cut with "…". */
const shownLength = 120;

/**
 * The HTML of the consent page: a form that POSTs `hiddenFields` and `decision=approve` or
 * `decision=deny` (two submit buttons, Approve first) to `formAction`. It names the client (its
 * self-described name in `<bdi>` inside a labelled box of its own, never in quotation marks a
 * name could close, with invisible and direction-changing characters made visible and stacks of
 * combining marks cut, so a name can neither rearrange nor cover the text around it, nor pass
 * for the page's own words), where the description came from,
 * the redirect's host (with a warning for a loopback redirect), the installation, and what
 * approving does. No script and no automatic submission. Send it with `htmlResponse`, with the
 * GitHub sign-in and `redirectUri` as `formTargets`.
 */
export function consentPage(options: ConsentPageOptions): string {
  const installation = escapeHtml(options.installationName);
  const redirectHost = describeRedirect(options.redirectUri);
  const client =
    options.clientName === null || options.clientName.trim() === ''
      ? `<strong>A client that gives no name</strong>`
      : `<span class="detail">The name it gives itself:</span><span class="client-name"><bdi>${untrusted(options.clientName)}</bdi></span><span class="detail">Self-described; Major Vault does not check it.</span>`;
  const source = options.clientIdIsUrl
    ? `<span class="detail">Described by <strong>${untrusted(hostOf(options.clientId) ?? options.clientId)}</strong>, at <bdi>${untrusted(options.clientId)}</bdi></span>`
    : `<span class="detail">Registered itself with this server; nothing vouches for it.</span>`;
  const homePage =
    options.clientUri !== null && options.clientUri.trim() !== ''
      ? `<span class="detail">Its home page, as it says: <bdi>${untrusted(options.clientUri)}</bdi></span>`
      : '';
  const warning = options.redirectIsLocal
    ? `<p class="warning"><strong>The sign-in goes back to a program on this computer</strong> (${redirectHost}). Only approve if you started this sign-in on this computer just now. If someone sent you a link to this page, deny.</p>`
    : '';
  const hidden = Object.entries(options.hiddenFields)
    .map(([name, value]) => `<input type="hidden" name="${escapeHtml(name)}" value="${escapeHtml(value)}">`)
    .join('\n');

  return pageLayout({
    title: `Connect an assistant to ${options.installationName}?`,
    body: `<h1>Connect an assistant to ${installation}?</h1>
<p class="lede">A client is asking to read and write the notes of ${installation} for you. Check that it is the one you are connecting.</p>
<dl class="facts">
<dt>Client</dt>
<dd>${client}${source}${homePage}</dd>
<dt>Sends you back to</dt>
<dd><strong>${redirectHost}</strong><span class="detail"><bdi>${untrusted(options.redirectUri)}</bdi></span></dd>
<dt>Installation</dt>
<dd><strong>${installation}</strong><span class="detail">${escapeHtml(options.resource)}</span></dd>
</dl>
${warning}
<p>If you approve, you sign in with GitHub next. The assistant then reads and writes the notes of ${installation} only where you yourself can on GitHub, and every change it makes is a commit in your name.</p>
<p>If you deny, the client is told no and gets nothing.</p>
<form method="post" action="${escapeHtml(options.formAction)}">
${hidden}
<div class="actions">
<button type="submit" name="decision" value="approve" class="primary">Approve and sign in with GitHub</button>
<button type="submit" name="decision" value="deny">Deny</button>
</div>
</form>`,
  });
}

/** Combining marks (\p{M}) kept after one base character; more would stack over the lines around it. */
const marksPerBase = 2;

/**
 * Characters replaced by U+FFFD so they show instead of hiding, joining or reordering text:
 * controls (\p{Cc}), format characters (\p{Cf}: zero-width, bidirectional controls, tag
 * characters U+E0000–U+E007F) and the line and paragraph separators U+2028 and U+2029.
 */
const hiddenCharacter = /[\p{Cc}\p{Cf}\u2028\u2029]/u;

/**
 * Untrusted text for HTML: escaped, with hidden characters ({@link hiddenCharacter}) replaced by
 * U+FFFD, at most {@link marksPerBase} combining marks kept after each base character (Zalgo
 * text), and cut at {@link shownLength} characters (code points) with "…".
 */
function untrusted(text: string): string {
  const chars: string[] = [];
  let marks = 0;
  for (const char of text) {
    if (/\p{M}/u.test(char)) {
      if (++marks > marksPerBase) continue;
    } else {
      marks = 0;
    }
    chars.push(hiddenCharacter.test(char) ? '\ufffd' : char);
  }
  return escapeHtml(chars.length > shownLength ? `${chars.slice(0, shownLength).join('')}…` : chars.join(''));
}

/** The host of a URL (with its port), or null when `text` is not an absolute URL with a host. */
function hostOf(text: string): string | null {
  try {
    const host = new URL(text).host;
    return host === '' ? null : host;
  } catch {
    return null;
  }
}

/** How the redirect is named, as escaped HTML: an http(s) URL's host; a native app's scheme (`cursor://…`) with its host, if any. */
function describeRedirect(redirectUri: string): string {
  let url: URL;
  try {
    url = new URL(redirectUri);
  } catch {
    return untrusted(redirectUri);
  }
  if (url.protocol === 'http:' || url.protocol === 'https:') return untrusted(url.host);
  return `the app that opens <bdi>${untrusted(url.protocol)}</bdi> links${url.host ? ` (<bdi>${untrusted(url.host)}</bdi>)` : ''}`;
}
