// How to add an installation's address to each assistant (spec: "Connect your assistant",
// step 3), shared by the address page and the install status page once an installation is on.
import { isLoopback } from '../is-loopback.ts';
import { escapeHtml } from './page-layout.ts';

/**
 * How a person signs in at the address:
 * - `none`: nobody does; the local server answers one person on this computer;
 * - `token`: with a bearer token from the users file (`Authorization: Bearer <token>`);
 * - `oauth`: the hosted mode; the client confirms itself on the consent page, then the person
 *   signs in with GitHub (spec: "4. Sign in").
 */
export type SignInMode = 'none' | 'token' | 'oauth';

/** What {@link connectSteps} shows. */
export interface ConnectStepsOptions {
  /** The installation's name, e.g. `acme`: the name each client gives the server. */
  name: string;
  /** The MCP address, e.g. `https://vlt.example/acme`. */
  url: string;
  signIn: SignInMode;
}

/** The placeholder shown where a person puts their own token. */
const tokenPlaceholder = 'YOUR-TOKEN';
/** The environment variable Codex reads the token from (it takes no token on its command line). */
const codexTokenVariable = 'MAJOR_VAULT_TOKEN';

/**
 * The HTML of the connect steps: the address (copyable), what signing in will be like, then
 * under an `<h2>` one `<h3>` section per client (claude.ai and Claude Desktop, ChatGPT, Claude
 * Code, Codex, opencode, others), each command or snippet in a `.copyable` block for the
 * `copy-buttons` script of page-layout.ts. The caller's page has the `<h1>` before it.
 */
export function connectSteps(options: ConnectStepsOptions): string {
  const { name, url, signIn } = options;
  const token = signIn === 'token';
  const oauth = signIn === 'oauth';
  const onThisComputer = isLoopbackUrl(url);
  // Hosted connectors (claude.ai, ChatGPT) call from their own servers and sign in only with OAuth.
  const connectorLimit = onThisComputer
    ? `<p class="note">These connectors call from Anthropic's and OpenAI's servers, so they reach only an address on the internet. This address is on this computer: use one of the clients below.</p>`
    : token
      ? `<p class="note">These connectors cannot send a token: use one of the clients below.</p>`
      : '';
  const claudeCode = `claude mcp add --transport http ${name} ${url}${token ? ` --header "Authorization: Bearer ${tokenPlaceholder}"` : ''}`;
  const codex = `codex mcp add ${name} --url ${url}${token ? ` --bearer-token-env-var ${codexTokenVariable}` : ''}`;
  const authorization = { Authorization: `Bearer ${tokenPlaceholder}` };
  const opencode = JSON.stringify({ mcp: { [name]: { type: 'remote', url, ...(token ? { headers: authorization } : {}) } } }, null, 2);
  const mcpRemote = JSON.stringify(
    {
      mcpServers: {
        [name]: {
          command: 'npx',
          args: ['-y', 'mcp-remote', url, ...(token ? ['--header', `Authorization: Bearer ${tokenPlaceholder}`] : [])],
        },
      },
    },
    null,
    2,
  );
  return `<p>Add this address to your assistant:</p>
<div class="copyable" data-copy="the address"><p class="address">${escapeHtml(url)}</p></div>
${signInNote(signIn)}
<h2>How to add it</h2>
<h3>claude.ai and Claude Desktop</h3>
<p>Settings → Connectors → <strong>Add custom connector</strong>, with the address above.</p>
<h3>ChatGPT</h3>
<p>Settings → Connectors, with <strong>developer mode</strong> on (under Advanced), then create a connector with the address above.</p>
${connectorLimit}
<h3>Claude Code</h3>
${copyable('the Claude Code command', claudeCode)}
<h3>Codex</h3>
${copyable('the Codex command', codex)}
${token ? `<p>Codex reads the token from an environment variable: set <code>${codexTokenVariable}</code> to your token before you start it.</p>` : ''}
${oauth ? `<p>Codex opens the sign-in in your browser; if it does not, run <code>codex mcp login ${escapeHtml(name)}</code>.</p>` : ''}
<h3>opencode</h3>
<p>In <code>opencode.json</code>:</p>
${copyable('the opencode configuration', opencode)}
${oauth ? `<p>opencode opens the sign-in in your browser the first time it connects.</p>` : ''}
<h3>Other clients</h3>
<p>Claude Desktop, or any client that starts a local program, through <code>mcp-remote</code> (in Claude Desktop: <code>claude_desktop_config.json</code>):</p>
${copyable('the mcp-remote configuration', mcpRemote)}
${oauth ? `<p>mcp-remote opens the sign-in in your browser the first time it connects.</p>` : ''}
<p>A client that speaks MCP over Streamable HTTP takes the address as it is, as a remote server.</p>`;
}

/** What signing in will be like, for the mode. */
function signInNote(signIn: SignInMode): string {
  switch (signIn) {
    case 'none':
      return `<p class="note">No sign-in here: this server runs for one person on this computer and answers only on its own address.</p>`;
    case 'token':
      return `<p class="note">This address needs a token. Ask the person who runs it for yours (it is in their users file) and send it as <code>Authorization: Bearer ${tokenPlaceholder}</code>; the commands below have a place for it.</p>`;
    case 'oauth':
      return `<p class="note">The first time, your assistant opens a page here where you confirm which client is asking; then you sign in with GitHub. The assistant reads and writes only where you can on GitHub, and its changes are commits in your name. The client keeps the sign-in and renews it by itself.</p>`;
  }
}

/** A block of text with a Copy button when scripts run; `what` names it for the button ("Copy the Codex command"). */
function copyable(what: string, text: string): string {
  return `<div class="copyable" data-copy="${escapeHtml(what)}"><pre><code>${escapeHtml(text)}</code></pre></div>`;
}

/** Whether `url` names this computer: no hosted connector can reach it. */
function isLoopbackUrl(url: string): boolean {
  try {
    return isLoopback(new URL(url).hostname);
  } catch {
    return false;
  }
}
