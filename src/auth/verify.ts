/**
 * The resource server's check, on every call: the bearer token, its grant, its client, its
 * audience, the consent's organisations and the user's live memberships. One code path for REST
 * and MCP. Nothing is cached, so a revocation or a removed membership applies to the next call.
 */
import type { Kysely } from 'kysely';
import type { Coverage, Principal, Role } from '../operations/context.js';
import { OperationError } from '../domain/problems.js';
import type { Database, OrganisationRow } from '../store/schema.js';
import { touchClient } from './clients.js';
import { sha256 } from '../store/hash.js';
import { findBearerToken, findGrantAndConsent } from './token-check.js';

export interface Caller {
  principal: Principal;
  coverage: Coverage;
  /** organisations the consent names but the user no longer belongs to */
  leftOrganisationIds: string[];
  /** organisations the consent covers whose admins blocked the client: refused, by name */
  blockedOrganisations: { id: string; name: string }[];
  scopes: Set<string>;
  clientId: string;
  /** hash of the token, for rate limits and logs (never the token itself) */
  tokenKey: string;
  /**
   * an API client's organisation as the bearer check read it, this request: the call's own
   * organisation step takes it instead of reading the row again (execute.ts loadOrganisation)
   */
  organisationRow?: OrganisationRow;
}

export class AuthenticationError extends OperationError {
  constructor(
    message: string,
    readonly bearerError: 'invalid_token' | 'invalid_request' = 'invalid_token',
  ) {
    super('invalid_token', message);
  }
}

const BEARER = /^Bearer[ ]+([A-Za-z0-9\-._~+/]+=*)$/;

/**
 * The bearer check: the token (one indexed read joined to its client and the client's
 * organisation), its audience and client, then for a person's token the consent behind its grant
 * and the user's live memberships (two more reads).
 */
export async function authenticate(db: Kysely<Database>, authorization: string | undefined, audience: string): Promise<Caller> {
  if (!authorization) throw new AuthenticationError('send an access token: Authorization: Bearer <token>', 'invalid_request');
  const match = BEARER.exec(authorization.trim());
  if (!match) throw new AuthenticationError('the Authorization header must be "Bearer <token>"', 'invalid_request');
  // the token's stored id: its hash, which also keys rate limits and logs
  const tokenKey = sha256(match[1]!);
  const token = await findBearerToken(db, tokenKey);
  if (!token) throw new AuthenticationError('the access token is invalid, expired or revoked');
  if (!(Array.isArray(token.aud) ? token.aud.includes(audience) : token.aud === audience)) {
    throw new AuthenticationError(`the access token was issued for another resource; request one for ${audience}`);
  }
  const client = token.client;
  if (!client || client.blocked) throw new AuthenticationError('the client this token was issued to has been revoked');
  const scopes = new Set(token.scope.split(' ').filter(Boolean));
  await touchClient(db, client);

  if (token.kind === 'ClientCredentials') {
    if (client.kind !== 'api_client' || !client.organisation_id) throw new AuthenticationError('this client cannot use client credentials');
    if (!token.organisation) throw new AuthenticationError('the organisation of this client no longer exists');
    return {
      principal: { kind: 'client', clientId: client.client_id },
      coverage: { organisations: [{ id: token.organisation.id, name: token.organisation.name }], all: false },
      leftOrganisationIds: [],
      blockedOrganisations: [],
      scopes,
      clientId: client.client_id,
      tokenKey,
      organisationRow: token.organisation,
    };
  }

  const consent = token.grantId ? await findGrantAndConsent(db, token.grantId) : undefined;
  if (!consent || consent.userId !== token.accountId || consent.clientId !== client.client_id) {
    throw new AuthenticationError('the approval behind this token has been revoked');
  }
  const memberships = consent.memberships;
  const covered = memberships.filter((m) => (consent.allOrganisations ? m.inAll : consent.organisationIds.includes(m.id)));
  const left = consent.allOrganisations ? [] : consent.organisationIds.filter((id) => !memberships.some((m) => m.id === id));
  // an organisation's block holds for that organisation only; a token all of whose organisations
  // blocked the app is refused outright, like a token of an app the operator blocked
  const approved = covered.filter((m) => !m.blocked);
  const blocked = covered.filter((m) => m.blocked).map((m) => ({ id: m.id, name: m.name }));
  if (blocked.length && !approved.length) {
    throw new AuthenticationError(`an admin of ${blocked.map((o) => o.name).join(', ')} has blocked this app`);
  }
  return {
    // the role is read again, live, for the organisation the call acts for
    principal: { kind: 'user', userId: consent.userId, email: consent.email, role: (approved[0]?.role ?? 'custom') as Role },
    coverage: { organisations: approved.map((m) => ({ id: m.id, name: m.name })), all: consent.allOrganisations },
    leftOrganisationIds: left,
    blockedOrganisations: blocked,
    scopes,
    clientId: client.client_id,
    tokenKey,
  };
}

/**
 * The one organisation a call acts for: from the token, with the header (REST) or argument (MCP)
 * naming it only when the token covers several. Never from the operation's own input.
 */
export function resolveOrganisation(caller: Caller, requested: string | undefined): string {
  const covered = caller.coverage.organisations;
  if (caller.principal.kind === 'client') {
    const own = covered[0]!.id;
    if (requested !== undefined && requested !== own) {
      throw new OperationError('organisation_not_allowed', "an organisation's own API client acts only for that organisation");
    }
    return own;
  }
  if (requested !== undefined) {
    // an id, or the organisation's exact name (names are unique in any case), as a person or a model says it
    const named = (o: { id: string; name: string }) => o.id === requested || o.name.toLowerCase() === requested.trim().toLowerCase();
    const found = covered.find(named);
    if (found) return found.id;
    if (caller.leftOrganisationIds.includes(requested)) throw new OperationError('not_a_member', 'you are no longer a member of this organisation');
    if (caller.blockedOrganisations.some(named))
      throw new OperationError('app_blocked', "an admin of this organisation has blocked this app: ask them, or use the organisation's API client");
    throw new OperationError('organisation_not_approved', `this connection was not approved for that organisation; it may use ${choices(covered)}`);
  }
  if (covered.length === 1) return covered[0]!.id;
  if (covered.length === 0) throw new OperationError('no_organisation', 'this connection covers no organisation you are still a member of');
  throw new OperationError(
    'organisation_required',
    `this token covers ${covered.length} organisations: name one with the Service-Organisation header (REST) or the organisation argument (MCP); GET ` +
      `/v1/organisations lists them`,
  );
}

/** The organisations a connection may name, said so a person or a model can pick one. */
function choices(covered: { id: string; name: string }[]): string {
  return covered.length ? covered.map((o) => `${o.name} (${o.id})`).join(', ') : 'none of your organisations';
}

export function requireScope(caller: Caller, scope: string): void {
  if (!caller.scopes.has(scope)) throw new OperationError('insufficient_scope', `this call needs the ${scope} scope`);
}
