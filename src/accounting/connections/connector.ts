/**
 * A vendor's reader (its descriptor's `reader`, vendor-descriptor.ts) reading through the
 * organisation's stored connection: the tenant/realm from the connection, and on every request a
 * valid access token (tokens.ts), put in place of the Authorization header. The connection is read
 * when the first method is called (the registry's factories are synchronous).
 *
 * A request the vendor answers 401 is not taken as the end of the connection at once: the vendor's
 * clock may be ahead of ours (so the token expired there first), or the token was revoked and
 * replaced. The token is refreshed once (under the connection's claim, tokens.ts: `refused`) and the
 * request sent again, each attempt within the connection's call budget; only a refresh the vendor
 * refuses asks for the connection to be made again. A 401 the descriptor's `refusal` explains (Xero's
 * for want of a scope, error="insufficient_scope") is not a token that a refresh would mend: the connection is marked
 * as needing reconnecting, naming the scope (domain/xero-scopes.ts), and the call fails saying so;
 * a write refused so (a connection made before Ledgerline wrote to Xero) fails alone, saying to
 * connect again to allow writing, and the connection goes on reading.
 */
import type { Kysely } from 'kysely';
import type { Database } from '../../store/schema.js';
import { budgetedFetch } from '../call-budget.js';
import type { AccountingSystem } from '../types.js';
import { DEFAULT_MIRROR_MAX_AGE_MS } from '../mirror/mirror.js';
import { accessTokenFor, getConnection, markReconnect, reconnectMessage } from './tokens.js';
import { AccountingSystemError } from '../types.js';
import type { AccountingConnectionSettings } from '../../domain/accounting-vendors.js';
import type { VendorDescriptor } from '../vendor-descriptor.js';

/** The request's path below the API's base (what Xero's scopes name endpoints by). */
function pathBelow(input: Parameters<typeof fetch>[0], base: string | undefined): string {
  const url = new URL(input instanceof Request ? input.url : String(input));
  const prefix = base ? new URL(base).pathname.replace(/\/+$/, '') : '';
  return prefix && url.pathname.startsWith(prefix) ? url.pathname.slice(prefix.length) : url.pathname;
}

export function connectedAccounting(
  db: Kysely<Database>,
  settings: AccountingConnectionSettings,
  organisation: { id: string; home_currency: string },
  descriptor: VendorDescriptor,
): AccountingSystem {
  const { vendor } = descriptor;
  const fetchImpl = settings.fetch ?? fetch;
  let inner: Promise<AccountingSystem> | undefined;
  const build = async (): Promise<AccountingSystem> => {
    const row = await getConnection(db, organisation.id);
    if (!row || row.vendor !== vendor)
      throw new AccountingSystemError(
        `The organisation is not connected to ${descriptor.name}: an admin connects it in the organisation's settings (Accounting system).`,
      );
    const baseUrl = settings[vendor]?.apiBaseUrl;
    const place = { db, organisationId: organisation.id, maxAgeMs: settings.mirrorMaxAgeMs ?? DEFAULT_MIRROR_MAX_AGE_MS };
    // every request the vendor sees takes a place in the connection's budget (src/accounting/call-budget.ts), a retry too
    const send = budgetedFetch(fetchImpl, descriptor.company(row.tenant_id), descriptor.limits);
    const withToken = (init: RequestInit | undefined, token: string): RequestInit => {
      const headers = new Headers(init?.headers);
      headers.set('authorization', `Bearer ${token}`);
      return { ...init, headers };
    };
    // the token in the connector's settings is a placeholder: this puts the connection's in its place
    const authorised: typeof fetch = async (input, init) => {
      const first = await accessTokenFor(db, settings, organisation.id, vendor);
      const res = await send(input, withToken(init, first.accessToken));
      if (res.status !== 401) return res;
      await res.body?.cancel();
      const method = (init?.method ?? 'GET').toUpperCase();
      const refused = descriptor.refusal?.(res, method, pathBelow(input, baseUrl ?? descriptor.oauth.endpoints.apiBaseUrl));
      if (refused) {
        if (refused.reconnect) await markReconnect(db, organisation.id, vendor, refused.problem);
        throw new AccountingSystemError(refused.reconnect ? reconnectMessage(vendor, refused.problem) : refused.problem);
      }
      // refused by the vendor's clock, or revoked: one refresh, one more try
      const renewed = await accessTokenFor(db, settings, organisation.id, vendor, { refused: first.accessToken });
      return send(input, withToken(init, renewed.accessToken));
    };
    return descriptor.reader(descriptor.settings.ofConnection(row.tenant_id, baseUrl), organisation.home_currency, authorised, place);
  };
  return new Proxy({ kind: vendor } as AccountingSystem, {
    get(target, property) {
      if (property === 'kind') return vendor;
      if (!descriptor.readerMethods.has(property)) return Reflect.get(target, property);
      return async (...args: unknown[]) => {
        inner ??= build();
        inner.catch(() => (inner = undefined));
        const system = await inner;
        return (system as unknown as Record<string | symbol, (...a: unknown[]) => unknown>)[property]!(...args);
      };
    },
  });
}
