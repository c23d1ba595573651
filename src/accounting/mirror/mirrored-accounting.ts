/**
 * What every mirrored connector (Xero, QuickBooks) answers the same way: the ledger, its totals and
 * the contacts from the mirror's ledger rows, `changeToken` from the mirror's version, and the
 * vendor's record lists, each only once the mirror can be read. A connector extends this with its
 * own pass (a MirrorSource) and what it maps from the records: the chart, bills, documents, banks.
 */
import type { LedgerGrouping, LineGroup } from '../../domain/ledger-groups.js';
import type { Contact, DateRange, LedgerLine, LineQuery } from '../types.js';
import { keptRecords } from './kept-records.js';
import { Mirror, type MirrorPlace, type MirrorSource } from './mirror.js';
import { MirroredLedger } from './mirrored-ledger.js';

export abstract class MirroredAccounting<S> {
  private readonly mirror: Mirror<S>;
  private readonly ledger: MirroredLedger;

  constructor(
    private readonly place: MirrorPlace,
    source: MirrorSource<S>,
  ) {
    this.mirror = new Mirror(place.db, place.organisationId, source, { maxAgeMs: place.maxAgeMs });
    this.ledger = new MirroredLedger(place.db, place.organisationId);
  }

  /** One list of the vendor's records, up to date (parsed once per mirror version: kept-records.ts). */
  protected async records<T>(list: string): Promise<T[]> {
    return keptRecords<T>(this.place.db, this.place.organisationId, await this.mirror.ready(), list);
  }

  /** the mirror's version: every pass that changed something moves it */
  changeToken(): Promise<string> {
    return this.mirror.changeToken();
  }

  async contacts(): Promise<Contact[]> {
    await this.mirror.ready();
    return this.ledger.contacts();
  }

  async accountTotals(ranges: DateRange[], accountIds?: string[]): Promise<Map<string, number[]>> {
    await this.mirror.ready();
    return this.ledger.accountTotals(ranges, accountIds);
  }

  async lineTotals(query: LineQuery, groupBy: LedgerGrouping): Promise<LineGroup[]> {
    await this.mirror.ready();
    return this.ledger.lineTotals(query, groupBy);
  }

  async lines(query: LineQuery, limit: number, offset = 0): Promise<LedgerLine[]> {
    if (limit <= 0) return [];
    await this.mirror.ready();
    return this.ledger.lines(query, limit, offset);
  }
}
