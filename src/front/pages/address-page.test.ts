// The address page: per client how to add the address, in each sign-in mode, from HTML alone.
import { describe, expect, test } from 'vitest';
import { addressPage } from './address-page.ts';

/** The text of every `<pre><code>` block, unescaped: what a reader copies. */
function codeBlocks(html: string): string[] {
  const entities: Record<string, string> = { '&amp;': '&', '&lt;': '<', '&gt;': '>', '&quot;': '"', '&#39;': "'" };
  return [...html.matchAll(/<pre><code>([\s\S]*?)<\/code><\/pre>/g)].map((match) =>
    match[1]!.replace(/&(amp|lt|gt|quot|#39);/g, (entity) => entities[entity]!),
  );
}

describe('the address page', () => {
  test('names the installation, shows the address, and says per client how to add it', () => {
    const html = addressPage({ name: 'acme', url: 'https://vlt.example/acme', signIn: 'oauth' });
    expect(html).toContain('<h1>acme</h1>');
    expect(html).toContain('<p class="address">https://vlt.example/acme</p>');
    for (const client of ['claude.ai and Claude Desktop', 'ChatGPT', 'Claude Code', 'Codex', 'opencode', 'Other clients']) {
      expect(html).toContain(`<h3>${client}</h3>`);
    }
    expect(html).toContain('Settings → Connectors → <strong>Add custom connector</strong>');
    expect(html).toContain('<strong>developer mode</strong>');
    const [claudeCode, codex, opencode, mcpRemote] = codeBlocks(html);
    expect(claudeCode).toBe('claude mcp add --transport http acme https://vlt.example/acme');
    expect(codex).toBe('codex mcp add acme --url https://vlt.example/acme');
    expect(JSON.parse(opencode!)).toEqual({ mcp: { acme: { type: 'remote', url: 'https://vlt.example/acme' } } });
    expect(JSON.parse(mcpRemote!)).toEqual({
      mcpServers: { acme: { command: 'npx', args: ['-y', 'mcp-remote', 'https://vlt.example/acme'] } },
    });
  });

  test('hosted (oauth): says that the client is confirmed and the person signs in with GitHub the first time', () => {
    const html = addressPage({ name: 'acme', url: 'https://vlt.example/acme', signIn: 'oauth' });
    expect(html).toContain('where you confirm which client is asking; then you sign in with GitHub');
    expect(html).toContain('<code>codex mcp login acme</code>');
    expect(html).not.toContain('YOUR-TOKEN');
    // A public address: the hosted connectors can reach it.
    expect(html).not.toContain('This address is on this computer');
  });

  test('with a users file (token): every command and snippet has a place for the token', () => {
    const html = addressPage({ name: 'acme', url: 'https://vault.acme.example/acme', signIn: 'token' });
    expect(html).toContain('This address needs a token');
    const [claudeCode, codex, opencode, mcpRemote] = codeBlocks(html);
    expect(claudeCode).toBe(
      'claude mcp add --transport http acme https://vault.acme.example/acme --header "Authorization: Bearer YOUR-TOKEN"',
    );
    expect(codex).toBe('codex mcp add acme --url https://vault.acme.example/acme --bearer-token-env-var MAJOR_VAULT_TOKEN');
    expect(html).toContain('set <code>MAJOR_VAULT_TOKEN</code> to your token');
    expect(JSON.parse(opencode!).mcp.acme.headers).toEqual({ Authorization: 'Bearer YOUR-TOKEN' });
    expect(JSON.parse(mcpRemote!).mcpServers.acme.args).toEqual([
      '-y',
      'mcp-remote',
      'https://vault.acme.example/acme',
      '--header',
      'Authorization: Bearer YOUR-TOKEN',
    ]);
    expect(html).toContain('These connectors cannot send a token');
  });

  test('local (none) on this computer: no sign-in, and the hosted connectors cannot reach it', () => {
    const html = addressPage({ name: 'acme', url: 'http://127.0.0.1:8787/acme', signIn: 'none' });
    expect(html).toContain('No sign-in here');
    expect(html).toContain('This address is on this computer: use one of the clients below.');
    expect(codeBlocks(html)[0]).toBe('claude mcp add --transport http acme http://127.0.0.1:8787/acme');
  });

  test('reads without a script: no buttons in the markup (the script adds them), every block marked copyable', () => {
    const html = addressPage({ name: 'acme', url: 'https://vlt.example/acme', signIn: 'oauth' });
    const [content, script] = html.split('<script>');
    expect(content).not.toContain('<button');
    expect(content!.match(/<div class="copyable" data-copy="[^"]+">/g)).toHaveLength(5);
    expect(script).toContain("document.createElement('button')");
  });

  test('escapes a hostile name and address everywhere, the JSON snippets included', () => {
    const html = addressPage({ name: 'a<script>x</script>', url: 'https://vlt.example/"><img src=x>', signIn: 'oauth' });
    const [content] = html.split('<script>\n');
    expect(content).not.toMatch(/<script>x|<img/);
    expect(content).toContain('a&lt;script&gt;x&lt;/script&gt;');
    expect(JSON.parse(codeBlocks(html)[2]!).mcp['a<script>x</script>'].url).toBe('https://vlt.example/"><img src=x>');
  });
});
