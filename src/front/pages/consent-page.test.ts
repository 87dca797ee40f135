// The consent page: what it names, how it shows a client's untrusted description, the warning
// on a loopback redirect, and the two buttons of its form.
import { describe, expect, test } from 'vitest';
import { consentPage, type ConsentPageOptions } from './consent-page.ts';

const claudeCode: ConsentPageOptions = {
  installationName: 'acme',
  resource: 'https://vlt.example/acme',
  clientName: 'Claude Code',
  clientId: 'https://claude.ai/oauth/claude-code-client-metadata',
  clientIdIsUrl: true,
  clientUri: 'https://claude.ai',
  redirectUri: 'http://localhost:33418/callback',
  redirectIsLocal: true,
  formAction: '/authorize/consent',
  hiddenFields: { csrf: 'csrf-token', request: 'sealed.request' },
};

describe('the consent page', () => {
  test('names the client as it describes itself, where that came from, the redirect host and the installation', () => {
    const html = consentPage(claudeCode);
    expect(html).toContain('<h1>Connect an assistant to acme?</h1>');
    expect(html).toContain(
      '<span class="detail">The name it gives itself:</span><span class="client-name"><bdi>Claude Code</bdi></span><span class="detail">Self-described; Major Vault does not check it.</span>',
    );
    expect(html).toContain('Described by <strong>claude.ai</strong>, at <bdi>https://claude.ai/oauth/claude-code-client-metadata</bdi>');
    expect(html).toContain('Its home page, as it says: <bdi>https://claude.ai</bdi>');
    expect(html).toContain('<dt>Sends you back to</dt>\n<dd><strong>localhost:33418</strong>');
    expect(html).toContain('<dd><strong>acme</strong><span class="detail">https://vlt.example/acme</span></dd>');
    expect(html).toContain('you sign in with GitHub next');
    expect(html).toContain('only where you yourself can on GitHub');
  });

  test('warns on a loopback redirect, and not on another', () => {
    expect(consentPage(claudeCode)).toContain(
      '<p class="warning"><strong>The sign-in goes back to a program on this computer</strong> (localhost:33418). Only approve if you started this sign-in on this computer just now.',
    );
    const remote = consentPage({ ...claudeCode, redirectUri: 'https://claude.ai/api/mcp/auth_callback', redirectIsLocal: false });
    expect(remote).not.toContain('class="warning"');
    expect(remote).toContain('<strong>claude.ai</strong>');
  });

  test('posts the hidden fields with decision=approve or decision=deny: two submit buttons, Approve first', () => {
    const html = consentPage(claudeCode);
    expect(html).toContain('<form method="post" action="/authorize/consent">');
    expect(html).toContain(
      '<input type="hidden" name="csrf" value="csrf-token">\n<input type="hidden" name="request" value="sealed.request">',
    );
    const buttons = [...html.matchAll(/<button [^>]*>[^<]*<\/button>/g)].map((match) => match[0]);
    expect(buttons).toEqual([
      '<button type="submit" name="decision" value="approve" class="primary">Approve and sign in with GitHub</button>',
      '<button type="submit" name="decision" value="deny">Deny</button>',
    ]);
  });

  test('needs no script and submits nothing by itself', () => {
    const html = consentPage(claudeCode);
    expect(html).not.toMatch(/<script|autofocus|http-equiv|onload=/i);
  });

  test('shows a hostile name, id, home page and redirect as text: escaped, never a link, with direction tricks made visible', () => {
    const html = consentPage({
      ...claudeCode,
      clientName: 'Claude <img src=x onerror=alert(1)> Code\u202egnp.exe',
      clientId: 'https://evil.example/"><script>alert(2)</script>',
      clientUri: 'javascript:alert(3)',
      redirectUri: 'https://evil.example/cb?"><b>x</b>',
      redirectIsLocal: false,
      hiddenFields: { 'x"><script>': '"><script>alert(4)</script>' },
    });
    expect(html).not.toMatch(/<img|<script|<b>|href=/);
    expect(html).toContain('<bdi>Claude &lt;img src=x onerror=alert(1)&gt; Code\ufffdgnp.exe</bdi>');
    expect(html).toContain('Its home page, as it says: <bdi>javascript:alert(3)</bdi>');
    expect(html).toContain(
      '<input type="hidden" name="x&quot;&gt;&lt;script&gt;" value="&quot;&gt;&lt;script&gt;alert(4)&lt;/script&gt;">',
    );
  });

  test('cuts a very long name, and says when a client gives none', () => {
    const long = consentPage({ ...claudeCode, clientName: 'A'.repeat(500) });
    expect(long).toContain(`<bdi>${'A'.repeat(120)}…</bdi>`);
    expect(consentPage({ ...claudeCode, clientName: null })).toContain('<strong>A client that gives no name</strong>');
    expect(consentPage({ ...claudeCode, clientName: '   ' })).toContain('<strong>A client that gives no name</strong>');
  });

  test('keeps at most two combining marks per letter, so a name cannot stack marks over the lines around it', () => {
    const html = consentPage({ ...claudeCode, clientName: `C${'\u0301'.repeat(190)}la\u0300\u0316\u0317\u0318ude` });
    expect(html).toContain('<bdi>C\u0301\u0301la\u0300\u0316ude</bdi>');
    const leading = consentPage({ ...claudeCode, clientName: `${'\u0301'.repeat(10)}x` });
    expect(leading).toContain('<bdi>\u0301\u0301x</bdi>');
  });

  test('shows zero-width, format, separator and tag characters as U+FFFD', () => {
    const html = consentPage({ ...claudeCode, clientName: 'a\u200bb\u200dc\u2028d\u2029e\u{e0041}\u{e007f}f\u00adg' });
    expect(html).toContain('<bdi>a\ufffdb\ufffdc\ufffdd\ufffde\ufffd\ufffdf\ufffdg</bdi>');
  });

  test('puts the name in a box of its own, in no quotation marks a name could close', () => {
    const html = consentPage({ ...claudeCode, clientName: 'Claude Desktop” ✔ verified by Major Vault “' });
    expect(html).toContain(
      '<span class="detail">The name it gives itself:</span><span class="client-name"><bdi>Claude Desktop” ✔ verified by Major Vault “</bdi></span><span class="detail">Self-described; Major Vault does not check it.</span>',
    );
    expect(html).not.toContain('“Claude');
  });

  test('a registered client (opaque id) is marked as vouched for by nothing', () => {
    const html = consentPage({ ...claudeCode, clientId: 'reg_3f9a', clientIdIsUrl: false, clientUri: null });
    expect(html).toContain('Registered itself with this server; nothing vouches for it.');
    expect(html).not.toContain('Described by');
    expect(html).not.toContain('Its home page');
  });

  test("names a native app's redirect by its scheme", () => {
    const html = consentPage({ ...claudeCode, redirectUri: 'cursor://anysphere.cursor-mcp/oauth/callback', redirectIsLocal: false });
    expect(html).toContain('<strong>the app that opens <bdi>cursor:</bdi> links (<bdi>anysphere.cursor-mcp</bdi>)</strong>');
  });
});
