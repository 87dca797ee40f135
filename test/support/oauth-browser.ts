// A scripted browser for OAuth sign-ins in tests: it opens an authorization URL, follows
// redirects, fills and submits the forms it meets (the consent page, the GitHub stand-in's
// sign-in) and stops at the client's loopback callback, as a person in a real browser would.
import { defaultTreeAdapter, parse, type DefaultTreeAdapterTypes } from 'parse5';
import { Cookie, CookieJar } from 'tough-cookie';

type Element = DefaultTreeAdapterTypes.Element;
type Node = DefaultTreeAdapterTypes.Node;

/**
 * What the person types and presses, by control name: a key naming a submit button picks that
 * button when its value matches (`decision: 'approve'`); any other key fills the field of that
 * name (`login: 'maya'`), hidden ones included, so a test can also tamper with a form.
 */
export type FormAnswers = Record<string, string>;

/** Where a sign-in stops: a URL (same origin and path, any query) or a test of each URL. */
export type StopAt = string | URL | ((url: URL) => boolean);

/** One request the browser made, for assertions and for the failure message. */
export interface BrowserVisit {
  method: 'GET' | 'POST';
  url: string;
  status: number;
}

/** How a sign-in ended. */
export interface SignInResult {
  /** The URL the browser stopped at, usually `redirect_uri?code=…&state=…&iss=…`. */
  callback: URL;
  /** With `deliver`, what the client's callback server answered when the browser opened it. */
  delivery?: { status: number; text: string };
}

/** Options of one sign-in. */
export interface SignInOptions {
  /** Answers for the forms of this sign-in (default: the browser's own). */
  answers?: FormAnswers;
  /** Where to stop (default: the `redirect_uri` of the authorization URL). */
  stopAt?: StopAt;
  /** Open the stop URL too, so a client listening there (mcp-remote, the Inspector) receives it. */
  deliver?: boolean;
}

/**
 * A page or response the browser could not get past: an error status, a page without a form
 * to submit, a form that needs a value nobody gave. `status` and `text` are the last response's.
 */
export class BrowserError extends Error {
  readonly status: number | undefined;
  readonly text: string;
  readonly visits: BrowserVisit[];

  constructor(message: string, status: number | undefined, text: string, visits: BrowserVisit[]) {
    super(`${message}\n  visited: ${visits.map((v) => `${v.method} ${v.url} → ${v.status}`).join('\n           ') || 'nothing'}`);
    this.status = status;
    this.text = text;
    this.visits = visits;
    this.name = 'BrowserError';
  }
}

/** A request about to be sent: the navigation it belongs to decides its SameSite context. */
interface Navigation {
  /** The page that started it (a form's page), or `undefined` when typed in (opened by a client). */
  initiator: URL | undefined;
  /** Every URL the navigation went through so far, redirects included. */
  chain: URL[];
}

const REDIRECTS = new Set([301, 302, 303, 307, 308]);
const TEXT_LIMIT = 2000;

/**
 * One browser profile: a cookie jar (RFC 6265, ports share cookies as browsers do, `Secure`
 * cookies kept on loopback, SameSite Lax by default) and the forms' answers. Make one per person; two instances are
 * two browsers, for the "approved in one browser, completed in another" attack.
 *
 * Requests carry what a browser's navigations carry (`Accept: text/html`, `Origin` and
 * `Referer` on form posts, `Sec-Fetch-Site/Mode/Dest`), and SameSite is applied per
 * navigation: Strict cookies go only on same-site navigations, Lax ones also on cross-site
 * GETs (RFC 6265bis §5.2). A site is the scheme and host, so to see production's cross-site
 * hop to GitHub and back, serve the stand-in on `localhost` and the front on `127.0.0.1`.
 */
export class OAuthBrowser {
  readonly cookies = new CookieJar(undefined, { allowSecureOnLocal: true });
  readonly visits: BrowserVisit[] = [];

  private readonly answers: FormAnswers;
  private readonly maxSteps: number;

  constructor(answers: FormAnswers = {}, maxSteps = 25) {
    this.answers = answers;
    this.maxSteps = maxSteps;
  }

