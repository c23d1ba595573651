/**
 * The ledger part of a mirrored vendor's books: the builtin ledger's statements over the rows the
 * mirror wrote (ledger.ts), with the organisation prefix taken off every id on the way out and put
 * on every id on the way in, so callers see the vendor's own ids.
 */
import type { Kysely } from 'kysely';
import type { Database } from '../../store/schema.js';
import { BuiltinAccounting } from '../builtin/reader.js';
import type { Contact, DateRange, LedgerGrouping, LedgerLine, LineGroup, LineQuery } from '../types.js';
import { mirrorId } from './ledger.js';

export class MirroredLedger {
  private readonly books: BuiltinAccounting;
  private readonly prefix: string;

  constructor(
    db: Kysely<Database>,
    private readonly organisationId: string,
  ) {
    this.books = new BuiltinAccounting(db, organisationId);
    this.prefix = mirrorId(organisationId, '');
  }

  private out = (id: string): string => (id.startsWith(this.prefix) ? id.slice(this.prefix.length) : id);
  private in = (id: string): string => mirrorId(this.organisationId, id);

  private query(q: LineQuery): LineQuery {
    return {
      ...q,
      accountIds: q.accountIds.map(this.in),
      ...(q.contactIds ? { contactIds: q.contactIds.map((c) => (c === '' ? '' : this.in(c))) } : {}),
    };
  }

  /** a row the mirror wrote (an organisation that once kept the builtin ledger may still hold its own rows) */
  private mirrored = (id: string): boolean => id.startsWith(this.prefix);

  async contacts(): Promise<Contact[]> {
    return (await this.books.contacts()).filter((c) => this.mirrored(c.id)).map((c) => ({ ...c, id: this.out(c.id) }));
  }

  async accountTotals(ranges: DateRange[], accountIds?: string[]): Promise<Map<string, number[]>> {
    const totals = await this.books.accountTotals(ranges, accountIds?.map(this.in));
    return new Map([...totals].filter(([id]) => this.mirrored(id)).map(([id, amounts]) => [this.out(id), amounts]));
  }

  async lineTotals(query: LineQuery, groupBy: LedgerGrouping): Promise<LineGroup[]> {
    const groups = await this.books.lineTotals(this.query(query), groupBy);
    return groupBy === 'supplier' ? groups.map((g) => ({ ...g, key: g.key === '' ? '' : this.out(g.key) })) : groups;
  }

  async lines(query: LineQuery, limit: number, offset = 0): Promise<LedgerLine[]> {
    return (await this.books.lines(this.query(query), limit, offset)).map((l) => ({
      ...l,
      transactionId: this.out(l.transactionId),
      accountId: this.out(l.accountId),
      contactId: l.contactId === null ? null : this.out(l.contactId),
    }));
  }
}
