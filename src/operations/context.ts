import type { Kysely } from 'kysely';
import type { AccountingSystem } from '../accounting/types.js';
import type { IsoDate } from '../domain/dates.js';
import type { Database } from '../store/schema.js';

export const ROLES = ['super_admin', 'admin', 'submitter', 'custom'] as const;
export type Role = (typeof ROLES)[number];

export interface Organisation {
  id: string;
  name: string;
  homeCurrency: string;
  timeZone: string;
  /** 1 = January */
  fyStartMonth: number;
  accountingSystem: string;
}

/** Who is calling: a person through an app, or an organisation's own API client. */
export type Principal =
  | { kind: 'user'; userId: string; email: string; role: Role }
  | { kind: 'client'; clientId: string };

/** Which organisations the caller's token (or CLI session) covers. */
export interface Coverage {
  organisations: { id: string; name: string }[];
  /** true when it covers all of the user's organisations, including ones joined later */
  all: boolean;
}

/** A call must name its organisation when a person's connection covers several (an API client has one). */
export function organisationRequired(principal: Principal, coverage: Coverage): boolean {
  return principal.kind === 'user' && coverage.organisations.length > 1;
}

/** Everything an operation may use. The organisation is fixed before run() is called. */
export interface OperationContext {
  db: Kysely<Database>;
  organisation: Organisation;
  principal: Principal;
  /** the organisation's local date, from its time zone (tests fix it) */
  today: IsoDate;
  /** public base URL of the service, for links */
  baseUrl: string;
  accounting: AccountingSystem;
}

/** Context of operations that do not act for one organisation (the organisation list). */
export interface CallerContext {
  db: Kysely<Database>;
  principal: Principal;
  coverage: Coverage;
}
