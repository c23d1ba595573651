/**
 * How oidc-provider's records are kept in oauth_store without a usable credential: which models'
 * ids are credentials (kept as their hash) and what of a payload may be stored.
 */
/** Models whose id is a credential: kept as its hash, and their payload without the id. */
export const HASHED_MODELS = new Set([
  'Session',
  'AccessToken',
  'ClientCredentials',
  'RefreshToken',
  'AuthorizationCode',
  'RegistrationAccessToken',
  'InitialAccessToken',
  'DeviceCode',
  'BackchannelAuthenticationRequest',
  'RefreshReplay',
]);

/**
 * The payload as it may be stored: without the credential it belongs to. An Interaction keeps a
 * copy of its sign-in session's id (session.cookie) that oidc-provider never reads back: left out.
 */
export function storablePayload(model: string, payload: AdapterPayload): AdapterPayload {
  if (HASHED_MODELS.has(model)) {
    const { jti: _jti, ...rest } = payload;
    return rest;
  }
  if (model === 'Interaction' && payload.session && typeof payload.session === 'object' && 'cookie' in payload.session) {
    const { cookie: _cookie, ...session } = payload.session as Record<string, unknown>;
    return { ...payload, session };
  }
  return payload;
}

export interface AdapterPayload {
  [key: string]: unknown;
  grantId?: string;
  uid?: string;
  userCode?: string;
  consumed?: number;
}
