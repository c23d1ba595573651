/**
 * Connecting an organisation to a vendor's books as their OAuth client (authorization code with
 * PKCE S256, oauth-client.ts), choosing the books when the sign-in covers several, and
 * disconnecting (the refresh token revoked at the vendor, the connection deleted): the use case the
 * settings pages (web/routes/org-accounting-routes.ts) call, asking the vendor's descriptor.
 *
 * A sign-in is kept for ten minutes (requests.ts: the state's hash, the PKCE verifier sealed, the
 * person and organisation). The vendor redirects back to a fixed address to register with it; the
 * state finds the sign-in, which must be the same person's. What the new token covers is asked with
 * the token before anything is saved (the descriptor's `tenants`): Xero's tenants, and for QuickBooks
 * the company named by the callback's realmId (a query parameter anyone can change), whose
 * CompanyInfo the token must read; a refused token is revoked and nothing is connected. A token
 * granted without a scope the connector needs (the descriptor's `grantProblem`) is revoked too, and
 * the answer names the scope.
 */
import { createHash } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { AccountingConnectionSettings, VendorClient } from '../../domain/accounting-vendors.js';
import { writeAudit } from '../../store/audit-log.js';
import type { Database } from '../../store/schema.js';
import { forgetMirror } from '../mirror/mirror.js';
import type { VendorDescriptor, VendorTenant } from '../vendor-descriptor.js';
import { VENDOR_DESCRIPTORS, vendorNamed } from '../vendors.js';
import { authorizationRequest, exchangeCode, vendorConfiguration } from './oauth-client.js';
import { connectOrganisation, dropConnection, dropRequest, findRequest, startRequest, updateRequest } from './requests.js';
import { deleteConnection, getConnection } from './tokens.js';
import { GrantRefused, revokeToken, type TokenSet } from './vendor-http.js';

const REQUEST_MINUTES = 10;
const sha256 = (s: string) => createHash('sha256').update(s).digest('base64url');

/**
 * How a sign-in ended: connected; the person chooses the books (`requestId` names the sign-in); or
 * nothing connected, why, and the HTTP status to answer with.
 */
export type ConnectOutcome =
  | { outcome: 'connected'; organisationId: string }
  | { outcome: 'choose'; organisationId: string; requestId: string; tenants: VendorTenant[] }
  | { outcome: 'refused'; organisationId: string; message: string; status: 400 | 404 | 502 };

/** A sign-in in progress, found by the state the vendor sent back. */
export interface SignIn {
  organisationId: string;
  descriptor: VendorDescriptor;
  state: string;
  stateHash: string;
  verifier: string;
}

/** The vendors this deployment has a client registration with. */
export function configuredVendors(settings: AccountingConnectionSettings | undefined): VendorDescriptor[] {
  return Object.values(VENDOR_DESCRIPTORS).filter((d) => settings?.[d.vendor]);
}

function registration(settings: AccountingConnectionSettings | undefined, vendor: string | undefined) {
  const descriptor = vendorNamed(vendor);
  const client = descriptor && settings?.[descriptor.vendor];
  return descriptor && client && settings ? { descriptor, client, settings } : undefined;
}

/**
 * Starts a sign-in at the vendor: the address to send the person to; refused (404) when the vendor
 * is not configured on this service, or (502) when its endpoints cannot be used (http, without the
 * test option).
 */
export async function startSignIn(
  db: Kysely<Database>,
  settings: AccountingConnectionSettings | undefined,
  input: { vendor: string | undefined; organisationId: string; userId: string; redirectUri: string },
): Promise<{ url: URL } | { refused: string; status: 404 | 502 }> {
  const found = registration(settings, input.vendor);
  if (!found) return { refused: 'That accounting system is not configured on this service.', status: 404 };
  const { descriptor, client } = found;
  let request: Awaited<ReturnType<typeof authorizationRequest>>;
  try {
    request = await authorizationRequest(vendorConfiguration(descriptor, client, found.settings), client, input.redirectUri);
  } catch (error) {
    return { refused: `${descriptor.name}'s sign-in cannot be used (${(error as Error).message}).`, status: 502 };
  }
  await startRequest(db, found.settings.keys, {
    stateHash: sha256(request.state),
    organisationId: input.organisationId,
    vendor: descriptor.vendor,
    userId: input.userId,
    verifier: request.verifier,
    minutes: REQUEST_MINUTES,
  });
  return { url: request.url };
}

