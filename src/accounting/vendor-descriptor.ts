/**
 * What Ledgerline knows of one vendor's books system (Xero, QuickBooks Online), in one place: its
 * names, the call budget it allows, the settings an organisation may give by hand, its OAuth 2.0
 * client (endpoints, scopes, what a sign-in's callback carries, what a new token covers), the key
 * its mirror is kept under, and how its reader is built. Each vendor has one (xero/descriptor.ts,
 * quickbooks/descriptor.ts), the registry holds them (vendors.ts), and the factory (index.ts), the
 * connection's reader (connections/connector.ts), its tokens (connections/tokens.ts) and the connect
 * use case (connections/connect.ts) ask it rather than the vendor's name.
 */
import type { z } from 'zod';
import type { Vendor, VendorClient } from '../domain/accounting-vendors.js';
import type { VendorLimits } from './call-budget.js';
import type { MirrorPlace } from './mirror/mirror.js';
import type { AccountingSystem } from './types.js';

/** What every vendor's settings hold: a token (as given, or the connection's in its place), where the API is, how old the mirror may be. */
export interface VendorSettings {
  accessToken: string;
  baseUrl?: string | undefined;
  mirrorMaxAgeMs?: number | undefined;
}

/** One set of books at the vendor: a Xero organisation (tenant), a QuickBooks company (realm). */
export interface VendorTenant {
  tenantId: string;
  tenantName: string;
}

/** The OAuth 2.0 client's side of a vendor (authorization code with PKCE S256, client authentication HTTP Basic). */
export interface VendorOAuth {
  /** the vendor's endpoints and the scopes asked for, which a deployment may point elsewhere (domain/accounting-vendors.ts) */
  endpoints: Omit<VendorClient, 'clientId' | 'clientSecret'>;
  /** the issuer an id_token from the vendor would name (only when openid is asked for) */
  issuer: string;
  /** what the callback must carry beyond code and state (QuickBooks: the realmId), as a problem in words; undefined when it has it */
  callbackProblem?(callback: URLSearchParams): string | undefined;
  /**
   * The scopes the connector needs that a token answer says were not granted, with the problem in
   * words (Xero says what it granted; Intuit does not); undefined when nothing is missing.
   */
  grantProblem?(granted: string | undefined): { scopes: string[]; problem: string } | undefined;
  /**
   * The books a new access token covers, asked with the token: Xero lists its tenants; QuickBooks'
   * realm, named in the callback's query string (which anyone can change), must be readable with it.
   */
  tenants(client: VendorClient, accessToken: string, callback: URLSearchParams, fetchImpl: typeof fetch): Promise<VendorTenant[]>;
  /** the form a refresh token is revoked with */
  revokeForm(refreshToken: string): Record<string, string>;
}

export interface VendorDescriptor<S extends VendorSettings = VendorSettings> {
  /** the name stored as organisations.accounting_system and accounting_connections.vendor */
  vendor: Vendor;
  /** the vendor's name in sentences: Xero, QuickBooks */
  name: string;
  /** the product's full name, for the settings page: QuickBooks Online */
  productName: string;
  /** what one set of books is called there, for a table's column: Organisation, Company */
  booksWord: string;
  /** the prefix of its environment settings: XERO_CLIENT_ID, QUICKBOOKS_CLIENT_ID */
  envPrefix: string;
  /** the calls one connection may make (call-budget.ts) */
  limits: VendorLimits;
  /** the settings an organisation may give by hand (organisations.accounting_config; tests set a token directly) */
  settings: {
    schema: z.ZodType<S>;
    /** the stored JSON text read against the schema, or an AccountingSystemError saying what is wrong */
    parse(text: string | null): S;
    /** the tenant or realm the settings read */
    tenantOf(settings: S): string;
    /** the settings of a stored connection: its tenant, and a placeholder token the connection's takes the place of */
    ofConnection(tenantId: string, baseUrl: string | undefined): S;
  };
  oauth: VendorOAuth;
  /** the key one company's mirror and call budget are kept under (domain/accounting-vendors.ts companyKey) */
  company(tenantId: string): string;
  /** the reader, reading through fetchImpl and keeping its mirror at place */
  reader(settings: S, homeCurrency: string, fetchImpl: typeof fetch, place: MirrorPlace): AccountingSystem;
  /** the methods the reader has (a connection's reader is built at its first call, connector.ts) */
  readerMethods: ReadonlySet<string | symbol>;
  /**
   * A 401 the vendor gives for want of something a refresh would not mend (Xero: a scope the token
   * was not granted), in words, and whether the connection must be made again (a read) or only this
   * call fails (a write on a connection made for reading); undefined for a 401 a refresh may mend.
   */
  refusal?(res: Response, method: string, path: string): { problem: string; reconnect: boolean } | undefined;
}

/** The methods of a reader class, for `readerMethods`. */
export function methodsOf(prototype: object): ReadonlySet<string | symbol> {
  const names = new Set<string | symbol>();
  for (let p: object | null = prototype; p && p !== Object.prototype; p = Object.getPrototypeOf(p) as object | null) {
    for (const name of Reflect.ownKeys(p)) {
      if (name === 'constructor') continue;
      const d = Object.getOwnPropertyDescriptor(p, name);
      if (d && typeof d.value === 'function') names.add(name);
    }
  }
  return names;
}