  /**
   * Opens `authorizationUrl` as a client would (a typed-in navigation), then follows redirects
   * and submits forms until a URL matches `stopAt`. Returns that URL, opened only with
   * `deliver`. Throws {@link BrowserError} on a 4xx/5xx page, a page with no form to submit,
   * a `required` field without an answer, or more than `maxSteps` requests.
   */
  async signIn(authorizationUrl: string | URL, options: SignInOptions = {}): Promise<SignInResult> {
    const start = new URL(authorizationUrl);
    const stop = stopTest(options.stopAt ?? redirectUriOf(start));
    const answers = options.answers ?? this.answers;
    let request: { url: URL; method: 'GET' | 'POST'; body?: URLSearchParams } = { url: start, method: 'GET' };
    let navigation: Navigation = { initiator: undefined, chain: [] };
    for (let step = 0; step < this.maxSteps; step++) {
      if (stop(request.url)) {
        if (!options.deliver) return { callback: request.url };
        const response = await this.send(request.url, 'GET', undefined, navigation);
        return { callback: request.url, delivery: { status: response.status, text: await response.text() } };
      }
      const response = await this.send(request.url, request.method, request.body, navigation);
      const location = response.headers.get('location');
      if (REDIRECTS.has(response.status) && location) {
        await response.body?.cancel();
        const keepsMethod = response.status === 307 || response.status === 308;
        navigation = { ...navigation, chain: [...navigation.chain, request.url] };
        request = keepsMethod
          ? { ...request, url: new URL(location, request.url) }
          : { url: new URL(location, request.url), method: 'GET' };
        continue;
      }
      const text = await response.text();
      if (response.status >= 400)
        throw this.fail(`${request.method} ${request.url.href} answered ${response.status}`, response.status, text);
      const submission = formSubmission(text, request.url, answers, (message) => this.fail(message, response.status, text));
      navigation = { initiator: request.url, chain: [] };
      request = submission;
    }
    throw this.fail(`no stop after ${this.maxSteps} requests`, undefined, '');
  }

  /** One request with the jar's cookies for its SameSite context; stores the cookies it sets. */
  private async send(url: URL, method: 'GET' | 'POST', body: URLSearchParams | undefined, navigation: Navigation): Promise<Response> {
    const crossSite = [navigation.initiator, ...navigation.chain].some((from) => from !== undefined && site(from) !== site(url));
    const sameSiteContext = !crossSite ? 'strict' : method === 'GET' ? 'lax' : 'none';
    const headers = new Headers({
      accept: 'text/html,application/xhtml+xml;q=0.9,*/*;q=0.8',
      'user-agent': 'major-vault-oauth-browser/1',
      'sec-fetch-site': fetchSite(url, navigation),
      'sec-fetch-mode': 'navigate',
      'sec-fetch-dest': 'document',
    });
    const cookie = await this.cookies.getCookieString(url, { sameSiteContext });
    if (cookie) headers.set('cookie', cookie);
    if (navigation.initiator) headers.set('referer', navigation.initiator.href);
    if (method === 'POST') {
      headers.set('origin', navigation.initiator?.origin ?? 'null');
      headers.set('content-type', 'application/x-www-form-urlencoded');
    }
    const response = await fetch(url, { method, headers, body, redirect: 'manual' });
    this.visits.push({ method, url: url.href, status: response.status });
    for (const line of response.headers.getSetCookie()) {
      const cookie = Cookie.parse(line);
      if (!cookie) continue;
      // Browsers treat a cookie without SameSite as Lax (RFC 6265bis §5.6.7); tough-cookie as None.
      cookie.sameSite ??= 'lax';
      await this.cookies.setCookie(cookie, url, { ignoreError: true });
    }
    return response;
  }

  private fail(message: string, status: number | undefined, text: string): BrowserError {
    return new BrowserError(message, status, pageText(text), [...this.visits]);
  }
}

/** The `redirect_uri` an authorization URL names, where a sign-in ends by default. */
export function redirectUriOf(authorizationUrl: URL): URL {
  const redirectUri = authorizationUrl.searchParams.get('redirect_uri');
  if (!redirectUri) throw new Error(`${authorizationUrl.href} names no redirect_uri: pass stopAt`);
  return new URL(redirectUri);
}

function stopTest(stopAt: StopAt): (url: URL) => boolean {
  if (typeof stopAt === 'function') return stopAt;
  const target = new URL(stopAt);
  return (url) => url.origin === target.origin && url.pathname === target.pathname;
}

/** The site of a URL as far as loopback tests go: scheme and host, without the port. */
function site(url: URL): string {
  return `${url.protocol}//${url.hostname}`;
}

/** `Sec-Fetch-Site` of a navigation request: the most distant relation along its redirect chain. */
function fetchSite(url: URL, navigation: Navigation): string {
  const froms = [navigation.initiator, ...navigation.chain].filter((from): from is URL => from !== undefined);
  if (navigation.initiator === undefined && froms.length === 0) return 'none';
  if (froms.some((from) => site(from) !== site(url))) return 'cross-site';
  if (froms.some((from) => from.origin !== url.origin)) return 'same-site';
  return 'same-origin';
}

/** The text of a page, for error messages: tags and extra space removed, cut to a length. */
function pageText(html: string): string {
  const text = html.includes('<') ? textOf(parse(html)) : html;
  return text.replace(/\s+/g, ' ').trim().slice(0, TEXT_LIMIT);
}

function textOf(node: Node): string {
  if (defaultTreeAdapter.isTextNode(node)) return defaultTreeAdapter.getTextNodeContent(node);
  if (!('childNodes' in node)) return '';
  if (defaultTreeAdapter.isElementNode(node) && ['script', 'style'].includes(node.tagName)) return '';
  return node.childNodes.map(textOf).join(' ');
}

function attr(element: Element, name: string): string | undefined {
  return element.attrs.find((a) => a.name === name)?.value;
}

function elements(node: Node): Element[] {
  const found: Element[] = [];
  const walk = (current: Node): void => {
    if (defaultTreeAdapter.isElementNode(current)) found.push(current);
    if ('childNodes' in current) current.childNodes.forEach(walk);
  };
  walk(node);
  return found;
}

