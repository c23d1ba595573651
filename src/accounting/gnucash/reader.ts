/**
 * The GnuCash connector: an organisation's books kept in a GnuCash SQLite book, read live and
 * read-only on every call (see book.ts). Amounts are the splits' exact fractions in the home
 * currency (amounts.ts), dates GnuCash's post dates (post-dates.ts), account types and
 * transaction types mapped as docs/gnucash.md describes.
 */
import { stat } from 'node:fs/promises';
import type {
  AccountingSystem,
  ChartAccount,
  Contact,
  DateRange,
  LedgerLine,
  LineGroup,
  LineQuery,
} from '../types.js';
import { bookName, readBook, type Book, type BookContext } from './book.js';
import { readChart } from './chart.js';
import { readContacts } from './contacts.js';
import { readLines } from './lines.js';
import { readAccountTotals } from './totals.js';

export interface GnuCashConfig {
  /** path of the GnuCash book saved as SQLite */
  bookPath: string;
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
   * GnuCash saves the book in place: its size, change time and modification time (nanoseconds),
   * and those of a write-ahead log beside it, change with every save. A book that cannot be
   * looked at gives null, so its failure is reported by the read itself and never reused.
   */
  async changeToken(): Promise<string | null> {
    const mark = async (path: string) => {
      try {
        const s = await stat(path, { bigint: true });
        return `${s.ino}:${s.size}:${s.mtimeNs}:${s.ctimeNs}`;
      } catch (error) {
        return (error as NodeJS.ErrnoException).code === 'ENOENT' ? '-' : null;
      }
    };
    const [book, wal] = await Promise.all([mark(this.config.bookPath), mark(`${this.config.bookPath}-wal`)]);
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

  lineTotals(query: LineQuery, groupBy: 'none' | 'contact' | 'month'): Promise<LineGroup[]> {
    return this.read((db, ctx) => {
      const groups = new Map<string, LineGroup>();
      for (const line of readLines(db, ctx, readChart(db, ctx), readContacts(db), query)) {
        const key = groupBy === 'none' ? '' : groupBy === 'contact' ? (line.contactId ?? '') : line.date.slice(0, 7);
        const group = groups.get(key) ?? { key, amount: 0, count: 0 };
        group.amount += line.amount;
        group.count += 1;
        groups.set(key, group);
      }
      return [...groups.values()];
    });
  }

  lines(query: LineQuery, limit: number): Promise<LedgerLine[]> {
    if (limit <= 0) return Promise.resolve([]);
    return this.read((db, ctx) => readLines(db, ctx, readChart(db, ctx), readContacts(db), query).slice(0, limit));
  }
}
