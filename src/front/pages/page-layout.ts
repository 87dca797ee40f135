// The one look of the front's pages: a small self-contained document (one inline stylesheet,
// no outside assets, readable without JavaScript) and the headers every page is sent with.
import { createHash } from 'node:crypto';

/**
 * The stylesheet of every page. Light and dark (`prefers-color-scheme`); every text colour
 * has a contrast of at least 6.5:1 on its background (WCAG 2.2 1.4.3 asks 4.5:1), and every
 * focusable element shows a 3px ring when reached by keyboard (2.4.7, 2.4.11). Long
 * commands and addresses wrap instead of scrolling sideways, so a page reflows at 320px (1.4.10).
 */
const stylesheet = `
:root { color-scheme: light dark; --text: #1b1c20; --muted: #52535c; --page: #ffffff; --panel: #f3f4f6; --line: #d4d5da;
  --accent: #1d4ed8; --on-accent: #ffffff; --focus: #1d4ed8; --warn-text: #7c2d12; --warn-panel: #fff7ed; --warn-line: #c2410c; }
@media (prefers-color-scheme: dark) {
  :root { --text: #e6e7ea; --muted: #a9abb4; --page: #17181c; --panel: #24262c; --line: #3a3c44;
    --accent: #93b4ff; --on-accent: #17181c; --focus: #93b4ff; --warn-text: #fed7aa; --warn-panel: #2b1d12; --warn-line: #fb923c; }
}
* { box-sizing: border-box; }
body { margin: 0; background: var(--page); color: var(--text); font: 16px/1.55 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; }
main { max-width: 44rem; margin: 0 auto; padding: 2.5rem 1.25rem 3rem; }
.brand { margin: 0 0 1.5rem; font-size: 0.9rem; font-weight: 600; letter-spacing: 0.02em; color: var(--muted); }
h1 { font-size: 1.75rem; line-height: 1.25; margin: 0 0 0.5rem; overflow-wrap: anywhere; }
h2 { font-size: 1.25rem; margin: 2.25rem 0 0.75rem; padding-top: 1.25rem; border-top: 1px solid var(--line); }
h3 { font-size: 1.05rem; margin: 1.5rem 0 0.4rem; }
p { margin: 0.6rem 0; }
.lede { color: var(--muted); margin-top: 0; }
a { color: var(--accent); text-underline-offset: 0.15em; }
code, pre, .address { font-family: ui-monospace, "SF Mono", Menlo, Consolas, monospace; font-size: 0.92rem; }
:not(pre) > code { background: var(--panel); padding: 0.05rem 0.3rem; border-radius: 4px; overflow-wrap: anywhere; }
pre, .address { margin: 0; background: var(--panel); border: 1px solid var(--line); border-radius: 8px; padding: 0.65rem 0.85rem;
  white-space: pre-wrap; overflow-wrap: anywhere; }
.address { font-size: 1.05rem; }
.copyable { display: flex; gap: 0.5rem; align-items: flex-start; margin: 0.5rem 0; }
.copyable > pre, .copyable > .address { flex: 1; min-width: 0; }
.copyable > [role="status"] { position: absolute; width: 1px; height: 1px; overflow: hidden; clip-path: inset(50%); }
.note { border-left: 4px solid var(--line); padding: 0.1rem 0 0.1rem 0.85rem; color: var(--muted); }
.warning { border: 1px solid var(--warn-line); border-left-width: 6px; background: var(--warn-panel); color: var(--warn-text);
  border-radius: 8px; padding: 0.7rem 0.9rem; margin: 1.25rem 0; }
.facts { display: grid; grid-template-columns: max-content 1fr; gap: 0.55rem 1.25rem; margin: 1.25rem 0; padding: 1rem 1.1rem;
  background: var(--panel); border: 1px solid var(--line); border-radius: 8px; }
.facts dt { font-weight: 600; }
.facts dd { margin: 0; overflow-wrap: anywhere; }
.facts .detail { display: block; color: var(--muted); font-size: 0.92rem; }
.client-name { display: block; margin: 0.2rem 0; padding: 0.35rem 0.6rem; background: var(--page); border: 1px solid var(--line);
  border-radius: 6px; font-family: ui-monospace, "SF Mono", Menlo, Consolas, monospace; font-weight: 600; line-height: 2;
  white-space: pre-wrap; overflow-wrap: anywhere; overflow: hidden; overflow: clip; contain: paint; }
@media (max-width: 30rem) { .facts { grid-template-columns: 1fr; } .facts dd { margin-bottom: 0.5rem; } }
.actions { display: flex; flex-wrap: wrap; gap: 0.75rem; margin: 1.5rem 0 1rem; }
button, .button { font: inherit; font-weight: 600; cursor: pointer; border-radius: 8px; padding: 0.55rem 1.2rem;
  border: 2px solid var(--accent); background: var(--page); color: var(--accent); text-decoration: none; display: inline-block; }
button.primary, .button.primary { background: var(--accent); color: var(--on-accent); }
button.copy { font-size: 0.9rem; padding: 0.45rem 0.8rem; flex: none; }
:focus-visible { outline: 3px solid var(--focus); outline-offset: 3px; }
ol.steps { padding-left: 1.25rem; }
ol.steps li { margin-bottom: 0.4rem; }
`;

/**
 * The inline scripts a page may carry, by name. A page works without them; the response's
 * Content-Security-Policy allows each by its hash, so no other script (say, one smuggled into
 * a client's name) can run.
 *
 * `copy-buttons`: gives every `.copyable` block (a `<pre>` or `.address` with a
 * `data-copy="<what it is>"` attribute) a Copy button that puts the block's text on the
 * clipboard, or selects it where the clipboard is not available, and says which in a
 * status for screen readers. Without scripts there are no buttons: the text is selectable.
 */
