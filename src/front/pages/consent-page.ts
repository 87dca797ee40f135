// STUB (replaced by the pages branch): the consent page of a sign-in.
/** What the consent page names. */
export interface ConsentPageOptions {
  installationName: string;
  resource: string;
  clientName: string | null;
  clientId: string;
  clientIdIsUrl: boolean;
  clientUri: string | null;
  redirectUri: string;
  redirectIsLocal: boolean;
  formAction: string;
  hiddenFields: Record<string, string>;
}
/** The consent page's HTML: the client, the redirect's host, the installation; Approve and Deny. */
export function consentPage(options: ConsentPageOptions): string {
  const e = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
  const hidden = Object.entries(options.hiddenFields)
    .map(([name, value]) => `<input type="hidden" name="${e(name)}" value="${e(value)}">`)
    .join('');
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Sign in to ${e(options.installationName)}</title></head><body><h1>${e(options.clientName ?? options.clientId)} asks to use ${e(options.installationName)}</h1><p>Redirect: ${e(new URL(options.redirectUri).host)}</p><form method="post" action="${e(options.formAction)}">${hidden}<button name="decision" value="approve">Approve</button><button name="decision" value="deny">Deny</button></form></body></html>`;
}
