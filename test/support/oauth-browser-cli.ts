// The scripted browser as a program, for clients that open a browser themselves (mcp-remote and
// the MCP Inspector CLI, through the `open` package, xdg-open and `$BROWSER`): run through
// test/support/oauth-browser.sh, it signs in and opens the client's loopback callback.
//
//   BROWSER=test/support/oauth-browser.sh OAUTH_BROWSER_LOGIN=maya <client>   (the client passes the URL)
//   test/support/oauth-browser.sh '<authorization URL>'                        (by hand, or from a script)
//
// Environment (read here because this file is a test program, not the product):
//   OAUTH_BROWSER_LOGIN     the login typed on the GitHub stand-in's sign-in page (field `login`)
//   OAUTH_BROWSER_DECISION  the consent button pressed (field `decision`, default `approve`)
//   OAUTH_BROWSER_ANSWERS   more answers as a query string, e.g. `login=tom&decision=deny`
//   OAUTH_BROWSER_STOP_AT   where to stop (default: the authorization URL's redirect_uri)
//   OAUTH_BROWSER_LOG       a file that gets one JSON line per run: the URL, the outcome, the requests
//
// Exit status 0 when the callback received something: the code, or, when the sign-in failed,
// `error=access_denied` with the reason, so the waiting client stops at once instead of timing
// out. xdg-open runs `$BROWSER` again after a non-zero exit, so 1 only when nothing could be
// delivered (no loopback redirect_uri).
import { appendFileSync } from 'node:fs';
import { BrowserError, OAuthBrowser, redirectUriOf, type FormAnswers } from './oauth-browser.ts';

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '[::1]']);

function answersFromEnvironment(env: NodeJS.ProcessEnv): FormAnswers {
  const answers: FormAnswers = { decision: env['OAUTH_BROWSER_DECISION'] || 'approve' };
  if (env['OAUTH_BROWSER_LOGIN']) answers['login'] = env['OAUTH_BROWSER_LOGIN'];
  for (const [name, value] of new URLSearchParams(env['OAUTH_BROWSER_ANSWERS'] ?? '')) answers[name] = value;
  return answers;
}

function record(entry: Record<string, unknown>): void {
  const file = process.env['OAUTH_BROWSER_LOG'];
  if (file) appendFileSync(file, `${JSON.stringify({ at: new Date().toISOString(), ...entry })}\n`);
}

/** Opens `redirect_uri?error=access_denied&…` so the client waiting on its loopback port gives up now. */
async function deliverFailure(authorizationUrl: URL, reason: string): Promise<boolean> {
  let callback: URL;
  try {
    callback = redirectUriOf(authorizationUrl);
  } catch {
    return false;
  }
  if (callback.protocol !== 'http:' || !LOOPBACK.has(callback.hostname)) return false;
  callback.searchParams.set('error', 'access_denied');
  callback.searchParams.set('error_description', `scripted browser: ${reason.split('\n')[0]}`);
  const state = authorizationUrl.searchParams.get('state');
  if (state !== null) callback.searchParams.set('state', state);
  try {
    await (await fetch(callback, { redirect: 'manual' })).body?.cancel();
    return true;
  } catch {
    return false;
  }
}

async function main(argv: string[]): Promise<number> {
  const target = argv[0];
  if (!target || argv.length !== 1) {
    process.stderr.write('usage: oauth-browser.sh <authorization URL>\n');
    return 1;
  }
  const authorizationUrl = new URL(target);
  const browser = new OAuthBrowser(answersFromEnvironment(process.env));
  const stopAt = process.env['OAUTH_BROWSER_STOP_AT'] || undefined;
  try {
    const { callback, delivery } = await browser.signIn(authorizationUrl, { deliver: true, stopAt });
    record({ url: authorizationUrl.href, callback: callback.href, delivered: delivery?.status, visits: browser.visits });
    process.stderr.write(`oauth-browser: delivered ${callback.origin}${callback.pathname} (${delivery?.status})\n`);
    return 0;
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    const delivered = await deliverFailure(authorizationUrl, reason);
    const text = error instanceof BrowserError ? error.text : undefined;
    record({ url: authorizationUrl.href, error: reason, text, deliveredError: delivered, visits: browser.visits });
    process.stderr.write(`oauth-browser: ${reason}\n${text ? `  page: ${text}\n` : ''}`);
    return delivered ? 0 : 1;
  }
}

process.exitCode = await main(process.argv.slice(2));
