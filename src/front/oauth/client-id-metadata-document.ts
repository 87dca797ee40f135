// STUB (replaced by the cimd branch): Client ID Metadata Documents, fetched by URL.
import { parseClientMetadata, type ClientMetadata } from './client-metadata.ts';
import { OAuthError } from './oauth-error.ts';

/** Fetches a client's metadata document by its client id (a URL). */
export interface ClientMetadataDocuments {
  fetch(clientId: string): Promise<ClientMetadata & { client_id: string }>;
}

/** Whether `clientId` is a metadata document URL (https, with a path). */
export function isClientIdUrl(clientId: string): boolean {
  try {
    const url = new URL(clientId);
    return (url.protocol === 'https:' || url.protocol === 'http:') && url.pathname !== '/';
  } catch {
    return false;
  }
}

/** The fetcher (no guards in this stub). */
export function clientMetadataDocuments(
  _options: { allowLoopback?: boolean; timeoutMs?: number; maxBytes?: number; maxEntries?: number; defaultTtlMs?: number } = {},
): ClientMetadataDocuments {
  return {
    async fetch(clientId) {
      const answer = await fetch(clientId);
      const metadata = parseClientMetadata(await answer.json(), 'document');
      if (metadata.client_id !== clientId) throw new OAuthError('invalid_client', 'The document names another client_id.');
      return { ...metadata, client_id: clientId };
    },
  };
}
