// Whether a hostname names this computer: for the loopback checks of the front, its pages and
// the composition roots, so all of them agree on what "this computer" is.

/**
 * Whether `hostname` (a URL's `hostname`: IPv6 in brackets, or bare as a listen address)
 * names this computer's loopback interface: `localhost`, `127.0.0.0/8`, or `::1`
 * (RFC 8252 §7.3 calls these the loopback redirect hosts).
 */
export function isLoopback(hostname: string): boolean {
  return hostname === 'localhost' || hostname === '[::1]' || hostname === '::1' || /^127(\.\d{1,3}){3}$/.test(hostname);
}
