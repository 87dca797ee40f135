// The Git blob id, for the adapters' Git code: defined once beside the port (repo-host/blob-id.ts).
export { blobId, type ObjectFormat } from '../blob-id.ts';
