// The page GitHub sends an admin to after installing the App (its Setup URL), and that they
// keep: pending until an operator switches the installation on, then its address and how to
// add it (spec: "Connect your assistant", "2. Wait until we switch it on").
import { connectSteps } from './connect-steps.ts';
import { escapeHtml, pageLayout } from './page-layout.ts';

/**
 * What the front knows of the installation the page is for:
 * - `pending`: GitHub knows it, an operator has not switched it on yet; `account` is the
 *   user or organisation it is installed on, when known;
 * - `on`: switched on, named `name`, answering at `address`;
 * - `unknown`: GitHub knows no installation `installationId`, or the link carries no id (null).
 *   `installUrl`, when given, is the App's page for installing it
 *   (`https://github.com/apps/<app>/installations/new`).
 */
export type InstallStatus =
  | { state: 'pending'; installationId: number; account: string | null }
  | { state: 'on'; installationId: number; name: string; address: string }
  | { state: 'unknown'; installationId: number | null; installUrl?: string };

/**
 * The HTML of the install status page for `status`. Its URL stays the same through every
 * state, so reloading it shows the current one; the pending state says so, and links to itself.
 * Send it with `htmlResponse`.
 */
export function installStatusPage(status: InstallStatus): string {
  switch (status.state) {
    case 'pending': {
      const account = status.account === null ? '' : ` on <strong>${escapeHtml(status.account)}</strong>`;
      return pageLayout({
        title: 'Installed: waiting to be switched on',
        body: `<h1>Installed: waiting to be switched on</h1>
<p class="lede">Thank you for installing Major Vault${account} (installation ${status.installationId}).</p>
<p>We review every new installation and switch it on by hand, usually within 24 hours.</p>
<p><strong>Keep this page.</strong> Its address stays the same: once the installation is on, it shows your address and how to add it to your assistant.</p>
<p><a href="">Check again</a></p>
<h2>Meanwhile</h2>
<p>You can change which repositories Major Vault may reach at any time, in the installation's settings on GitHub; the change takes effect here too.</p>`,
      });
    }
    case 'on':
      return pageLayout({
        title: `${status.name} is on`,
        script: 'copy-buttons',
        body: `<h1>${escapeHtml(status.name)} is on</h1>
<p class="lede">Installation ${status.installationId} is switched on. Everyone who can read its repositories on GitHub can now use them from their assistant, with their own GitHub account.</p>
${connectSteps({ name: status.name, url: status.address, signIn: 'oauth' })}`,
      });
    case 'unknown': {
      const what =
        status.installationId === null
          ? 'This link names no installation. GitHub adds it when it sends you here after installing the App.'
          : `GitHub knows no installation ${status.installationId} of the Major Vault App. It may have been removed, or the link was changed.`;
      const install = status.installUrl
        ? `<p><a class="button primary" href="${escapeHtml(status.installUrl)}">Install on GitHub</a></p>`
        : '';
      return pageLayout({
        title: 'No such installation',
        body: `<h1>No such installation</h1>
<p class="lede">${what}</p>
<h2>How to install</h2>
<ol class="steps">
<li>Install the Major Vault App on GitHub, on your personal account or an organisation, and choose the repositories it may reach.</li>
<li>GitHub then sends you back to this page, with your installation's number in the link.</li>
<li>We switch the installation on by hand, usually within 24 hours; this page then shows your address.</li>
</ol>
${install}`,
      });
    }
  }
}
