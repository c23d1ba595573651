/**
 * Accounting system: connecting an organisation to Xero or QuickBooks Online as their OAuth client
 * (authorization code with PKCE S256), choosing the Xero organisation when the sign-in covers
 * several, and disconnecting (the refresh token revoked at the vendor, the connection deleted).
 *
 * Connect is a form post (CSRF-checked) that keeps the sign-in in progress (the state's hash, the
 * PKCE verifier sealed, the person and organisation) for ten minutes and redirects to the vendor.
 * The vendor redirects back to /accounting/callback/{vendor}, a fixed address to register with it;
 * the state finds the sign-in, which must be the same person's, still an admin of the organisation.
 * What the new token covers is asked with the token before anything is saved: Xero's tenants, and
 * for QuickBooks the company named by the callback's realmId (a query parameter anyone can change),
 * whose CompanyInfo the token must read; a refused token is revoked and nothing is connected. A
 * Xero token granted without a scope the connector needs (its answer's `scope`, domain/xero-scopes.ts) is
 * revoked too, and the page names the scope.
 */
import { createHash, randomBytes } from 'node:crypto';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { connectOrganisation, dropConnection, dropRequest, findRequest, startRequest, updateRequest } from '../../accounting/connections/requests.js';
import { deleteConnection, getConnection } from '../../accounting/connections/tokens.js';
import { DEFAULT_MIRROR_MAX_AGE_MS, forgetMirror } from '../../accounting/mirror/mirror.js';
import { getMirror } from '../../accounting/mirror/store.js';
import { GrantRefused, quickBooksCompany, requestTokens, revokeToken, xeroTenants, type TokenSet } from '../../accounting/connections/vendor-http.js';
import { missingScopeProblem, missingXeroScopes } from '../../domain/xero-scopes.js';
import { companyKey, VENDOR_NAMES, VENDORS, type AccountingConnectionSettings, type Vendor } from '../../domain/accounting-vendors.js';
import { writeAudit } from '../../store/audit-log.js';
import { getOrganisation } from '../../store/organisations.js';
import { html } from '../html.js';
import { formatInstant } from '../words.js';
import { confirmPage, messagePage, type Viewer } from '../pages/chrome.js';
import { accountingPage, chooseTenantPage } from '../pages/org-accounting.js';
import { one, seeOther, sendPage } from '../respond.js';
import type { WebContext } from '../web-context.js';
import { organisationAdmin, pageSession } from './guards.js';
import { noticeFrom, orgRouter } from './org-routing.js';

const NOTICES = {
  connected: 'Connected. The books are now read from there.',
  disconnected: 'Disconnected. Calls for these books fail until it is connected again.',
};

const REQUEST_MINUTES = 10;
const sha256 = (s: string) => createHash('sha256').update(s).digest('base64url');

