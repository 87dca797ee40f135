// Repository access bound to one caller (DESIGN.md "Ports and adapters", rules of the seam;
// CONVENTIONS.md 12): what a tool's handler gets in place of the installation's own host.
import type { Change, CommitResult, RepoHost } from './repo-host.ts';

/** Told after each commit that landed through a bound host: the repository, the change and the new commit (40 hex digits). */
export type OnCommitted = (repo: string, change: Change, commit: string) => void;

/**
 * Members of an adapter that no caller may reach through a bound host, even when the adapter
 * object has them: the sign-in side (sign-in.ts), which the local adapter answers beside its
 * repositories, and starting, stopping and refreshing the adapter (its composition root's and
 * the webhooks' business: the GitHub adapter's `start`, `refresh`, `reloadRepos`).
 */
const notForCallers: ReadonlySet<string> = new Set([
  'authenticate',
  'requiresToken',
  'close',
  'start',
  'refresh',
  'reloadRepos',
  'forgetAccess',
]);

/**
 * `host` as one caller uses it: every repository operation is the host's own, except that
 * `commit` sends `credential` along with the change (the hosted adapter writes with it, so
 * upstream checks the caller's rights; a credential a tool put in the change is replaced)
 * and, once the commit has landed, tells `onCommitted`. The sign-in side and `close` are not
 * there (`undefined`, and `in` says false), and no data member of the adapter is either.
 *
 * A Proxy forwards the other operations by name, so an operation added to the RepoHost port
 * reaches callers with no edit here. Each call of this function makes a new object: state kept
 * per installation (write queues, listings) is keyed by {@link sharedStateKey}.
 */
const unbound = new WeakMap<object, RepoHost>();

/**
 * The object to key per-installation state by (write queues, caches of listings): the
 * installation's own host for a host bound to a caller, `host` itself otherwise. Writes of
 * different callers to one repository then wait for each other in this process, as before the
 * host was bound per caller, instead of meeting only at the compare-and-swap.
 */
export function sharedStateKey(host: RepoHost): object {
  return unbound.get(host) ?? host;
}

export function bindToCaller(host: RepoHost, credential: string | null, onCommitted?: OnCommitted): RepoHost {
  const commit: RepoHost['commit'] = async (repo, change, ...rest): Promise<CommitResult> => {
    const result = await host.commit(repo, { ...change, credential }, ...rest);
    if (result.ok) onCommitted?.(repo, change, result.commit);
    return result;
  };
  const forwarded = new Map<string, unknown>([['commit', commit]]);
  const operation = (key: string | symbol): unknown => {
    if (typeof key !== 'string' || notForCallers.has(key)) return undefined;
    if (forwarded.has(key)) return forwarded.get(key);
    const value: unknown = Reflect.get(host, key);
    if (typeof value !== 'function') return undefined;
    const bound: unknown = value.bind(host);
    forwarded.set(key, bound);
    return bound;
  };
  const bound = new Proxy(Object.create(null) as RepoHost, {
    get: (_target, key) => operation(key),
    has: (_target, key) => operation(key) !== undefined,
    set: () => false,
    defineProperty: () => false,
    deleteProperty: () => false,
  });
  unbound.set(bound, unbound.get(host) ?? host);
  return bound;
}
