/** REST calls as an organisation's own script makes them: a client-credentials token, then JSON requests. */
import assert from 'node:assert/strict';
import type { FastifyInstance } from 'fastify';
import { createApiClient } from '../../src/auth/clients.js';
import type { Store } from '../../src/store/db.js';
import { discover, oidc } from './oauth.js';

/** An access token of a new API client of the organisation, with these scopes. */
export async function clientToken(store: Store, baseUrl: string, organisationId: string, scopes: string[]): Promise<string> {
  const c = await createApiClient(store.db, { organisationId, name: scopes.join(' '), scopes });
  return (await oidc.clientCredentialsGrant(await discover(baseUrl, c.clientId, c.clientSecret), { scope: scopes.join(' ') })).access_token;
}

/** One request with a bearer token and, when given, a JSON body; the answer parsed when it is JSON. */
export async function sendJson(baseUrl: string, method: string, path: string, token: string, body?: unknown, headers: Record<string, string> = {}) {
  const response = await fetch(`${baseUrl}${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body !== undefined ? { 'content-type': 'application/json' } : {}), ...headers },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
  const text = await response.text();
  const type = response.headers.get('content-type') ?? '';
  return { status: response.status, headers: response.headers, body: type.includes('json') && text ? JSON.parse(text) : text, bytes: text };
}

/** A client-credentials token from an app in this process (inject, no port), asserted to be given. */
export async function injectedClientToken(
  app: Pick<FastifyInstance, 'inject'>,
  client: { clientId: string; clientSecret: string },
  extra: Record<string, string> = {},
): Promise<string> {
  const response = await app.inject({
    method: 'POST',
    url: '/oauth/token',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    payload: new URLSearchParams({
      grant_type: 'client_credentials',
      client_id: client.clientId,
      client_secret: client.clientSecret,
      scope: 'service.read',
      ...extra,
    }).toString(),
  });
  const token = (response.json() as { access_token?: string }).access_token;
  assert.ok(token, response.body);
  return token;
}
