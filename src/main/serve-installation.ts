// The HTTP side every serving composition root shares: the front over an opened installation,
// answering MCP in this process, listening on a port. The roots differ in the host, the
// sign-in and the changes they open the installation with (local.ts, github.ts, instance.ts), not here.
import type { Server } from 'node:http';
import { createFront, listenFront, type Front } from '../front/http-front.ts';
import { isLoopback } from '../front/is-loopback.ts';
import type { PageRoute } from '../front/github-setup-route.ts';
import type { AuthorizationServer } from '../front/oauth/authorization-server.ts';
import type { WebhookRoute } from '../front/webhook/github-webhook.ts';
import type { Installation } from '../instance/installation.ts';
import type { Logger } from '../instance/log.ts';
import type { Tool, Vault } from '../instance/tool.ts';
import type { Access } from '../repo-host/person.ts';
import type { SignIn } from '../repo-host/sign-in.ts';
import { forwardLocally } from './forward.ts';

/** What {@link serveInstallation} serves, and where. */
export interface ServeInstallationOptions {
  name: string;
  /**
   * The installation; or one still opening (its index), which tool calls wait for. Meanwhile
   * `earlyVaults` answers `initialize` and `tools/list` (see forward.ts).
   */
  installation: Installation | Promise<Installation>;
  /** A caller's readable repositories read without the installation (main's readVaults), while it opens. */
  earlyVaults?: (access: Access) => Promise<ReadonlyMap<string, Vault>>;
  /** Told when a request waits for the installation itself (forward.ts `wanted`), e.g. to start opening it. */
  installationWanted?: () => void;
  signIn: SignIn;
  /** The interface to listen on: a loopback address, a name, or `0.0.0.0`/`::` for every interface. */
  hostname: string;
  /** 0 picks a free one. */
  port: number;
  tools: readonly Tool[];
  log: Logger;
  /** A host's webhook endpoint on the same front (GitHub's deliveries). */
  webhook?: WebhookRoute;
  /** The install status page at the GitHub App's Setup URL. */
  installStatus?: PageRoute;
  /**
   * The origin people reach the server at behind a TLS proxy (e.g. `https://vault.acme.example`):
   * its name is accepted in `Host` and `Origin`, and requests on it are answered with addresses on it.
   */
  publicOrigin?: URL;
  /**
   * Sign-in through the front (issue 12), built once the origin the front listens on is known
   * (port 0 picks one): the SignIn that replaces `signIn` (sealed tokens) and the
   * authorization server the front mounts.
   */
  oauth?: (origin: URL) => { signIn: SignIn; authorization: AuthorizationServer };
  /** Wraps the front's handler (e.g. operations/with-operations.ts: health, readiness, metrics, request ids); default: none. */
  wrapFetch?: (fetch: (request: Request) => Promise<Response>) => (request: Request) => Promise<Response>;
}

/** A listening front: the MCP address, the front (to forget cached access), and how to stop serving (the installation stays open). */
export interface ServedInstallation {
  url: URL;
  /** The HTTP server (e.g. to watch its requests). */
  server: Server;
  /** The origin the front listens on, e.g. `http://127.0.0.1:8787`. */
  origin: URL;
  front: Front;
  /** Stops serving; `drainMs` as front/http-front.ts `ListeningFront.close`: how long calls in progress may finish (default 0). */
  close(options?: { drainMs?: number }): Promise<void>;
}

/**
 * Serves `installation` over HTTP at `/<name>` (and the webhook route, when given): each MCP
 * request answered in this process by a server built for its caller. `Host` may name the
 * loopback names and `hostname`; any name when bound to every interface.
 */
export async function serveInstallation(options: ServeInstallationOptions): Promise<ServedInstallation> {
  const { name, installation, signIn, hostname, port, tools, log } = options;
  const forwarder = forwardLocally({
    name,
    installation,
    tools,
    log,
    ...(options.earlyVaults ? { earlyVaults: options.earlyVaults } : {}),
    ...(options.installationWanted ? { wanted: options.installationWanted } : {}),
  });
  try {
    const build = (origin: URL | null): Front => {
      const oauth = origin !== null && options.oauth ? options.oauth(origin) : null;
      return createFront({
        name,
        signIn: oauth?.signIn ?? signIn,
        catalogue: forwarder.catalogue,
        forward: forwarder.forward,
        log,
        allowedHostnames: allowedHostnamesFor(hostname, options.publicOrigin),
        ...(options.webhook ? { webhook: options.webhook } : {}),
        ...(options.installStatus ? { installStatus: options.installStatus } : {}),
        ...(oauth ? { authorization: oauth.authorization } : {}),
        ...(options.publicOrigin ? { publicOrigin: options.publicOrigin } : {}),
      });
    };
    // With sign-in through the front, the front needs its own origin, known once it listens:
    // it is built then, before any request is read (the listen callback runs first).
    let front: Front | null = options.oauth ? null : build(null);
    const fetch = (request: Request) => (front ? front.fetch(request) : Promise.resolve(new Response('Starting.', { status: 503 })));
    const listening = await listenFront(
      {
        fetch: options.wrapFetch ? options.wrapFetch(fetch) : fetch,
        forgetAccess: () => front?.forgetAccess(),
        maxBodyBytes: (path) => front?.maxBodyBytes(path),
        close: () => front?.close() ?? Promise.resolve(),
      },
      { port, hostname, log },
    );
    front ??= build(listening.origin);
    const built = front;
    return {
      url: new URL(`/${name}`, listening.origin),
      server: listening.server,
      origin: listening.origin,
      front: built,
      async close(closeOptions) {
        await listening.close(closeOptions);
        await forwarder.close();
      },
    };
  } catch (error) {
    await forwarder.close();
    throw error;
  }
}

/**
 * The names a front listening on `hostname` accepts in `Host` and `Origin` besides loopback:
 * `hostname` itself (unless loopback) and the public origin's host; any name when it listens on
 * every interface (`0.0.0.0`, `::`).
 */
export function allowedHostnamesFor(hostname: string, publicOrigin: URL | undefined): readonly string[] | 'any' {
  if (hostname === '0.0.0.0' || hostname === '::') return 'any';
  return [
    ...(isLoopback(hostname) ? [] : [hostnameForHeader(hostname)]),
    ...(publicOrigin ? [hostnameForHeader(publicOrigin.hostname)] : []),
  ];
}

function hostnameForHeader(hostname: string): string {
  return hostname.includes(':') && !hostname.startsWith('[') ? `[${hostname}]` : hostname;
}
