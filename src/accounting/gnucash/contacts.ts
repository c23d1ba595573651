/**
 * GnuCash's business owners as contacts: vendors are suppliers, customers are customers, employees
 * (who file expense vouchers) are employees. A job is not a contact: documents of a job belong to
 * the job's owner. Ids are GnuCash's guids.
 */
import type { Contact } from '../types.js';
import type { Book } from './book.js';

/** gncOwnerType as GnuCash stores it in invoices.owner_type and jobs.owner_type (2 customer, 4 vendor, 5 employee) */
const OWNER_JOB = 3;

export function readContacts(db: Book): Contact[] {
  const rows = db
    .prepare(
      `SELECT guid AS id, name, 'supplier' AS kind FROM vendors
       UNION ALL SELECT guid, name, 'customer' FROM customers
       UNION ALL SELECT guid, coalesce(nullif(trim(addr_name), ''), nullif(trim(username), ''), id), 'employee' FROM employees`,
    )
    .all() as Contact[];
  return rows.sort((a, b) => a.name.localeCompare(b.name) || a.id.localeCompare(b.id));
}

/** Finds the contact behind a document's or a lot's owner, following a job to its owner. */
export class Owners {
  private readonly byId: Map<string, Contact>;
  private readonly jobs: Map<string, { type: number; guid: string }>;
  private readonly byName: Map<string, Contact | null>;

  constructor(db: Book, contacts: Contact[]) {
    this.byId = new Map(contacts.map((c) => [c.id, c]));
    const jobRows = db.prepare(`SELECT guid, owner_type AS type, owner_guid AS owner FROM jobs`).all() as { guid: string; type: number; owner: string }[];
    this.jobs = new Map(jobRows.map((j) => [j.guid, { type: Number(j.type), guid: j.owner }]));
    this.byName = new Map();
    for (const c of contacts) {
      const key = c.name.trim().toLowerCase();
      // a name two contacts share identifies neither
      this.byName.set(key, this.byName.has(key) ? null : c);
    }
  }

  owner(type: number, guid: string | null): Contact | undefined {
    if (!guid) return undefined;
    if (type === OWNER_JOB) {
      const job = this.jobs.get(guid);
      return job && job.type !== OWNER_JOB ? this.owner(job.type, job.guid) : undefined;
    }
    return this.byId.get(guid);
  }

  /** A transaction typed by hand names its payee in the description: exactly one contact's name. */
  named(description: string): Contact | undefined {
    return this.byName.get(description.trim().toLowerCase()) ?? undefined;
  }
}