export const pageScripts = {
  'copy-buttons': `
for (const block of document.querySelectorAll('.copyable')) {
  const source = block.querySelector('pre, .address');
  const button = document.createElement('button');
  const status = document.createElement('span');
  button.type = 'button';
  button.className = 'copy';
  button.textContent = 'Copy';
  button.setAttribute('aria-label', 'Copy ' + block.dataset.copy);
  status.setAttribute('role', 'status');
  button.addEventListener('click', async () => {
    try {
      await navigator.clipboard.writeText(source.textContent);
      button.textContent = 'Copied';
      status.textContent = 'Copied ' + block.dataset.copy;
    } catch {
      getSelection().selectAllChildren(source);
      button.textContent = 'Selected';
      status.textContent = 'Selected ' + block.dataset.copy + ': press Control+C or Command+C to copy';
    }
    setTimeout(() => { button.textContent = 'Copy'; }, 2000);
  });
  block.append(button, status);
}
`,
} as const;

/** The name of an inline script of {@link pageScripts}. */
export type PageScript = keyof typeof pageScripts;

/** `text` safe to place in HTML text or a quoted attribute: `& < > " '` become entities. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[char]!);
}

/** What {@link pageLayout} puts together. */
export interface PageLayoutOptions {
  /** The page's title as plain text (escaped here); the document title is `<title> – Major Vault`. */
  title: string;
  /** The page's content, HTML, placed in `<main>` after the product's name; it starts with the page's `<h1>`. */
  body: string;
  /** An inline script of {@link pageScripts} to run after the content, if the page enhances itself. */
  script?: PageScript;
}

/**
 * A whole HTML document in the front's look: `lang="en"`, the viewport, the one stylesheet
 * inline, `body` in `<main>`, and the named script (if any) last. Send it with {@link htmlResponse}.
 */
export function pageLayout(options: PageLayoutOptions): string {
  const script = options.script ? `<script>${pageScripts[options.script]}</script>\n` : '';
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark">
<title>${escapeHtml(options.title)} – Major Vault</title>
<style>${stylesheet}</style>
</head>
<body>
<main>
<p class="brand">Major Vault</p>
${options.body.trim()}
</main>
${script}</body>
</html>
`;
}

/** How {@link htmlResponse} answers besides the page. */
export interface HtmlResponseInit {
  /** HTTP status; default 200. */
  status?: number;
  /** More headers; they replace the defaults of the same name. */
  headers?: Record<string, string>;
  /**
   * Absolute URLs a form on the page is sent to or redirected to after its POST, besides
   * the page's own origin. Chromium checks `form-action` against every redirect that follows
   * a form's submission, so the consent page names where its answer leads: GitHub's sign-in
   * (approve) and the client's redirect URI (deny). An http(s) URL allows its origin; any
   * other scheme (a native app's `cursor:`) allows that scheme. Throws a TypeError on a
   * string that is not an absolute URL.
   */
  formTargets?: readonly string[];
}

/**
 * A `Response` carrying `html` (a {@link pageLayout} document), with the headers every page
 * of the front is sent with: `content-type: text/html; charset=utf-8`; `x-frame-options: DENY`
 * and CSP `frame-ancestors 'none'` (no framing, so no clickjacking of the consent page's
 * buttons); a Content-Security-Policy of `default-src 'none'` that allows the page's stylesheet
 * and its inline script (if it carries one of {@link pageScripts}) by their SHA-256 hashes
 * (CSP3 §7.3), and forms only to `'self'` and `formTargets`; `referrer-policy: no-referrer`
 * (the consent page's URL carries the authorization request); `cache-control: no-store`.
 */
export function htmlResponse(html: string, init: HtmlResponseInit = {}): Response {
  const scripts = Object.values(pageScripts)
    .filter((source) => html.includes(`<script>${source}</script>`))
    .map(hashSource);
  const formAction = ["'self'", ...(init.formTargets ?? []).map(formTargetSource)];
  const policy = [
    "default-src 'none'",
    `style-src ${stylesheetHash}`,
    ...(scripts.length > 0 ? [`script-src ${scripts.join(' ')}`] : []),
    `form-action ${[...new Set(formAction)].join(' ')}`,
    "frame-ancestors 'none'",
    "base-uri 'none'",
  ].join('; ');
  return new Response(html, {
    status: init.status ?? 200,
    headers: {
      'content-type': 'text/html; charset=utf-8',
      'content-security-policy': policy,
      'x-frame-options': 'DENY',
      'x-content-type-options': 'nosniff',
      'referrer-policy': 'no-referrer',
      'cache-control': 'no-store',
      ...init.headers,
    },
  });
}

/** A CSP hash source (`'sha256-…'`) of an inline element's text. */
function hashSource(source: string): string {
  return `'sha256-${createHash('sha256').update(source, 'utf8').digest('base64')}'`;
}

const stylesheetHash = hashSource(stylesheet);

/** The CSP source expression that allows a form to reach `target` (see {@link HtmlResponseInit.formTargets}). */
function formTargetSource(target: string): string {
  let url: URL;
  try {
    url = new URL(target);
  } catch {
    throw new TypeError(
      `A form target must be an absolute URL, such as https://github.com/login/oauth/authorize; got ${JSON.stringify(target)}.`,
    );
  }
  return url.protocol === 'http:' || url.protocol === 'https:' ? url.origin : url.protocol;
}