export function registerAccountingConnectionRoutes(app: FastifyInstance, w: WebContext): void {
  const db = w.service.db;
  const r = orgRouter(app, w);
  const settings = (): AccountingConnectionSettings | undefined => w.service.env.accountingConnections;
  const configured = (): Vendor[] => VENDORS.filter((v) => settings()?.[v]);
  const isVendor = (v: string | undefined): v is Vendor => v === 'xero' || v === 'quickbooks';
  const redirectUri = (vendor: Vendor) => `${w.service.baseUrl}/accounting/callback/${vendor}`;
  const back = (orgId: string) => ({ href: `/orgs/${orgId}/accounting`, label: 'Back to the accounting system' });
  const failed = (reply: FastifyReply, viewer: Viewer, orgId: string, message: string, status = 502) =>
    sendPage(reply, messagePage('Not connected', message, back(orgId), viewer), status);

  r.page('/accounting', async (a, _p, request, reply) => {
    const row = await getOrganisation(db, a.org.id);
    const connection = await getConnection(db, a.org.id);
    const copy = await getMirror(db, a.org.id);
    // a copy of another company (before a reconnect) is not this connection's
    const mirror =
      copy && connection && copy.vendor === companyKey(connection.vendor as Vendor, connection.tenant_id)
        ? { complete: copy.complete === 1, syncedAt: copy.synced_at, maxAgeMs: settings()?.mirrorMaxAgeMs ?? DEFAULT_MIRROR_MAX_AGE_MS }
        : undefined;
    // the copy's passes failing (backed off: mirror.ts): said, with when Ledgerline tries again by
    // itself; a connection to make again already says why in its row
    const failing =
      mirror && copy && connection?.status === 'active' && Number(copy.failures) > 0 && copy.problem
        ? {
            error: `Ledgerline could not bring its copy of the books up to date (${Number(copy.failures) === 1 ? 'the last attempt' : `the last ${Number(copy.failures)} attempts`} failed): ${copy.problem} It tries again by itself${copy.retry_at ? ` after ${formatInstant(copy.retry_at)}` : ''}; a call that reads the books tries at once.`,
          }
        : {};
    return sendPage(
      reply,
      accountingPage(
        a.viewer,
        a.org,
        { system: row!.accounting_system, connection, configured: configured(), mirror },
        { ...noticeFrom(request, NOTICES), ...failing },
      ),
    );
  });

  r.action('/accounting/connect/:vendor', async (a, p, _request, reply) => {
    const vendor = p.vendor;
    const s = settings();
    const client = isVendor(vendor) ? s?.[vendor] : undefined;
    if (!s || !client || !isVendor(vendor)) return failed(reply, a.viewer, a.org.id, 'That accounting system is not configured on this service.', 404);
    const state = randomBytes(24).toString('base64url');
    const verifier = randomBytes(32).toString('base64url');
    const stateHash = sha256(state);
    await startRequest(db, s.keys, { stateHash, organisationId: a.org.id, vendor, userId: a.session.user.id, verifier, minutes: REQUEST_MINUTES });
    const url = new URL(client.authorizeUrl);
    url.searchParams.set('response_type', 'code');
    url.searchParams.set('client_id', client.clientId);
    url.searchParams.set('redirect_uri', redirectUri(vendor));
    url.searchParams.set('scope', client.scopes);
    url.searchParams.set('state', state);
    url.searchParams.set('code_challenge', sha256(verifier));
    url.searchParams.set('code_challenge_method', 'S256');
    return seeOther(reply, url.href);
  });

  /** The sign-in in progress for this person and organisation, with its sealed payload opened. */
  async function pending(stateHash: string, userId: string, orgId?: string) {
    const s = settings();
    return s ? findRequest(db, s.keys, stateHash, userId, orgId) : undefined;
  }

  async function finish(
    reply: FastifyReply,
    userId: string,
    orgId: string,
    vendor: Vendor,
    tenant: { tenantId: string; tenantName: string },
    tokens: TokenSet,
    stateHash: string,
  ) {
    const s = settings()!;
    const replaced = await getConnection(db, orgId);
    const { previousSystem } = await connectOrganisation(db, s.keys, {
      organisationId: orgId,
      vendor,
      tenantId: tenant.tenantId,
      tenantName: tenant.tenantName,
      tokens,
      userId,
      stateHash,
    });
    await writeAudit(db, {
      organisationId: orgId,
      actorUserId: userId,
      action: 'accounting.connected',
      target: vendor,
      detail: {
        vendor,
        vendorName: VENDOR_NAMES[vendor],
        tenantId: tenant.tenantId,
        tenantName: tenant.tenantName,
        previousSystem,
        ...(replaced ? { replaced: { vendor: replaced.vendor, tenantId: replaced.tenant_id } } : {}),
      },
    });
    return seeOther(reply, `/orgs/${orgId}/accounting?done=connected`);
  }

  app.get('/accounting/callback/:vendor', async (request, reply) => {
    const signed = await pageSession(w, request, reply);
    if (!signed) return reply;
    const vendor = (request.params as { vendor: string }).vendor;
    const q = request.query as Record<string, string | undefined>;
    const stateHash = sha256(q.state ?? '');
    const found = q.state ? await pending(stateHash, signed.session.user.id) : undefined;
    if (!found || !isVendor(vendor) || found.row.vendor !== vendor) {
      return sendPage(
        reply,
        messagePage(
          'Not connected',
          'This sign-in is not one this service started for you, or it has expired (ten minutes). Start again from the organisation settings.',
          { href: '/account', label: 'Back to your account' },
          signed.viewer,
        ),
        400,
      );
    }
    const a = await organisationAdmin(w, signed, found.row.organisation_id, reply);
    if (!a) return reply;
    const s = settings()!;
    const client = s[vendor]!;
    if (q.error || !q.code) {
      await dropRequest(db, stateHash);
      return failed(
        reply,
        a.viewer,
        a.org.id,
        `${VENDOR_NAMES[vendor]} did not grant access${q.error ? ` (${q.error.slice(0, 100)})` : ''}, so nothing was connected.`,
        400,
      );
    }
    if (vendor === 'quickbooks' && !/^\d+$/.test(q.realmId ?? ''))
      return failed(reply, a.viewer, a.org.id, 'QuickBooks did not say which company was chosen (realmId), so nothing was connected.', 400);
    const refused = async (error: unknown) => {
      await dropRequest(db, stateHash);
      return failed(reply, a.viewer, a.org.id, `${(error as Error).message}, so nothing was connected.`, error instanceof GrantRefused ? 400 : 502);
    };
    let tokens: TokenSet;
    try {
      tokens = await requestTokens(
        vendor,
        client,
        { grant_type: 'authorization_code', code: q.code, redirect_uri: redirectUri(vendor), code_verifier: found.payload.verifier },
        s.fetch,
      );
    } catch (error) {
      return refused(error);
    }
    // Xero says what it granted: a token without a scope the connector reads with would read
    // nothing (GET /Journals without accounting.journals.read), so nothing is connected with it
    const missing = vendor === 'xero' && tokens.scope !== undefined ? missingXeroScopes(tokens.scope) : [];
    if (missing.length) {
      await revokeToken(vendor, client, tokens.refreshToken, s.fetch);
      await dropRequest(db, stateHash);
      return failed(
        reply,
        a.viewer,
        a.org.id,
        `${missingScopeProblem(missing)}, so nothing was connected. Connect again and allow ${missing.length === 1 ? 'it' : 'them'}; if Xero does not offer ${missing.length === 1 ? 'it' : 'them'}, this service's app at Xero must be allowed ${missing.length === 1 ? 'that scope' : 'those scopes'} first.`,
        400,
      );
    }
    let tenants: { tenantId: string; tenantName: string }[];
    try {
      // what the token covers, asked with the token: Xero lists its tenants; QuickBooks' realmId came
      // in the query string, so the token must read that company before anything is saved
      tenants =
        vendor === 'xero' ? await xeroTenants(client, tokens.accessToken, s.fetch) : [await quickBooksCompany(client, q.realmId!, tokens.accessToken, s.fetch)];
    } catch (error) {
      // the tokens are not kept, so they are not left live at the vendor either
      await revokeToken(vendor, client, tokens.refreshToken, s.fetch);
      return refused(error);
    }
    if (tenants.length === 0) {
      await revokeToken(vendor, client, tokens.refreshToken, s.fetch);
      await dropRequest(db, stateHash);
      return failed(reply, a.viewer, a.org.id, 'Xero gave access to no organisation, so nothing was connected.', 400);
    }
    if (tenants.length === 1) return finish(reply, signed.session.user.id, a.org.id, vendor, tenants[0]!, tokens, stateHash);
    await updateRequest(db, s.keys, stateHash, { verifier: found.payload.verifier, tokens, tenants });
    return seeOther(reply, `/orgs/${a.org.id}/accounting/choose/${stateHash}`);
  });

  r.page('/accounting/choose/:request', async (a, p, _request, reply) => {
    const found = await pending(p.request!, a.session.user.id, a.org.id);
    if (!found?.payload.tenants) return failed(reply, a.viewer, a.org.id, 'This sign-in has expired or was finished already. Start again.', 404);
    return sendPage(reply, chooseTenantPage(a.viewer, a.org, p.request!, found.payload.tenants));
  });

  r.action('/accounting/choose/:request', async (a, p, _request, reply) => {
    const found = await pending(p.request!, a.session.user.id, a.org.id);
    if (!found?.payload.tenants || !found.payload.tokens)
      return failed(reply, a.viewer, a.org.id, 'This sign-in has expired or was finished already. Start again.', 404);
    const tenant = found.payload.tenants.find((t) => t.tenantId === one(a.form.tenant));
    if (!tenant) return sendPage(reply, chooseTenantPage(a.viewer, a.org, p.request!, found.payload.tenants), 400);
    return finish(reply, a.session.user.id, a.org.id, found.row.vendor as Vendor, tenant, found.payload.tokens, p.request!);
  });

  r.page('/accounting/disconnect', async (a, _p, _request, reply) => {
    const c = await getConnection(db, a.org.id);
    if (!c) return seeOther(reply, `/orgs/${a.org.id}/accounting`);
    const name = VENDOR_NAMES[c.vendor as Vendor] ?? c.vendor;
    return sendPage(
      reply,
      confirmPage(a.viewer, {
        title: `Disconnect ${name} from ${a.org.name}?`,
        explanation: html`<p>Ledgerline stops reading “${c.tenant_name}” in ${name} at once, and asks ${name} to revoke its access. Calls for ${a.org.name}'s books fail until it is connected again.</p>`,
        action: `/orgs/${a.org.id}/accounting/disconnect`,
        button: 'Disconnect',
        back: `/orgs/${a.org.id}/accounting`,
      }),
    );
  });

  r.action('/accounting/disconnect', async (a, _p, _request, reply) => {
    const s = settings();
    const c = await getConnection(db, a.org.id);
    if (!c) return seeOther(reply, `/orgs/${a.org.id}/accounting`);
    const deleted = s ? await deleteConnection(db, s.keys, a.org.id) : undefined;
    if (!s) await dropConnection(db, a.org.id);
    await forgetMirror(db, a.org.id);
    const vendor = c.vendor as Vendor;
    const client = s?.[vendor];
    const revoked = !!(client && deleted?.refreshToken && (await revokeToken(vendor, client, deleted.refreshToken, s?.fetch)));
    await writeAudit(db, {
      organisationId: a.org.id,
      actorUserId: a.session.user.id,
      action: 'accounting.disconnected',
      target: vendor,
      detail: { vendor, vendorName: VENDOR_NAMES[vendor] ?? vendor, tenantId: c.tenant_id, tenantName: c.tenant_name, revoked },
    });
    return seeOther(reply, `/orgs/${a.org.id}/accounting?done=disconnected`);
  });
}
