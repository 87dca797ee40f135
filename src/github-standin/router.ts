// Matches a REST request to its route by method and GitHub's path template (`/repos/{owner}/{repo}`).
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { StandinCore } from './core.ts';
import type { Caller } from './state.ts';

/** What a route handler receives. `path` is without the `/api/v3` prefix. */
export interface RouteContext {
  core: StandinCore;
  req: IncomingMessage;
  res: ServerResponse;
  params: Record<string, string>;
  query: URLSearchParams;
  caller: Caller;
  /** The parsed JSON (or form) body; undefined when it does not parse. */
  body: () => Promise<Record<string, unknown> | undefined>;
}

/** One REST operation: GitHub's method and path template, and its handler. */
export interface Route {
  method: string;
  path: string;
  handle: (ctx: RouteContext) => Promise<void> | void;
}

/** A compiled route: `{name}` matches one segment, `{name+}` the rest of the path. */
interface CompiledRoute extends Route {
  pattern: RegExp;
  names: string[];
}

/** Routes matched in order; the first whose method and template match wins. */
export class Router {
  private readonly routes: CompiledRoute[];

  constructor(routes: Route[]) {
    this.routes = routes.map((route) => {
      const names: string[] = [];
      const source = route.path.replace(/[.*?^$()|[\]\\]/g, '\\$&').replace(/\{(\w+)(\+?)\}/g, (_all, name: string, rest: string) => {
        names.push(name);
        return rest ? '(.+)' : '([^/]+)';
      });
      return { ...route, pattern: new RegExp(`^${source}/?$`), names };
    });
  }

  /** The route and decoded parameters for a request, or undefined (GitHub: 404 Not Found). */
  match(method: string, path: string): { route: Route; params: Record<string, string> } | undefined {
    for (const route of this.routes) {
      if (route.method !== method) continue;
      const found = route.pattern.exec(path);
      if (!found) continue;
      const params: Record<string, string> = {};
      route.names.forEach((name, index) => {
        params[name] = decodeURIComponent(found[index + 1] ?? '');
      });
      return { route, params };
    }
    return undefined;
  }
}

/**
 * GitHub's pagination: `per_page` (default 30, at most 100) and `page` (from 1); sets the
 * `Link` header (`next`, `last`, `first`, `prev`) and returns the page's items.
 */
export function paginate<T>(ctx: RouteContext, items: T[]): T[] {
  const perPage = Math.min(100, Math.max(1, Number(ctx.query.get('per_page') ?? 30) || 30));
  const page = Math.max(1, Number(ctx.query.get('page') ?? 1) || 1);
  const last = Math.max(1, Math.ceil(items.length / perPage));
  const url = new URL(`${ctx.core.urls.origin}${ctx.req.url ?? '/'}`);
  const link = (n: number, rel: string) => {
    url.searchParams.set('per_page', String(perPage));
    url.searchParams.set('page', String(n));
    return `<${url.toString()}>; rel="${rel}"`;
  };
  const links: string[] = [];
  if (page > 1) links.push(link(page - 1, 'prev'));
  if (page < last) links.push(link(page + 1, 'next'), link(last, 'last'));
  if (page > 1) links.push(link(1, 'first'));
  if (links.length > 0) ctx.res.setHeader('link', links.join(', '));
  return items.slice((page - 1) * perPage, page * perPage);
}