/** The sign-in the callback's state names, when this service started it for this person, for this vendor, and it has not expired. */
export async function findSignIn(
  db: Kysely<Database>,
  settings: AccountingConnectionSettings | undefined,
  input: { vendor: string | undefined; state: string | undefined; userId: string },
): Promise<SignIn | undefined> {
  const descriptor = vendorNamed(input.vendor);
  if (!settings || !descriptor || !input.state) return undefined;
  const stateHash = sha256(input.state);
  const found = await findRequest(db, settings.keys, stateHash, input.userId);
  if (!found || found.row.vendor !== descriptor.vendor) return undefined;
  return { organisationId: found.row.organisation_id, descriptor, state: input.state, stateHash, verifier: found.payload.verifier };
}

/**
 * The callback of a sign-in found by findSignIn (the person checked as an admin of its organisation
 * by the caller): the code exchanged, what the token was granted and covers checked, and the
 * connection stored when it covers one set of books.
 */
export async function completeSignIn(
  db: Kysely<Database>,
  settings: AccountingConnectionSettings,
  signIn: SignIn,
  input: { callback: URLSearchParams; redirectUri: string; userId: string },
): Promise<ConnectOutcome> {
  const { descriptor, stateHash, organisationId } = signIn;
  const client = settings[descriptor.vendor];
  const q = input.callback;
  const refused = async (message: string, status: 400 | 502, revoke?: TokenSet): Promise<Extract<ConnectOutcome, { outcome: 'refused' }>> => {
    // tokens not kept are not left live at the vendor either
    if (revoke && client) await revokeToken(descriptor, client, revoke.refreshToken, settings.fetch);
    await dropRequest(db, stateHash);
    return { outcome: 'refused', organisationId, message: `${message}, so nothing was connected.`, status };
  };
  if (!client) return refused(`${descriptor.name} is not configured on this service`, 502);
  const error = q.get('error');
  if (error || !q.get('code')) return refused(`${descriptor.name} did not grant access${error ? ` (${error.slice(0, 100)})` : ''}`, 400);
  const missing = descriptor.oauth.callbackProblem?.(q);
  if (missing) return { outcome: 'refused', organisationId, message: `${missing}, so nothing was connected.`, status: 400 };
  let tokens: TokenSet;
  try {
    tokens = await exchangeCode(descriptor, vendorConfiguration(descriptor, client, settings), input.redirectUri, q, signIn);
  } catch (e) {
    return refused((e as Error).message, e instanceof GrantRefused ? 400 : 502);
  }
  // the vendor says what it granted: a token without a scope the connector reads with would read
  // nothing (Xero's GET /Journals without accounting.journals.read), so nothing is connected with it
  const lacking = descriptor.oauth.grantProblem?.(tokens.scope);
  if (lacking) {
    const [it, them] = lacking.scopes.length === 1 ? ['it', 'that scope'] : ['them', 'those scopes'];
    const outcome = await refused(lacking.problem, 400, tokens);
    const name = descriptor.name;
    return {
      ...outcome,
      message:
        `${outcome.message} Connect again and allow ${it}; if ${name} does not offer ${it}, this service's app at ${name} must be allowed ${them} ` + 'first.',
    };
  }
  let tenants: VendorTenant[];
  try {
    // what the token covers, asked with the token
    tenants = await descriptor.oauth.tenants(client, tokens.accessToken, q, settings.fetch ?? fetch);
  } catch (e) {
    return refused((e as Error).message, e instanceof GrantRefused ? 400 : 502, tokens);
  }
  if (tenants.length === 0) return refused(`${descriptor.name} gave access to no ${descriptor.booksWord.toLowerCase()}`, 400, tokens);
  if (tenants.length === 1) return finish(db, settings, { organisationId, userId: input.userId, descriptor, tenant: tenants[0]!, tokens, stateHash });
  await updateRequest(db, settings.keys, stateHash, { verifier: signIn.verifier, tokens, tenants });
  return { outcome: 'choose', organisationId, requestId: stateHash, tenants };
}

