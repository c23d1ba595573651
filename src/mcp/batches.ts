/**
 * JSON-RPC batches (a JSON array body) exist in MCP up to 2025-03-26; 2025-06-18 removed them. The
 * SDK's transport takes them whatever the version, so the endpoint refuses them for the versions
 * without them. The version is the initialize request's, or the MCP-Protocol-Version header every
 * later request carries; without either the transport assumes 2025-03-26, and so does this.
 */
const VERSIONS_WITH_BATCHES = new Set(['2024-10-07', '2024-11-05', '2025-03-26']);

/** Whether a POST body is a batch the negotiated protocol version does not allow. */
export function isRefusedBatch(body: unknown, protocolHeader: string | string[] | undefined): boolean {
  if (!Array.isArray(body)) return false;
  const initialize = body.find((m) => m && typeof m === 'object' && (m as { method?: unknown }).method === 'initialize') as
    { params?: { protocolVersion?: unknown } } | undefined;
  const version = initialize ? initialize.params?.protocolVersion : protocolHeader;
  return version !== undefined && !(typeof version === 'string' && VERSIONS_WITH_BATCHES.has(version));
}
