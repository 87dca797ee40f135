// The front's pages in real Chromium: each renders (title, heading, no console errors, no CSP
// violations), works by keyboard with a visible focus, reads without JavaScript, and leaves a
// full-page screenshot in test-output/pages/ (light, and `-dark` for the dark scheme).
import { mkdirSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { toNodeHandler } from '@modelcontextprotocol/node';
import type { Browser, BrowserContextOptions, Page } from 'playwright-core';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { catalogueFor } from '../../src/catalogue/catalogue.ts';
import { createFront, listenFront, type ListeningFront } from '../../src/front/http-front.ts';
import { addressPage } from '../../src/front/pages/address-page.ts';
import { consentPage, type ConsentPageOptions } from '../../src/front/pages/consent-page.ts';
import { errorPage } from '../../src/front/pages/error-page.ts';
import { installStatusPage } from '../../src/front/pages/install-status-page.ts';
import { escapeHtml, htmlResponse } from '../../src/front/pages/page-layout.ts';
import type { Access } from '../../src/repo-host/person.ts';
import { allTools } from '../../src/tools/all-tools.ts';
import { chromiumMissing, launchChromium } from '../support/chromium.ts';

const screenshots = join(import.meta.dirname, '..', '..', 'test-output', 'pages');

/** One page to check: its URL, what it must say, and whether it carries copy buttons. */
interface PageCase {
  name: string;
  url: () => string;
  title: string;
  h1: string;
  /** The HTTP status the page is sent with. */
  status: number;
  /** Text a reader needs, present with and without JavaScript. */
  says: string[];
  copyButtons: boolean;
}

/** What the consent page's form sent, in order. */
const consentAnswers: URLSearchParams[] = [];

// Without Chromium the suite below is skipped; this says so, and why, in the test output.
if (chromiumMissing) {
  test('the pages in Chromium', ({ skip }) => {
    console.warn(`The page checks are skipped: ${chromiumMissing}.`);
    skip(chromiumMissing!);
  });
}

describe.skipIf(chromiumMissing)(`the pages in Chromium${chromiumMissing ? ` (skipped: ${chromiumMissing})` : ''}`, () => {
  let browser: Browser;
  let front: ListeningFront;
  let pages: Served;
  let github: Served;
  let client: Served;
  let frontAddress: string;

  beforeAll(async () => {
    mkdirSync(screenshots, { recursive: true });
    // The real front, with the local sign-in of one person: the address page as `serve` shows it.
    const access: Access = { person: { login: 'ada', name: 'Ada', email: 'ada@example.com' }, read: new Set(), write: new Set() };
    front = await listenFront(
      createFront({
        name: 'acme',
        signIn: { requiresToken: false, authenticate: async () => access },
        allowedHostnames: [],
        catalogue: async () => catalogueFor(allTools, []),
        forward: async () => new Response(null, { status: 500 }),
      }),
      { port: 0, hostname: '127.0.0.1', log: pino({ level: 'silent' }) },
    );
    frontAddress = new URL('/acme', front.origin).href;
    // Where the consent page's answer leads, on origins of their own: GitHub's sign-in, the client's callback.
    github = await serve(async (request) => htmlResponse(landing('GitHub sign-in', request)));
    client = await serve(async (request) => htmlResponse(landing('Client callback', request)));
    pages = await serve(async (request) => pageServer(request, { github: github.origin, client: client.origin }));
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await Promise.all([front?.close(), pages?.close(), github?.close(), client?.close()]);
  });

  const cases: PageCase[] = [
    {
      name: 'address',
      url: () => frontAddress,
      title: 'acme – Major Vault',
      h1: 'acme',
      status: 200,
      says: [
        'Add this address to your assistant',
        'claude mcp add --transport http acme',
        'codex mcp add acme --url',
        '"type": "remote"',
        'mcp-remote',
      ],
      copyButtons: true,
    },
    {
      name: 'address-oauth',
      url: () => `${pages.origin}/address-oauth`,
      title: 'acme – Major Vault',
      h1: 'acme',
      status: 200,
      says: ['sign in with GitHub', 'claude mcp add --transport http acme https://vlt.example/acme', 'codex mcp login acme'],
      copyButtons: true,
    },
    {
      name: 'consent',
      url: () => `${pages.origin}/consent`,
      title: 'Connect an assistant to acme? – Major Vault',
      h1: 'Connect an assistant to acme?',
      status: 200,
      says: [
        'The name it gives itself:\nClaude Code\nSelf-described; Major Vault does not check it.',
        'Described by claude.ai',
        'Only approve if you started this sign-in on this computer',
        'sign in with GitHub next',
      ],
      copyButtons: false,
    },
    {
      name: 'install-pending',
      url: () => `${pages.origin}/install?installation_id=4242&state=pending`,
      title: 'Installed: waiting to be switched on – Major Vault',
      h1: 'Installed: waiting to be switched on',
      status: 200,
      says: ['usually within 24 hours', 'Keep this page', 'acme-corp'],
      copyButtons: false,
    },
    {
      name: 'install-on',
      url: () => `${pages.origin}/install?installation_id=4242&state=on`,
      title: 'acme is on – Major Vault',
      h1: 'acme is on',
      status: 200,
      says: ['https://vlt.example/acme', 'claude mcp add --transport http acme https://vlt.example/acme'],
      copyButtons: true,
    },
    {
      name: 'install-unknown',
      url: () => `${pages.origin}/install?installation_id=999&state=unknown`,
      title: 'No such installation – Major Vault',
      h1: 'No such installation',
      status: 404,
      says: ['GitHub knows no installation 999', 'How to install'],
      copyButtons: false,
    },
    {
      name: 'error',
      url: () => `${pages.origin}/error`,
      title: 'This sign-in cannot continue – Major Vault',
      h1: 'This sign-in cannot continue',
      status: 400,
      says: ['does not match', 'Start the sign-in again'],
      copyButtons: false,
    },
  ];

  for (const page of cases) {
    describe(`the ${page.name} page`, () => {
      test('renders with its title and heading, without console errors or CSP violations, and reflows at 320px', async () => {
        for (const colorScheme of ['light', 'dark'] as const) {
          await withPage(browser, { colorScheme, viewport: { width: 1024, height: 800 } }, async (tab, problems) => {
            const response = await tab.goto(page.url());
            expect(response?.status()).toBe(page.status);
            expect(response?.headers()['content-security-policy']).toContain("default-src 'none'");
            expect(await tab.title()).toBe(page.title);
            expect(await tab.locator('h1').textContent()).toBe(page.h1);
            expect((await tab.locator('button.copy').count()) > 0).toBe(page.copyButtons);
            const suffix = colorScheme === 'dark' ? '-dark' : '';
            await tab.screenshot({ path: join(screenshots, `${page.name}${suffix}.png`), fullPage: true });
            await tab.setViewportSize({ width: 320, height: 640 });
            expect(await tab.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(320);
            expect(await problems()).toEqual([]);
          });
        }
      });

      test('works by keyboard: Tab reaches every link and button in order, each with a visible focus ring', async () => {
        await withPage(browser, {}, async (tab, problems) => {
          await tab.goto(page.url());
          const count = await tab.evaluate<number>(`(() => {
            window.focusables = [...document.querySelectorAll('a[href], button, input:not([type=hidden]), select, textarea, [tabindex]')];
            return window.focusables.length;
          })()`);
          if (page.copyButtons || page.name === 'consent') expect(count).toBeGreaterThan(1);
          const reached: string[] = [];
          for (let index = 0; index < count; index++) {
            await tab.keyboard.press('Tab');
            const focus = await tab.evaluate<{ index: number; label: string; outline: string; width: number }>(`(() => {
              const element = document.activeElement;
              const style = getComputedStyle(element);
              return {
                index: window.focusables.indexOf(element),
                label: element.getAttribute('aria-label') || element.textContent.trim(),
                outline: style.outlineStyle,
                width: parseFloat(style.outlineWidth),
              };
            })()`);
            expect(focus.index, `Tab number ${index + 1} reaches the next control (after ${reached.join(', ') || 'none'})`).toBe(index);
            expect(focus.outline, `the focus on "${focus.label}" is visible`).not.toBe('none');
            expect(focus.width).toBeGreaterThanOrEqual(2);
            reached.push(focus.label);
          }
          expect(await problems()).toEqual([]);
        });
      });

      test('reads without JavaScript, and shows no copy buttons', async () => {
        await withPage(browser, { javaScriptEnabled: false }, async (tab, problems) => {
          await tab.goto(page.url());
          expect(await tab.locator('h1').textContent()).toBe(page.h1);
          const text = await tab.locator('main').innerText();
          for (const phrase of page.says) expect(text).toContain(phrase);
          expect(await tab.locator('button.copy').count()).toBe(0);
          expect(await problems()).toEqual([]);
        });
      });
    });
  }

  test('a copy button, reached by keyboard, puts its command on the clipboard', async () => {
    await withPage(browser, { permissions: ['clipboard-read', 'clipboard-write'] }, async (tab, problems) => {
      await tab.goto(frontAddress);
      const button = tab.getByRole('button', { name: 'Copy the Claude Code command' });
      for (let presses = 0; presses < 20; presses++) {
        await tab.keyboard.press('Tab');
        if ((await tab.evaluate("document.activeElement.getAttribute('aria-label')")) === 'Copy the Claude Code command') break;
      }
      await tab.keyboard.press('Enter');
      await expect.poll(() => button.textContent()).toBe('Copied');
      expect(await tab.evaluate('navigator.clipboard.readText()')).toBe(`claude mcp add --transport http acme ${frontAddress}`);
      expect(await tab.getByRole('status').filter({ hasText: 'Copied' }).textContent()).toBe('Copied the Claude Code command');

      await tab.getByRole('button', { name: 'Copy the address' }).click();
      expect(await tab.evaluate('navigator.clipboard.readText()')).toBe(frontAddress);
      expect(await problems()).toEqual([]);
    });
  });

  test('the consent page: Tab to Approve and Enter posts decision=approve, and the browser goes on to GitHub', async () => {
    await withPage(browser, {}, async (tab, problems) => {
      consentAnswers.length = 0;
      await tab.goto(`${pages.origin}/consent`);
      await tab.keyboard.press('Tab');
      expect(await tab.evaluate('document.activeElement.textContent')).toBe('Approve and sign in with GitHub');
      await Promise.all([tab.waitForURL(`${github.origin}/**`), tab.keyboard.press('Enter')]);
      expect(consentAnswers.map((answer) => Object.fromEntries(answer))).toEqual([
        { csrf: 'csrf-token-123', request: 'sealed.request', decision: 'approve' },
      ]);
      expect(await tab.locator('h1').textContent()).toBe('GitHub sign-in');
      expect(await problems()).toEqual([]);
    });
  });

  test('the consent page: Deny posts decision=deny, and the browser goes back to the client', async () => {
    await withPage(browser, { javaScriptEnabled: false }, async (tab, problems) => {
      consentAnswers.length = 0;
      await tab.goto(`${pages.origin}/consent`);
      await tab.keyboard.press('Tab');
      await tab.keyboard.press('Tab');
      expect(await tab.locator(':focus').textContent()).toBe('Deny');
      await Promise.all([tab.waitForURL(`${client.origin}/**`), tab.keyboard.press('Enter')]);
      expect(consentAnswers.map((answer) => answer.get('decision'))).toEqual(['deny']);
      expect(new URL(tab.url()).searchParams.get('error')).toBe('access_denied');
      expect(await problems()).toEqual([]);
    });
  });

  test('the consent page shows a hostile client name and home page as text, and runs nothing of them', async () => {
    await withPage(browser, { viewport: { width: 1024, height: 800 } }, async (tab, problems) => {
      let dialogs = 0;
      tab.on('dialog', (dialog) => {
        dialogs++;
        void dialog.dismiss();
      });
      await tab.goto(`${pages.origin}/consent-hostile`);
      expect(await tab.locator('main img, main script, main iframe').count()).toBe(0);
      const text = await tab.locator('dl').innerText();
      expect(text).toContain('<img src=x onerror=alert(1)>');
      expect(text).toContain('javascript:alert(2)');
      expect(await tab.locator('main a').count()).toBe(0);
      expect(dialogs).toBe(0);
      await tab.screenshot({ path: join(screenshots, 'consent-hostile.png'), fullPage: true });
      expect(await problems()).toEqual([]);
    });
  });

  test('the consent page keeps a name of stacked accents and fake quotes in its own box, clear of the heading and the note', async () => {
    await withPage(browser, { viewport: { width: 1024, height: 800 } }, async (tab, problems) => {
      await tab.goto(`${pages.origin}/consent-zalgo`);
      const name = await tab.locator('.client-name').boundingBox();
      const heading = await tab.locator('h1').boundingBox();
      const note = await tab.getByText('Major Vault does not check it').boundingBox();
      expect(name && heading && note).toBeTruthy();
      const apart = (a: Box, b: Box) => a.y + a.height <= b.y || b.y + b.height <= a.y || a.x + a.width <= b.x || b.x + b.width <= a.x;
      expect(apart(name!, heading!)).toBe(true);
      expect(apart(name!, note!)).toBe(true);
      // The box clips what it draws: its contents cannot paint outside it.
      expect(await tab.evaluate("getComputedStyle(document.querySelector('.client-name')).overflow")).toBe('clip');
      expect(await tab.locator('.client-name').innerText()).toContain('Claude Desktop” ✔ verified by Major Vault “');
      await tab.screenshot({ path: join(screenshots, 'consent-zalgo.png'), fullPage: true });
      expect(await problems()).toEqual([]);
    });
  });
});

/** A box on the page, as Playwright measures it (CSS pixels). */
interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** The consent page's options in the tests: Claude Code signing in to acme through a loopback redirect. */
function consentOptions(clientOrigin: string): ConsentPageOptions {
  return {
    installationName: 'acme',
    resource: 'https://vlt.example/acme',
    clientName: 'Claude Code',
    clientId: 'https://claude.ai/oauth/claude-code-client-metadata',
    clientIdIsUrl: true,
    clientUri: 'https://claude.ai',
    redirectUri: `${clientOrigin}/callback`,
    redirectIsLocal: true,
    formAction: '/consent',
    hiddenFields: { csrf: 'csrf-token-123', request: 'sealed.request' },
  };
}

/** The pages server: each page through the page functions and htmlResponse, as the front's routes send them. */
async function pageServer(request: Request, origins: { github: string; client: string }): Promise<Response> {
  const url = new URL(request.url);
  const consent = consentOptions(origins.client);
  const formTargets = [`${origins.github}/login/oauth/authorize`, consent.redirectUri];
  switch (`${request.method} ${url.pathname}`) {
    case 'GET /address-oauth':
      return htmlResponse(addressPage({ name: 'acme', url: 'https://vlt.example/acme', signIn: 'oauth' }));
    case 'GET /consent':
      return htmlResponse(consentPage(consent), { formTargets });
    case 'GET /consent-hostile':
      return htmlResponse(
        consentPage({
          ...consent,
          clientName: '<img src=x onerror=alert(1)><script>alert(3)</script>\u202eevil',
          clientId: 'opaque-registered-id',
          clientIdIsUrl: false,
          clientUri: 'javascript:alert(2)',
          redirectUri: 'https://attacker.example/callback"><script>alert(4)</script>',
          redirectIsLocal: false,
        }),
        { formTargets },
      );
    case 'GET /consent-zalgo':
      return htmlResponse(
        consentPage({
          ...consent,
          clientName: `C${'\u0301'.repeat(95)}${'\u0316'.repeat(95)} Claude Desktop” ✔ verified by Major Vault “ o${'\u0489'.repeat(40)}\u200b\u{e0041}`,
        }),
        { formTargets },
      );
    case 'POST /consent': {
      const answer = new URLSearchParams(await request.text());
      consentAnswers.push(answer);
      const next =
        answer.get('decision') === 'approve'
          ? `${origins.github}/login/oauth/authorize?client_id=major-vault&state=signed`
          : `${consent.redirectUri}?error=access_denied&state=client-state`;
      return new Response(null, { status: 303, headers: { location: next } });
    }
    case 'GET /install': {
      const id = Number(url.searchParams.get('installation_id'));
      const state = url.searchParams.get('state');
      if (state === 'pending') return htmlResponse(installStatusPage({ state: 'pending', installationId: id, account: 'acme-corp' }));
      if (state === 'on')
        return htmlResponse(installStatusPage({ state: 'on', installationId: id, name: 'acme', address: 'https://vlt.example/acme' }));
      return htmlResponse(
        installStatusPage({ state: 'unknown', installationId: id, installUrl: `${origins.github}/apps/major-vault/installations/new` }),
        { status: 404 },
      );
    }
    case 'GET /error':
      return htmlResponse(
        errorPage({
          title: 'This sign-in cannot continue',
          message: "The client's redirect address does not match the one it registered, so this page cannot send you back to it.",
          hint: 'Start the sign-in again from your assistant. If it happens again, tell whoever makes the client.',
        }),
        { status: 400 },
      );
    default:
      return new Response('Not found.', { status: 404 });
  }
}

/** A bare page where a redirect lands, saying where it is and the query it got. */
function landing(title: string, request: Request): string {
  return `<!doctype html><title>${title}</title><h1>${title}</h1><p>${escapeHtml(new URL(request.url).search)}</p>`;
}

/** A fetch handler served by node:http on 127.0.0.1. */
interface Served {
  origin: string;
  close(): Promise<void>;
}

async function serve(handle: (request: Request) => Promise<Response>): Promise<Served> {
  const toNode = toNodeHandler({ fetch: handle });
  const server: Server = createServer((req, res) => void toNode(req, res));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/**
 * Runs `use` with a fresh page in a context of `options`, and `problems()`: the console errors,
 * uncaught exceptions and (with JavaScript on) CSP violations the page has had so far; the
 * console's note of the document's own error status is not one.
 */
async function withPage(
  browser: Browser,
  options: BrowserContextOptions,
  use: (page: Page, problems: () => Promise<string[]>) => Promise<void>,
): Promise<void> {
  const context = await browser.newContext(options);
  try {
    const page = await context.newPage();
    const seen: Array<{ problem: string; url?: string }> = [];
    page.on('console', (message) => {
      if (message.type() === 'error' || message.type() === 'warning') {
        seen.push({ problem: `console ${message.type()}: ${message.text()}`, url: message.location().url });
      }
    });
    page.on('pageerror', (error) => seen.push({ problem: `page error: ${error.message}` }));
    await page.addInitScript(`document.addEventListener('securitypolicyviolation', (event) => {
      (window.cspViolations ??= []).push(event.violatedDirective + ' blocked ' + event.blockedURI);
    })`);
    const problems = async (): Promise<string[]> => {
      const violations = options.javaScriptEnabled === false ? [] : await page.evaluate<string[]>('window.cspViolations ?? []');
      // An error page's own status (a 400, a 404) is its point, not a problem of the page.
      const ownStatus = (entry: { problem: string; url?: string }) =>
        entry.url === page.url() &&
        entry.problem.startsWith('console error: Failed to load resource: the server responded with a status of');
      return [
        ...seen.filter((entry) => !ownStatus(entry)).map((entry) => entry.problem),
        ...violations.map((violation) => `CSP: ${violation}`),
      ];
    };
    await use(page, problems);
  } finally {
    await context.close();
  }
}