/** The form an element belongs to: its `form` attribute's target, else its nearest form ancestor. */
function ownerForm(element: Element, forms: Element[]): Element | undefined {
  const id = attr(element, 'form');
  if (id !== undefined) return forms.find((form) => attr(form, 'id') === id);
  let parent = element.parentNode;
  while (parent && defaultTreeAdapter.isElementNode(parent)) {
    if (parent.tagName === 'form') return parent;
    parent = parent.parentNode;
  }
  return undefined;
}

function isSubmitButton(element: Element): boolean {
  const type = (attr(element, 'type') ?? '').toLowerCase();
  return (element.tagName === 'button' && (type === '' || type === 'submit')) || (element.tagName === 'input' && type === 'submit');
}

const CONTROLS = new Set(['input', 'button', 'select', 'textarea']);

/**
 * The request that submitting a form of `html` makes (HTML "form submission algorithm",
 * `application/x-www-form-urlencoded` only): the form whose controls the answers name best
 * (a button only when its value matches), else the page's only form; the button the answers
 * name, else the form's first submit button; every enabled control's value, answers first.
 */
function formSubmission(
  html: string,
  pageUrl: URL,
  answers: FormAnswers,
  fail: (message: string) => Error,
): { url: URL; method: 'GET' | 'POST'; body?: URLSearchParams } {
  const all = elements(parse(html));
  const forms = all.filter((element) => element.tagName === 'form');
  const controlsOf = (form: Element): Element[] =>
    all.filter((element) => CONTROLS.has(element.tagName) && attr(element, 'disabled') === undefined && ownerForm(element, forms) === form);
  const answered = (control: Element): boolean => {
    const name = attr(control, 'name');
    if (name === undefined || !(name in answers)) return false;
    return !isSubmitButton(control) || (attr(control, 'value') ?? '') === answers[name];
  };
  const scored = forms.map((form) => ({ form, score: controlsOf(form).filter(answered).length }));
  const best = scored.reduce<{ form: Element; score: number } | undefined>(
    (top, next) => (next.score > (top?.score ?? 0) ? next : top),
    undefined,
  );
  const form = best?.form ?? (forms.length === 1 ? forms[0] : undefined);
  if (!form) {
    const described = forms.map(
      (f) =>
        `${attr(f, 'action') ?? '(this page)'} [${controlsOf(f)
          .map((c) => attr(c, 'name') ?? c.tagName)
          .join(', ')}]`,
    );
    throw fail(
      `${pageUrl.href} has ${forms.length} forms and the answers (${Object.keys(answers).join(', ') || 'none'}) match none: ${described.join('; ')}`,
    );
  }
  const controls = controlsOf(form);
  const buttons = controls.filter(isSubmitButton);
  const submitter = buttons.find(answered) ?? buttons[0];
  const data = new URLSearchParams();
  for (const control of controls) {
    const name = attr(control, 'name');
    if (!name) continue;
    if (isSubmitButton(control)) {
      if (control === submitter) data.append(name, attr(control, 'value') ?? '');
      continue;
    }
    const type = (attr(control, 'type') ?? 'text').toLowerCase();
    if (control.tagName === 'button' || ['reset', 'image', 'file'].includes(type)) continue;
    const value = controlValue(control, type, answers[name]);
    if (value === undefined) continue;
    if (value === '' && attr(control, 'required') !== undefined) {
      throw fail(`the form of ${pageUrl.href} needs field '${name}': pass it in the answers`);
    }
    data.append(name, value);
  }
  const method = (attr(form, 'method') ?? 'get').toLowerCase() === 'post' ? 'POST' : 'GET';
  const enctype = attr(form, 'enctype');
  if (method === 'POST' && enctype !== undefined && enctype.toLowerCase() !== 'application/x-www-form-urlencoded') {
    throw fail(`the form of ${pageUrl.href} posts ${enctype}, which this browser does not send`);
  }
  const action = new URL(attr(form, 'action') || pageUrl.href, pageUrl);
  action.hash = '';
  if (method === 'GET') {
    action.search = data.toString();
    return { url: action, method };
  }
  return { url: action, method, body: data };
}

/** The value a control submits, `undefined` when it submits nothing (an unchecked box). */
function controlValue(control: Element, type: string, answer: string | undefined): string | undefined {
  if (control.tagName === 'textarea') return answer ?? textOf(control);
  if (control.tagName === 'select') {
    if (answer !== undefined) return answer;
    const options = elements(control).filter((element) => element.tagName === 'option');
    const chosen = options.find((option) => attr(option, 'selected') !== undefined) ?? options[0];
    return chosen ? (attr(chosen, 'value') ?? textOf(chosen).trim()) : undefined;
  }
  if (type === 'checkbox' || type === 'radio') {
    const value = attr(control, 'value') ?? 'on';
    const checked = answer !== undefined ? answer === value : attr(control, 'checked') !== undefined;
    return checked ? value : undefined;
  }
  return answer ?? attr(control, 'value') ?? '';
}
