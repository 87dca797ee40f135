// The install status page in each state: pending, on (the address and the add steps), unknown.
import { describe, expect, test } from 'vitest';
import { installStatusPage } from './install-status-page.ts';

describe('the install status page', () => {
  test('pending: we switch it on by hand within 24 hours; keep this page, which links to itself', () => {
    const html = installStatusPage({ state: 'pending', installationId: 4242, account: 'acme-corp' });
    expect(html).toContain('<h1>Installed: waiting to be switched on</h1>');
    expect(html).toContain('on <strong>acme-corp</strong> (installation 4242)');
    expect(html).toContain('switch it on by hand, usually within 24 hours');
    expect(html).toContain('<strong>Keep this page.</strong>');
    expect(html).toContain('<a href="">Check again</a>');
    expect(html).not.toContain('<script');
    expect(installStatusPage({ state: 'pending', installationId: 4242, account: null })).toContain(
      'installing Major Vault (installation 4242)',
    );
  });

  test('on: the address and the same add steps as the address page, with copy buttons and the GitHub sign-in', () => {
    const html = installStatusPage({ state: 'on', installationId: 4242, name: 'acme', address: 'https://vlt.example/acme' });
    expect(html).toContain('<h1>acme is on</h1>');
    expect(html).toContain('<p class="address">https://vlt.example/acme</p>');
    expect(html).toContain('claude mcp add --transport http acme https://vlt.example/acme');
    expect(html).toContain('then you sign in with GitHub');
    expect(html).toContain("document.createElement('button')");
  });

  test('unknown: says what is missing and how to install', () => {
    const noId = installStatusPage({ state: 'unknown', installationId: null });
    expect(noId).toContain('This link names no installation.');
    expect(noId).toContain('<h2>How to install</h2>');
    expect(noId).not.toContain('Install on GitHub</a>');
    const gone = installStatusPage({
      state: 'unknown',
      installationId: 999,
      installUrl: 'https://github.com/apps/major-vault/installations/new?a=1&b=2',
    });
    expect(gone).toContain('GitHub knows no installation 999');
    expect(gone).toContain(
      '<a class="button primary" href="https://github.com/apps/major-vault/installations/new?a=1&amp;b=2">Install on GitHub</a>',
    );
  });

  test('escapes the account and the name', () => {
    const pending = installStatusPage({ state: 'pending', installationId: 1, account: '<img src=x>' });
    expect(pending).not.toContain('<img');
    const on = installStatusPage({ state: 'on', installationId: 1, name: '<b>x</b>', address: 'https://vlt.example/x' });
    expect(on).toContain('<h1>&lt;b&gt;x&lt;/b&gt; is on</h1>');
    expect(on).toContain('<title>&lt;b&gt;x&lt;/b&gt; is on – Major Vault</title>');
  });
});
