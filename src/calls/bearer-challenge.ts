/**
 * The WWW-Authenticate challenge of a refused bearer token (RFC 6750 §3, RFC 9728 §5.1), one
 * spelling for REST and MCP: the error and its description when a token was sent, the protected
 * resource's metadata for a client to find the authorization server, and the scope to ask for.
 * A description's quotes and backslashes become apostrophes, so the header always parses.
 */
export interface Challenge {
  /** the protected resource's metadata (RFC 9728) */
  metadataUrl: string;
  realm?: string;
  error?: { code: string; description: string };
  scope?: string;
}

export function bearerChallenge({ metadataUrl, realm, error, scope }: Challenge): string {
  const fields = [
    ...(realm ? [`realm="${realm}"`] : []),
    ...(error ? [`error="${error.code}"`, `error_description="${error.description.replace(/["\\]/g, "'")}"`] : []),
    `resource_metadata="${metadataUrl}"`,
    ...(scope ? [`scope="${scope}"`] : []),
  ];
  return `Bearer ${fields.join(', ')}`;
}
