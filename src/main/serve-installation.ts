// The HTTP side every serving composition root shares: the front over an opened installation,
// answering MCP in this process, listening on a port. The roots differ in the host, the
// sign-in and the changes they open the installation with (local.ts, github.ts), not here.
import { createFront, listenFront, loopbackHostnames, type Front } from '../front/http-front.ts';
import type { PageRoute } from '../front/github-setup-route.ts';
import type { WebhookRoute } from '../front/webhook/github-webhook.ts';
import type { Installation } from '../instance/installation.ts';
import type { Logger } from '../instance/log.ts';
import type { Tool } from '../instance/tool.ts';
import type { SignIn } from '../repo-host/sign-in.ts';
import { forwardLocally } from './forward.ts';

/** What {@link serveInstallation} serves, and where. */
export interface ServeInstallationOptions {
  name: string;
  installation: Installation;
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
  /** More names `Host` and `Origin` may carry, e.g. the public name a TLS proxy forwards with. */
  publicHostnames?: readonly string[];
}

/** A listening front: the MCP address, the front (to forget cached access), and how to stop serving (the installation stays open). */
export interface ServedInstallation {
  url: URL;
  /** The origin the front listens on, e.g. `http://127.0.0.1:8787`. */
  origin: URL;
  front: Front;
  close(): Promise<void>;
}

/**
 * Serves `installation` over HTTP at `/<name>` (and the webhook route, when given): each MCP
 * request answered in this process by a server built for its caller. `Host` may name the
 * loopback names and `hostname`; any name when bound to every interface.
 */
export async function serveInstallation(options: ServeInstallationOptions): Promise<ServedInstallation> {
  const { name, installation, signIn, hostname, port, tools, log } = options;
  const forwarder = forwardLocally({ installation, tools, log });
  try {
    const wildcard = hostname === '0.0.0.0' || hostname === '::';
    const front = createFront({
      name,
      signIn,
      catalogue: forwarder.catalogue,
      forward: forwarder.forward,
      log,
      allowedHostnames: wildcard
        ? 'any'
        : [...(isLoopback(hostname) ? [] : [hostnameForHeader(hostname)]), ...(options.publicHostnames ?? []).map(hostnameForHeader)],
      ...(options.webhook ? { webhook: options.webhook } : {}),
      ...(options.installStatus ? { installStatus: options.installStatus } : {}),
    });
    const listening = await listenFront(front, { port, hostname, log });
    return {
      url: new URL(`/${name}`, listening.origin),
      origin: listening.origin,
      front,
      async close() {
        await listening.close();
        await forwarder.close();
      },
    };
  } catch (error) {
    await forwarder.close();
    throw error;
  }
}

/** Whether `hostname` names this computer's loopback interface. */
export function isLoopback(hostname: string): boolean {
  return loopbackHostnames.includes(hostname) || hostname === '::1' || /^127(\.\d{1,3}){3}$/.test(hostname);
}

function hostnameForHeader(hostname: string): string {
  return hostname.includes(':') && !hostname.startsWith('[') ? `[${hostname}]` : hostname;
}
