import type { Kysely } from 'kysely';
import type { AccountingSystem } from '../accounting/types.js';
import type { IsoDate } from '../domain/dates.js';
import type { Database } from '../store/schema.js';

export { ROLES, organisationRequired, type Coverage, type Organisation, type Principal, type Role } from '../domain/access.js';
import type { Coverage, Organisation, Principal } from '../domain/access.js';

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
  /**
   * The organisation's data_version this call reads at, when it can vouch for it (a read on the
   * primary); what is kept while it stands may be served. Absent for a change and for a replica.
   */
  dataVersion?: string;
  /**
   * A create sent with an Idempotency-Key (operations/idempotent.ts): the operation hands its answer
   * here inside the transaction that writes, so the answer is kept exactly when the write is, and
   * nothing that can fail is left after the commit. Absent for every other call.
   */
  keepAnswer?: (trx: Kysely<Database>, answer: unknown) => Promise<void>;
}

/** Context of operations that do not act for one organisation (the organisation list). */
export interface CallerContext {
  db: Kysely<Database>;
  principal: Principal;
  coverage: Coverage;
}
