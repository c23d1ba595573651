/**
 * The GnuCash connector: an organisation's books kept in a GnuCash SQLite book, read live and
 * read-only on every call (see book.ts). Amounts are the splits' exact fractions in the home
 * currency (amounts.ts), dates GnuCash's post dates (post-dates.ts), account types and
 * transaction types mapped as docs/gnucash.md describes.
 */
import { open, stat } from 'node:fs/promises';
import type { IsoDate } from '../../domain/dates.js';
import { sumByKey, type LedgerGrouping, type LineGroup } from '../../domain/ledger-groups.js';
import type {
  AccountingSystem,
  ChartAccount,
  Contact,
  DateRange,
  LedgerLine,
  LineQuery,
  OpenReceivable,
  PayableBill,
  SystemBankAccount,
  SystemDocument,
} from '../types.js';
import { bookName, readBook, type Book, type BookContext } from './book.js';
import { readChart } from './chart.js';
import { readContacts } from './contacts.js';
import { readBankAccounts, readReconciledLines } from './bank-accounts.js';
import { readSystemDocuments } from './documents.js';
import { readLines } from './lines.js';
import { readPayables } from './payables.js';
import { readReceivables } from './receivables.js';
import { readAccountTotals } from './totals.js';

export interface GnuCashConfig {
  /** path of the GnuCash book saved as SQLite */
  bookPath: string;
}

/** A book changed more recently than this is not reused (file times move in steps). */
const SETTLED_MS = 2_000;

/** The SQLite header's file change counter, which every commit in rollback-journal mode moves. */
async function changeCounter(path: string): Promise<number> {
  const file = await open(path, 'r');
  try {
    const header = Buffer.alloc(4);
    await file.read(header, 0, 4, 24);
    return header.readUInt32BE(0);
  } finally {
    await file.close();
  }
}

export class GnuCashAccounting implements AccountingSystem {
  readonly kind = 'gnucash';

  constructor(
    private readonly config: GnuCashConfig,
    private readonly homeCurrency: string,
  ) {}

  private read<T>(fn: (db: Book, ctx: BookContext) => T): Promise<T> {
    return new Promise((resolve) => resolve(readBook(this.config.bookPath, this.homeCurrency, bookName(this.config.bookPath), fn)));
  }

  check(): Promise<void> {
    return this.read(() => undefined);
  }

  /**
   * GnuCash saves the book in place, as SQLite commits: the file's change counter (bytes 24-27 of
   * its header, moved by every commit), its size and times, and those of a write-ahead log beside
   * it, together change with every save. File times move in steps (a few milliseconds, whole
   * seconds on some disks), so a book written in the last two seconds is read afresh and not kept.
   * A book that cannot be looked at gives null, so its failure is reported by the read itself.
   */
  async changeToken(): Promise<string | null> {
    const now = Date.now();
    const mark = async (path: string, header: boolean) => {
      try {
        const s = await stat(path, { bigint: true });
        if (now - Number(s.mtimeMs) < SETTLED_MS) return null;
        return `${s.ino}:${s.size}:${s.mtimeNs}:${s.ctimeNs}${header ? `:${await changeCounter(path)}` : ''}`;
      } catch (error) {
        return (error as NodeJS.ErrnoException).code === 'ENOENT' ? '-' : null;
      }
    };
    const [book, wal] = await Promise.all([mark(this.config.bookPath, true), mark(`${this.config.bookPath}-wal`, false)]);
    return book === null || book === '-' || wal === null ? null : `gnucash:${book}:${wal}`;
  }

  chartOfAccounts(): Promise<ChartAccount[]> {
    return this.read(readChart);
  }

  contacts(): Promise<Contact[]> {
    return this.read((db) => readContacts(db));
  }

  accountTotals(ranges: DateRange[], accountIds?: string[]): Promise<Map<string, number[]>> {
    return this.read((db, ctx) => readAccountTotals(db, ctx, new Set(readChart(db, ctx).map((a) => a.id)), ranges, accountIds));
  }

  lineTotals(query: LineQuery, groupBy: LedgerGrouping): Promise<LineGroup[]> {
    return this.read((db, ctx) => sumByKey(groupBy, readLines(db, ctx, readChart(db, ctx), readContacts(db), query)));
  }

  /** The book is read whole on every call (lines.ts), so a page is a slice of its ordered lines. */
  lines(query: LineQuery, limit: number, offset = 0): Promise<LedgerLine[]> {
    if (limit <= 0) return Promise.resolve([]);
    return this.read((db, ctx) => readLines(db, ctx, readChart(db, ctx), readContacts(db), query).slice(offset, offset + limit));
  }

  /** Posted vendor bills and employee expense vouchers with a balance left on their lot (payables.ts). */
  payables(): Promise<PayableBill[]> {
    return this.read(readPayables);
  }

  /** Posted customer invoices and credit notes open at asAt (receivables.ts). */
  receivables(asAt: IsoDate): Promise<OpenReceivable[]> {
    return this.read((db, ctx) => readReceivables(db, ctx, asAt));
  }

  /** Posted vendor bills, credit notes and expense vouchers by invoice guid (documents.ts). */
  documents(documentIds: string[]): Promise<SystemDocument[]> {
    if (documentIds.length === 0) return Promise.resolve([]);
    return this.read((db, ctx) => readSystemDocuments(db, ctx, documentIds));
  }

  /** Bank and card accounts with their book balances at asAt: the splits posted on or before it (bank-accounts.ts). */
  bankAccounts(asAt: IsoDate): Promise<SystemBankAccount[]> {
    return this.read((db, ctx) => readBankAccounts(db, ctx, asAt));
  }

  /** Splits of a bank or card account GnuCash marks reconciled (bank-accounts.ts). */
  reconciledLines(accountId: string, from: IsoDate, to: IsoDate): Promise<{ date: IsoDate; amount: number }[]> {
    return this.read((db) => readReconciledLines(db, accountId, from, to));
  }
}
