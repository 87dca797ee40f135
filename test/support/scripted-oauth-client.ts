// The MCP SDK's own client signing in through OAuth in a test: an in-memory OAuthClientProvider
// whose redirect is a scripted browser (./oauth-browser.ts), and the connect–finishAuth–reconnect
// dance the SDK expects of an application.
import { randomBytes } from 'node:crypto';
import {
  Client,
  StreamableHTTPClientTransport,
  UnauthorizedError,
  type OAuthClientMetadata,
  type OAuthClientProvider,
  type OAuthDiscoveryState,
  type StoredOAuthClientInformation,
  type StoredOAuthTokens,
} from '@modelcontextprotocol/client';
import { OAuthBrowser } from './oauth-browser.ts';

/** How the provider describes and identifies itself. */
export interface ScriptedOAuthClientOptions {
  /** The browser that plays the person (its answers: the login and the consent decision). */
  browser: OAuthBrowser;
  /**
   * The loopback redirect URI. Nothing needs to listen there: the browser stops at it and the
   * test hands the URL to `finishAuth`. Default `http://127.0.0.1:33418/oauth/callback`.
   */
  redirectUrl?: string;
  /**
   * A Client ID Metadata Document URL (HTTPS, with a path; SEP-991). Used instead of dynamic
   * registration when the authorization server says `client_id_metadata_document_supported`.
   */
  clientMetadataUrl?: string;
  /** `client_name` sent at registration (default `Major Vault e2e`). */
  clientName?: string;
}

/**
 * An `OAuthClientProvider` kept in memory, as a desktop app keeps one on disk. It stores the
 * client registration, tokens, PKCE verifier and discovery state (the SDK checks on the callback
 * leg that the code is redeemed at the issuer it was asked of, SEP-2352, so discovery state must
 * survive the redirect), and its `redirectToAuthorization` runs the browser, recording where it
 * stopped in {@link lastCallback}.
 */
export class ScriptedOAuthClient implements OAuthClientProvider {
  readonly clientMetadataUrl: string | undefined;
  /** Every authorization URL the SDK sent the person to, in order. */
  readonly authorizationUrls: URL[] = [];
  /** Where the browser stopped last (`redirect_uri?code=…&state=…&iss=…`). */
  lastCallback: URL | undefined;
  private information: StoredOAuthClientInformation | undefined;
  private stored: StoredOAuthTokens | undefined;
  private verifier: string | undefined;
  private discovery: OAuthDiscoveryState | undefined;
  private readonly redirect: string;

  private readonly options: ScriptedOAuthClientOptions;

  constructor(options: ScriptedOAuthClientOptions) {
    this.options = options;
    this.redirect = options.redirectUrl ?? 'http://127.0.0.1:33418/oauth/callback';
    this.clientMetadataUrl = options.clientMetadataUrl;
  }

  get redirectUrl(): string {
    return this.redirect;
  }

  get clientMetadata(): OAuthClientMetadata {
    return {
      redirect_uris: [this.redirect],
      token_endpoint_auth_method: 'none',
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      client_name: this.options.clientName ?? 'Major Vault e2e',
    };
  }

  state(): string {
    return randomBytes(16).toString('base64url');
  }

  clientInformation(): StoredOAuthClientInformation | undefined {
    return this.information;
  }

  saveClientInformation(information: StoredOAuthClientInformation): void {
    this.information = information;
  }

  tokens(): StoredOAuthTokens | undefined {
    return this.stored;
  }

  saveTokens(tokens: StoredOAuthTokens): void {
    this.stored = tokens;
  }

  /** Replaces the stored tokens, e.g. to present an expired or tampered access token. */
  setTokens(tokens: StoredOAuthTokens | undefined): void {
    this.stored = tokens;
  }

  saveCodeVerifier(verifier: string): void {
    this.verifier = verifier;
  }

  codeVerifier(): string {
    if (this.verifier === undefined) throw new Error('no PKCE verifier saved: no sign-in was started');
    return this.verifier;
  }

  saveDiscoveryState(state: OAuthDiscoveryState): void {
    this.discovery = state;
  }

  discoveryState(): OAuthDiscoveryState | undefined {
    return this.discovery;
  }

  invalidateCredentials(scope: 'all' | 'client' | 'tokens' | 'verifier' | 'discovery'): void {
    if (scope === 'all' || scope === 'client') this.information = undefined;
    if (scope === 'all' || scope === 'tokens') this.stored = undefined;
    if (scope === 'all' || scope === 'verifier') this.verifier = undefined;
    if (scope === 'all' || scope === 'discovery') this.discovery = undefined;
  }

  async redirectToAuthorization(authorizationUrl: URL): Promise<void> {
    this.authorizationUrls.push(authorizationUrl);
    this.lastCallback = (await this.options.browser.signIn(authorizationUrl)).callback;
  }
}

/**
 * Connects `client` to `serverUrl`, signing in first when the server answers 401: the SDK
 * discovers, registers (or uses the CIMD URL), sends the browser through consent and sign-in,
 * then `finishAuth` redeems the code (with `iss`, RFC 9207) and a new transport connects with
 * the token. Throws the SDK's error when the callback carries `error=…` or the exchange fails.
 */
export async function connectWithSignIn(
  client: Client,
  serverUrl: URL,
  provider: ScriptedOAuthClient,
): Promise<StreamableHTTPClientTransport> {
  const first = new StreamableHTTPClientTransport(serverUrl, { authProvider: provider });
  try {
    await client.connect(first);
    return first;
  } catch (error) {
    if (!(error instanceof UnauthorizedError) || !provider.lastCallback) throw error;
  }
  await first.finishAuth(provider.lastCallback.searchParams);
  await first.close();
  const second = new StreamableHTTPClientTransport(serverUrl, { authProvider: provider });
  await client.connect(second);
  return second;
}
