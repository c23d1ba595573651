/**
 * Which redirect URIs a client may be sent back to. Exact string comparison (RFC 9700 §4.1.3),
 * with one exception: an http redirect URI on the loopback address matches on any port, because a
 * native app listens on whatever port the system gives it at the time of the request
 * (RFC 8252 §7.3). Only the port may differ; scheme, host, path and query stay exact.
 */
import { isLoopbackHost } from '../domain/loopback.js';

/** "http://host[:port]" at the start of a URI, with nothing (no user, no other host) in between */
const HTTP_AUTHORITY = /^http:\/\/(\[[0-9a-fA-F:.]*\]|[^/?#:@[\]]*)(?::\d{1,5})?(?=[/?#]|$)/;

/** An http loopback URI without its port; undefined for every other URI. */
function withoutLoopbackPort(uri: string): string | undefined {
  const match = HTTP_AUTHORITY.exec(uri);
  if (!match || !isLoopbackHost(match[1]!)) return undefined;
  return `http://${match[1]}${uri.slice(match[0].length)}`;
}

export function redirectUriAllowed(requested: string, registered: readonly string[]): boolean {
  if (registered.includes(requested)) return true;
  const bare = withoutLoopbackPort(requested);
  return bare !== undefined && registered.some((uri) => withoutLoopbackPort(uri) === bare);
}
