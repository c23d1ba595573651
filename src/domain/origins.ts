/**
 * Which browser origins may call the MCP endpoint. The Streamable HTTP transport requires a server
 * to validate Origin (a page whose host name was rebound to the server's address must not reach
 * it). A request without Origin comes from a program, not a page, and is let through; the bearer
 * token stays the main protection either way, since the endpoint takes no cookies.
 *
 * Allowed: the service's own origin (BASE_URL), and the origins of MCP_ALLOWED_ORIGINS, whose
 * default is "loopback": a page served from the user's own machine on any port, as browser-based
 * clients such as MCP Inspector (http://localhost:6274) are.
 */
import { isLoopbackHost } from './loopback.js';

/** The entry of MCP_ALLOWED_ORIGINS that stands for every http(s) origin on a loopback host. */
export const LOOPBACK_ORIGINS = 'loopback';

/** The setting when it is not set. */
export const DEFAULT_ALLOWED_ORIGINS: readonly string[] = [LOOPBACK_ORIGINS];

/** An http(s) URL with nothing beyond scheme, host and port, as its origin; undefined for anything else. */
function originOf(text: string): string | undefined {
  const url = URL.parse(text);
  if (!url || (url.protocol !== 'https:' && url.protocol !== 'http:')) return undefined;
  if (url.username || url.password || url.pathname !== '/' || url.search || url.hash || text.endsWith('?') || text.endsWith('#')) return undefined;
  return url.origin;
}

/**
 * MCP_ALLOWED_ORIGINS: comma-separated origins (https://inspector.example.com) and/or "loopback".
 * Unset means "loopback"; empty means the service's own origin only. Throws on an entry that is not
 * an origin, so a typo stops the service at start-up instead of refusing every browser client.
 */
export function parseAllowedOrigins(text: string | undefined): string[] {
  if (text === undefined) return [...DEFAULT_ALLOWED_ORIGINS];
  return text
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean)
    .map((entry) => {
      if (entry === LOOPBACK_ORIGINS) return entry;
      const origin = originOf(entry);
      if (!origin) throw new Error(`MCP_ALLOWED_ORIGINS: "${entry}" is not an origin (scheme://host[:port], http or https) nor "${LOOPBACK_ORIGINS}"`);
      return origin;
    });
}

/** Whether a request's Origin header (undefined when absent) may call the endpoint. */
export function originPolicy(baseUrl: string, allowed: readonly string[]): (origin: string | undefined) => boolean {
  const exact = new Set([new URL(baseUrl).origin, ...allowed.filter((a) => a !== LOOPBACK_ORIGINS)]);
  const loopback = allowed.includes(LOOPBACK_ORIGINS);
  return (header) => {
    if (header === undefined) return true;
    const origin = originOf(header);
    if (!origin) return false; // "null" (sandboxed pages, files), extensions, malformed
    return exact.has(origin) || (loopback && isLoopbackHost(new URL(origin).hostname));
  };
}
