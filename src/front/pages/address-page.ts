// The page a browser gets at an installation's address: the address and how to add it to an
// assistant (spec: "Connect your assistant", "Opened in a browser, the address shows the same steps").

/** What the page shows. Nothing about repositories: the page is for anyone who opens the address. */
export interface AddressPageOptions {
  /** The installation's name, e.g. `acme`. */
  name: string;
  /** The MCP address, e.g. `http://127.0.0.1:8787/acme`. */
  url: string;
  /** Whether calls need `Authorization: Bearer <token>` (a users file is in use). */
  requiresToken: boolean;
}

/** The HTML of the address page, a small self-contained document (no scripts, no outside assets). */
export function addressPage(options: AddressPageOptions): string {
  const name = escapeHtml(options.name);
  const url = escapeHtml(options.url);
  const header = options.requiresToken ? ' --header "Authorization: Bearer YOUR-TOKEN"' : '';
  const tokenNote = options.requiresToken
    ? `<p class="note">This address needs a token. Ask the person who runs it for yours (it is in their users file) and send it as <code>Authorization: Bearer YOUR-TOKEN</code>.</p>`
    : `<p class="note">No sign-in here: this server runs for one person on this computer and answers only on its own address.</p>`;
  const desktopConfig = escapeHtml(
    JSON.stringify(
      {
        mcpServers: {
          [options.name]: {
            command: 'npx',
            args: ['-y', 'mcp-remote', options.url, ...(options.requiresToken ? ['--header', 'Authorization: Bearer YOUR-TOKEN'] : [])],
          },
        },
      },
      null,
      2,
    ),
  );
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Major Vault · ${name}</title>
<style>
  body { font: 16px/1.5 system-ui, sans-serif; max-width: 44rem; margin: 3rem auto; padding: 0 1rem; color: #1d1d1f; }
  h1 { font-size: 1.6rem; margin-bottom: 0.2rem; }
  .lede { color: #555; margin-top: 0; }
  .address { font: 1.1rem ui-monospace, monospace; background: #f2f2f4; padding: 0.6rem 0.8rem; border-radius: 6px; word-break: break-all; }
  pre { background: #f2f2f4; padding: 0.6rem 0.8rem; border-radius: 6px; overflow-x: auto; }
  code { font-family: ui-monospace, monospace; }
  .note { border-left: 3px solid #8a8af0; padding-left: 0.8rem; color: #333; }
  li { margin-bottom: 0.5rem; }
</style>
</head>
<body>
<h1>Major Vault · ${name}</h1>
<p class="lede">The notes in this installation's Git repositories, for your AI assistant, over MCP.</p>
<p>Add this address to your assistant:</p>
<p class="address">${url}</p>
${tokenNote}
<h2>How to connect</h2>
<ul>
  <li><strong>Claude Code:</strong><pre><code>claude mcp add --transport http ${name} ${url}${escapeHtml(header)}</code></pre></li>
  <li><strong>claude.ai and Claude Desktop:</strong> Settings → Connectors → Add custom connector, with the address above. A connector runs from Anthropic's servers, so it reaches only an address they can reach; for this computer, use the Claude Desktop configuration below.</li>
  <li><strong>Claude Desktop</strong> (<code>claude_desktop_config.json</code>), through <code>mcp-remote</code>:<pre><code>${desktopConfig}</code></pre></li>
  <li><strong>ChatGPT:</strong> Settings → Connectors, with developer mode on; like claude.ai, it reaches only an address reachable from the internet.</li>
  <li><strong>Other clients</strong> that speak MCP over Streamable HTTP, such as Codex, opencode or VS Code: the same address, as a remote server.</li>
</ul>
<p>Every change your assistant makes becomes a Git commit, with you as its author.</p>
</body>
</html>
`;
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[char]!);
}
