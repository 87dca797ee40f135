// STUB (replaced by the pages branch): the install status page, where GitHub sends an admin after installing the App.
/** Where an installation stands, as the page shows it. */
export type InstallStatus =
  | { state: 'pending'; installationId: number; account: string | null }
  | { state: 'on'; installationId: number; name: string; address: string }
  | { state: 'unknown'; installationId: number | null };

/** The install status page's HTML: pending, on (with the address), or unknown. */
export function installStatusPage(status: InstallStatus): string {
  const e = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
  const body =
    status.state === 'on'
      ? `<h1>${e(status.name)} is on</h1><p>Its address: <code>${e(status.address)}</code></p>`
      : status.state === 'pending'
        ? `<h1>Installation ${status.installationId} is pending</h1><p>We switch it on by hand, usually within 24 hours.</p>`
        : `<h1>Unknown installation</h1><p>GitHub knows no installation ${status.installationId ?? ''} of this App.</p>`;
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Major Vault</title></head><body>${body}</body></html>`;
}
