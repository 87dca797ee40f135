// The public address of a hosted process (`--public-url`): the origin people and GitHub reach
// it at behind a TLS proxy. serve-github, the front and the instance read it the same way.

/**
 * The origin of `publicUrl` (path, query and fragment dropped), e.g. `https://vault.acme.example`.
 * Throws an Error with a sentence for the operator when it is not an http(s) URL.
 */
export function publicOriginOf(publicUrl: string): URL {
  let url: URL;
  try {
    url = new URL(publicUrl);
  } catch {
    throw new Error(`The public address ${JSON.stringify(publicUrl)} is not a URL; give one such as https://vault.acme.example.`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    throw new Error(`The public address ${JSON.stringify(publicUrl)} is not an http(s) URL; give one such as https://vault.acme.example.`);
  }
  return new URL(url.origin);
}
