// The page a browser gets at an installation's address: the address and how to add it to an
// assistant (spec: "Connect your assistant", "Opened in a browser, the address shows the same steps").
import { connectSteps, type SignInMode } from './connect-steps.ts';
import { escapeHtml, pageLayout } from './page-layout.ts';

/** What the page shows. Nothing about repositories: the page is for anyone who opens the address. */
export interface AddressPageOptions {
  /** The installation's name, e.g. `acme`. */
  name: string;
  /** The MCP address, e.g. `http://127.0.0.1:8787/acme`. */
  url: string;
  /** How people sign in at the address: nobody (local), a users-file token, or OAuth with GitHub (hosted). */
  signIn: SignInMode;
}

/**
 * The HTML of the address page: the installation's name, the address, and per client how to
 * add it, each command with a Copy button when scripts run. Send it with `htmlResponse`.
 */
export function addressPage(options: AddressPageOptions): string {
  return pageLayout({
    title: options.name,
    script: 'copy-buttons',
    body: `<h1>${escapeHtml(options.name)}</h1>
<p class="lede">The notes in this installation's Git repositories, for your AI assistant, over MCP. Every change your assistant makes becomes a Git commit, with you as its author.</p>
${connectSteps(options)}`,
  });
}
