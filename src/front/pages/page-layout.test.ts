// The shared layout and the headers every page is sent with: escaping, and a CSP that allows
// the page's own stylesheet and known script by hash, and nothing else.
import { createHash } from 'node:crypto';
import { describe, expect, test } from 'vitest';
import { escapeHtml, htmlResponse, pageLayout, pageScripts } from './page-layout.ts';

const sha256 = (text: string) => `'sha256-${createHash('sha256').update(text).digest('base64')}'`;
const between = (html: string, open: string, close: string) => html.slice(html.indexOf(open) + open.length, html.indexOf(close));

describe('escapeHtml', () => {
  test('turns the five characters that matter in text and quoted attributes into entities', () => {
    expect(escapeHtml(`<a href="x" title='y'>&amp;</a>`)).toBe('&lt;a href=&quot;x&quot; title=&#39;y&#39;&gt;&amp;amp;&lt;/a&gt;');
  });
});

describe('pageLayout', () => {
  test('is an English document with a viewport, the escaped title, and the body in <main>', () => {
    const html = pageLayout({ title: 'a <b> & c', body: '<h1>Hello</h1>' });
    expect(html).toMatch(/^<!doctype html>\n<html lang="en">/);
    expect(html).toContain('<meta name="viewport" content="width=device-width, initial-scale=1">');
    expect(html).toContain('<title>a &lt;b&gt; &amp; c – Major Vault</title>');
    expect(html).toMatch(/<main>\n<p class="brand">Major Vault<\/p>\n<h1>Hello<\/h1>\n<\/main>/);
    expect(html).not.toContain('<script');
  });

  test('carries a named script only when asked, after the content', () => {
    const html = pageLayout({ title: 't', body: '<h1>t</h1>', script: 'copy-buttons' });
    expect(html).toContain(`</main>\n<script>${pageScripts['copy-buttons']}</script>\n</body>`);
  });
});

describe('htmlResponse', () => {
  test('sends the page with its type, no framing, no referrer, no caching, and a CSP that allows the stylesheet by hash', async () => {
    const html = pageLayout({ title: 't', body: '<h1>t</h1>' });
    const response = htmlResponse(html);
    expect(response.status).toBe(200);
    expect(await response.text()).toBe(html);
    expect(Object.fromEntries(response.headers)).toMatchObject({
      'content-type': 'text/html; charset=utf-8',
      'x-frame-options': 'DENY',
      'x-content-type-options': 'nosniff',
      'referrer-policy': 'no-referrer',
      'cache-control': 'no-store',
    });
    expect(response.headers.get('content-security-policy')).toBe(
      `default-src 'none'; style-src ${sha256(between(html, '<style>', '</style>'))}; form-action 'self'; frame-ancestors 'none'; base-uri 'none'`,
    );
  });

  test("allows the page's known script by its hash, and no script that merely appears in the page", () => {
    const html = pageLayout({ title: 't', body: '<h1>t</h1>', script: 'copy-buttons' });
    const policy = htmlResponse(html).headers.get('content-security-policy')!;
    expect(policy).toContain(`script-src ${sha256(pageScripts['copy-buttons'])};`);

    const smuggled = pageLayout({ title: 't', body: '<h1>t</h1><script>alert(1)</script>' });
    expect(htmlResponse(smuggled).headers.get('content-security-policy')).not.toContain('script-src');
  });

  test('lets forms reach the form targets: an http(s) URL by origin, another scheme by scheme', () => {
    const response = htmlResponse('<!doctype html>', {
      formTargets: [
        'https://github.com/login/oauth/authorize?client_id=x',
        'http://127.0.0.1:33418/callback',
        'cursor://anysphere.cursor-mcp/oauth',
        'https://github.com/other',
      ],
    });
    expect(response.headers.get('content-security-policy')).toContain(
      "form-action 'self' https://github.com http://127.0.0.1:33418 cursor:;",
    );
  });

  test('refuses a form target that is not an absolute URL, saying what it takes', () => {
    expect(() => htmlResponse('', { formTargets: ['/callback; script-src *'] })).toThrow(/must be an absolute URL, such as https:/);
  });

  test('takes a status and more headers, which win over the defaults', () => {
    const response = htmlResponse('<!doctype html>', { status: 400, headers: { 'cache-control': 'private', 'x-extra': '1' } });
    expect(response.status).toBe(400);
    expect(response.headers.get('cache-control')).toBe('private');
    expect(response.headers.get('x-extra')).toBe('1');
  });
});
