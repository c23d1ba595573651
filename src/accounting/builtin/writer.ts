/**
 * The builtin accounting system, write side: accounts, contacts and balanced transactions. Monthly
 * totals per account are kept in the same database transaction as the lines they sum, so reports
 * can read them instead of the lines. The demo generator and tests write through this and nothing else.
 */
import type { Kysely, Transaction } from 'kysely';
import { isValidDate } from '../../domain/dates.js';
import { assertMinor } from '../../domain/money.js';
import { chunks } from '../../store/chunks.js';
import type { DialectCapabilities } from '../../store/dialect.js';
import { newId, nowIso } from '../../store/ids.js';
import type { AcctAccountRow, AcctContactRow, AcctLineRow, AcctTransactionRow, Database } from '../../store/schema.js';
import { ACCOUNT_TYPES, type AccountType, type Contact, type TransactionType } from '../types.js';
import { addLineAggregates } from './line-aggregates.js';

export interface NewAccount {
  id?: string;
  name: string;
  number?: string | null;
  type: AccountType;
  parentId?: string | null;
  active?: boolean;
}

export interface NewLine {
  accountId: string;
  /** home currency minor units, debit positive */
  amount: number;
  /** transaction currency minor units; defaults to amount (home-currency transactions) */
  amountInCurrency?: number;
  description?: string;
  /** defaults to the transaction's contact */
  contactId?: string | null;
  /** the line's own date (a journal's posting date); defaults to the transaction's */
  date?: string;
}

export interface NewTransaction {
  id?: string;
  type: TransactionType;
  date: string;
  number?: string | null;
  contactId?: string | null;
  description: string;
  /** defaults to the home currency */
  currency?: string;
  /** home units per unit of currency, decimal text; "1" for home currency */
  exchangeRate?: string;
  lines: NewLine[];
}

type Db = Kysely<Database> | Transaction<Database>;

export class LedgerWriter {
  private readonly accountsByName = new Map<string, AcctAccountRow>();

  constructor(
    private readonly db: Kysely<Database>,
    private readonly dialect: DialectCapabilities,
    readonly organisationId: string,
    readonly homeCurrency: string,
    private readonly makeId: (prefix: string) => string = newId,
    /** when rows are stamped as created; the demo derives it from its date */
    private readonly now: () => string = nowIso,
  ) {}

  /** Creates an account under an optional parent; full name is Parent:Child. */
  async createAccount(input: NewAccount): Promise<AcctAccountRow> {
    if (!(input.type in ACCOUNT_TYPES)) throw new Error(`unknown account type ${input.type}`);
    if (input.name.includes(':')) throw new Error(`account names cannot contain ':' (${input.name})`);
    let fullName = input.name;
    if (input.parentId) {
      const parent = await this.db
        .selectFrom('acct_accounts')
        .select(['full_name'])
        .where('id', '=', input.parentId)
        .where('organisation_id', '=', this.organisationId)
        .executeTakeFirstOrThrow();
      fullName = `${parent.full_name}:${input.name}`;
    }
    const row: AcctAccountRow = {
      id: input.id ?? this.makeId('acc'),
      organisation_id: this.organisationId,
      parent_id: input.parentId ?? null,
      name: input.name,
      full_name: fullName,
      number: input.number ?? null,
      type: input.type,
      classification: ACCOUNT_TYPES[input.type],
      active: input.active === false ? 0 : 1,
    };
    await this.db.insertInto('acct_accounts').values(row).execute();
    this.accountsByName.set(fullName, row);
    return row;
  }

  async createContact(name: string, kind: Contact['kind'], id?: string): Promise<AcctContactRow> {
    const row: AcctContactRow = { id: id ?? this.makeId('con'), organisation_id: this.organisationId, name, kind };
    await this.db.insertInto('acct_contacts').values(row).execute();
    return row;
  }

  /** Posts one balanced transaction; returns its id. */
  async post(txn: NewTransaction): Promise<string> {
    const batch = this.batch();
    const id = batch.add(txn);
    await batch.flush();
    return id;
  }

  batch(): LedgerBatch {
    return new LedgerBatch(this.db, this.dialect, this.organisationId, this.homeCurrency, this.makeId, this.now());
  }
}

/**
 * Collects transactions and writes them in few statements: the demo writes a million lines through
 * this. The lines' aggregates are summed in memory and added to the stored ones (line-aggregates.ts).
 */
export class LedgerBatch {
  private transactions: AcctTransactionRow[] = [];
  private lines: AcctLineRow[] = [];

  constructor(
    private readonly db: Kysely<Database>,
    private readonly dialect: DialectCapabilities,
    private readonly organisationId: string,
    private readonly homeCurrency: string,
    private readonly makeId: (prefix: string) => string,
    private readonly createdAt: string,
  ) {}

  get size(): number {
    return this.lines.length;
  }

  add(txn: NewTransaction): string {
    if (!isValidDate(txn.date)) throw new Error(`bad transaction date ${txn.date}`);
    if (txn.lines.length < 2) throw new Error('a transaction needs at least two lines');
    let balance = 0;
    for (const line of txn.lines) {
      assertMinor(line.amount);
      if (line.date !== undefined && !isValidDate(line.date)) throw new Error(`bad line date ${line.date}`);
      balance += line.amount;
    }
    if (balance !== 0) throw new Error(`transaction "${txn.description}" on ${txn.date} does not balance (off by ${balance})`);
    const currency = txn.currency ?? this.homeCurrency;
    if (currency !== this.homeCurrency && !txn.exchangeRate) throw new Error('a foreign-currency transaction needs an exchange rate');
    const id = txn.id ?? this.makeId('txn');
    this.transactions.push({
      id,
      organisation_id: this.organisationId,
      type: txn.type,
      number: txn.number ?? null,
      date: txn.date,
      contact_id: txn.contactId ?? null,
      description: txn.description,
      currency,
      exchange_rate: txn.exchangeRate ?? '1',
      created_at: this.createdAt,
    });
    txn.lines.forEach((line, index) => {
      this.lines.push({
        id: `${id}.${index + 1}`,
        organisation_id: this.organisationId,
        transaction_id: id,
        line_no: index + 1,
        account_id: line.accountId,
        date: line.date ?? txn.date,
        type: txn.type,
        contact_id: line.contactId === undefined ? (txn.contactId ?? null) : line.contactId,
        description: line.description ?? txn.description,
        amount: line.amount,
        amount_in_currency: line.amountInCurrency ?? line.amount,
        currency,
      });
    });
    return id;
  }

  async flush(): Promise<void> {
    if (this.transactions.length === 0) return;
    await this.db.transaction().execute((trx) => this.writeIn(trx));
  }

  /** Writes what was added inside a transaction the caller holds (an import that is one transaction). */
  async writeIn(trx: Transaction<Database>): Promise<void> {
    const transactions = this.transactions;
    const lines = this.lines;
    this.transactions = [];
    this.lines = [];
    await insertChunked(trx, 'acct_transactions', transactions, this.dialect);
    await insertChunked(trx, 'acct_lines', lines, this.dialect);
    await addLineAggregates(trx, this.dialect, lines);
  }
}

/** Inserts many rows in as few statements as the dialect's parameter limit allows. */
export async function insertChunked<T extends keyof Database>(db: Db, table: T, rows: Database[T][], dialect: DialectCapabilities): Promise<void> {
  if (rows.length === 0) return;
  const columns = Object.keys(rows[0] as object).length;
  const size = Math.max(1, Math.floor(dialect.maxParameters / columns));
  for (const chunk of chunks(rows, size))
    await db
      .insertInto(table)
      .values(chunk as any)
      .execute();
}
