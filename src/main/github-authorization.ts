// The front's OAuth authorization server with GitHub upstream (issue 12), as serve-github and
// the hosted front build it: one issuer, the Store's short records, the App's OAuth client,
// and Client ID Metadata Documents fetched with their guards.
import { createAuthorizationServer, type AuthorizationServer, type ResourceOwner } from '../front/oauth/authorization-server.ts';
import { clientMetadataDocuments } from '../front/oauth/client-id-metadata-document.ts';
import type { Logger } from '../instance/log.ts';
import type { ResolvedGitHubAppConfig } from '../repo-host/github/github-app-config.ts';
import { GitHubUserAuthorization } from '../repo-host/github/github-user-authorization.ts';
import type { Store } from '../store/store.ts';
import type { TokenSealer } from '../tokens/token-sealer.ts';
import type { OAuthSettings } from './oauth-settings.ts';

/** What {@link githubAuthorizationServer} is built from. */
export interface GitHubAuthorizationOptions {
  /** The front's public origin (else where it listens): the issuer. */
  issuer: URL;
  sealer: TokenSealer;
  store: Store;
  /** The App, whose OAuth client signs people in at GitHub. */
  app: Pick<ResolvedGitHubAppConfig, 'clientId' | 'clientSecret' | 'apiUrl' | 'requestTimeoutMs'>;
  oauth: OAuthSettings;
  /** The installation whose MCP address `resource` is exactly, when it is served; else null. */
  resourceFor(resource: string): ResourceOwner | null | Promise<ResourceOwner | null>;
  log: Logger;
}

/** The authorization server (front/oauth/authorization-server.ts) with GitHub's web flow upstream. */
export function githubAuthorizationServer(options: GitHubAuthorizationOptions): AuthorizationServer {
  const { app, oauth, log } = options;
  const allowLoopback = oauth.allowLoopbackClientMetadata ?? false;
  return createAuthorizationServer({
    issuer: options.issuer,
    sealer: options.sealer,
    store: options.store,
    upstream: new GitHubUserAuthorization({
      clientId: app.clientId,
      clientSecret: app.clientSecret,
      apiUrl: app.apiUrl,
      requestTimeoutMs: app.requestTimeoutMs,
    }),
    resourceFor: options.resourceFor,
    clientDocuments: clientMetadataDocuments({
      allowLoopback,
      ...(oauth.clientMetadataCa !== undefined ? { ca: oauth.clientMetadataCa } : {}),
      log,
    }),
    allowLoopbackClientMetadata: allowLoopback,
    log,
  });
}