/** The books a sign-in covers, to choose from; undefined when it has expired, was finished, or is not this person's for this organisation. */
export async function tenantsToChoose(
  db: Kysely<Database>,
  settings: AccountingConnectionSettings | undefined,
  input: { requestId: string; userId: string; organisationId: string },
): Promise<{ descriptor: VendorDescriptor; tenants: VendorTenant[] } | undefined> {
  const found = settings ? await findRequest(db, settings.keys, input.requestId, input.userId, input.organisationId) : undefined;
  const descriptor = vendorNamed(found?.row.vendor);
  return descriptor && found?.payload.tokens && found.payload.tenants ? { descriptor, tenants: found.payload.tenants } : undefined;
}

/** The books chosen: connected; refused (404) when the sign-in has expired or was finished; undefined when they are not among those it covers. */
export async function chooseTenant(
  db: Kysely<Database>,
  settings: AccountingConnectionSettings | undefined,
  input: { requestId: string; userId: string; organisationId: string; tenantId: string | undefined },
): Promise<ConnectOutcome | undefined> {
  const found = settings ? await findRequest(db, settings.keys, input.requestId, input.userId, input.organisationId) : undefined;
  const descriptor = vendorNamed(found?.row.vendor);
  if (!settings || !found?.payload.tenants || !found.payload.tokens || !descriptor)
    return { outcome: 'refused', organisationId: input.organisationId, message: 'This sign-in has expired or was finished already. Start again.', status: 404 };
  const tenant = found.payload.tenants.find((t) => t.tenantId === input.tenantId);
  if (!tenant) return undefined;
  return finish(db, settings, { ...input, descriptor, tenant, tokens: found.payload.tokens, stateHash: input.requestId });
}

async function finish(
  db: Kysely<Database>,
  settings: AccountingConnectionSettings,
  input: { organisationId: string; userId: string; descriptor: VendorDescriptor; tenant: VendorTenant; tokens: TokenSet; stateHash: string },
): Promise<ConnectOutcome> {
  const { organisationId, userId, descriptor, tenant } = input;
  const vendor = descriptor.vendor;
  const replaced = await getConnection(db, organisationId);
  const { previousSystem } = await connectOrganisation(db, settings.keys, { ...input, vendor, tenantId: tenant.tenantId, tenantName: tenant.tenantName });
  await writeAudit(db, {
    organisationId,
    actorUserId: userId,
    action: 'accounting.connected',
    target: vendor,
    detail: {
      vendor,
      vendorName: descriptor.name,
      tenantId: tenant.tenantId,
      tenantName: tenant.tenantName,
      previousSystem,
      ...(replaced ? { replaced: { vendor: replaced.vendor, tenantId: replaced.tenant_id } } : {}),
    },
  });
  return { outcome: 'connected', organisationId };
}

/** Disconnects the organisation: the connection deleted, its mirror forgotten, its refresh token revoked at the vendor, audited. False when it had none. */
export async function disconnect(
  db: Kysely<Database>,
  settings: AccountingConnectionSettings | undefined,
  input: { organisationId: string; userId: string },
): Promise<boolean> {
  const c = await getConnection(db, input.organisationId);
  if (!c) return false;
  const deleted = settings ? await deleteConnection(db, settings.keys, input.organisationId) : undefined;
  if (!settings) await dropConnection(db, input.organisationId);
  await forgetMirror(db, input.organisationId);
  const descriptor = vendorNamed(c.vendor);
  const client: VendorClient | undefined = descriptor && settings?.[descriptor.vendor];
  const revoked = !!(descriptor && client && deleted?.refreshToken && (await revokeToken(descriptor, client, deleted.refreshToken, settings?.fetch)));
  await writeAudit(db, {
    organisationId: input.organisationId,
    actorUserId: input.userId,
    action: 'accounting.disconnected',
    target: c.vendor,
    detail: { vendor: c.vendor, vendorName: descriptor?.name ?? c.vendor, tenantId: c.tenant_id, tenantName: c.tenant_name, revoked },
  });
  return true;
}
