/**
 * Writing the demo books. Transactions go to the builtin ledger through LedgerBatch (the only way
 * in), every line on a bank or card account is mirrored at once by an imported bank transaction, and
 * the service's own rows (documents, bank transactions, bills) are buffered alongside. Posting is
 * synchronous; full batches are set aside and written by drain(), which the generator awaits once
 * a month, so memory stays bounded and there is no await per row.
 */
import { insertChunked, type LedgerBatch, type LedgerWriter, type NewTransaction } from '../accounting/builtin/writer.js';
import { refreshBankDailyTotalsFor } from '../store/bank-totals.js';
import type { Store } from '../store/db.js';
import { mergeSearchTable } from '../store/search-merge.js';
import type {
  BankAccountRow,
  BankMatchRow,
  BankTransactionRow,
  BillRow,
  DocumentCodedLineRow,
  DocumentFileRow,
  DocumentInvoiceLineRow,
  DocumentRow,
} from '../store/schema.js';
import { bankTransactionRow, type BankFeed } from './banking.js';

/** Ledger lines held in memory before a batch is written. */
const FLUSH_LINES = 20_000;
/** Service rows held in memory before they are written. */
const FLUSH_SERVICE_ROWS = 10_000;

export interface PostOptions {
  /** the bank's narration; a function when the transaction touches several bank accounts */
  narration?: string | ((bank: BankAccountRow) => string);
  /** the published document the bank movement is matched to */
  documentId?: string | null;
  /** an unpublished document in the service is a likely match for the bank movement */
  suggest?: boolean;
  /**
   * The bank line arrives in the feed as these separate items (account currency, summing to the
   * line), as a day's card purchases do when they are booked as one charge. Home-currency accounts only.
   */
  feedItems?: number[];
}

export interface BookCounts {
  transactions: number;
  lines: number;
  bankTransactions: number;
  documents: number;
  bills: number;
}

export interface DocumentRows {
  document: DocumentRow;
  codedLines: DocumentCodedLineRow[];
  invoiceLines: DocumentInvoiceLineRow[];
  file: DocumentFileRow | null;
}

export class Books {
  readonly counts: BookCounts = { transactions: 0, lines: 0, bankTransactions: 0, documents: 0, bills: 0 };
  private batch: LedgerBatch;
  private full: LedgerBatch[] = [];
  /** home currency, debit positive, by ledger account id */
  private readonly balances = new Map<string, number>();
  /** the bank account's own currency, by ledger account id */
  private readonly bankBalances = new Map<string, number>();
  private bankTransactions: BankTransactionRow[] = [];
  private documents: DocumentRow[] = [];
  private codedLines: DocumentCodedLineRow[] = [];
  private invoiceLines: DocumentInvoiceLineRow[] = [];
  private files: DocumentFileRow[] = [];
  private bills: BillRow[] = [];

  constructor(
    private readonly store: Store,
    private readonly writer: LedgerWriter,
    readonly homeCurrency: string,
    /** ledger account id → the bank account it is */
    private readonly bankByLedger: Map<string, BankAccountRow>,
    private readonly feed: BankFeed,
  ) {
    this.batch = writer.batch();
  }

  /** Adds one balanced transaction (zero lines left out) and mirrors its bank lines; returns its id. */
  post(txn: NewTransaction, options: PostOptions = {}): string {
    const lines = txn.lines.filter((l) => l.amount !== 0 || (l.amountInCurrency ?? 0) !== 0);
    const id = this.batch.add({ ...txn, lines });
    this.counts.transactions += 1;
    this.counts.lines += lines.length;
    const currency = txn.currency ?? this.homeCurrency;
    for (const line of lines) {
      this.balances.set(line.accountId, (this.balances.get(line.accountId) ?? 0) + line.amount);
      const bank = this.bankByLedger.get(line.accountId);
      if (!bank) continue;
      let amount: number;
      if (bank.currency === currency) amount = line.amountInCurrency ?? line.amount;
      else if (bank.currency === this.homeCurrency) amount = line.amount;
      else throw new Error(`a ${currency} transaction cannot move the ${bank.currency} account ${bank.name}`);
      this.bankBalances.set(line.accountId, (this.bankBalances.get(line.accountId) ?? 0) + amount);
      const narration = typeof options.narration === 'function' ? options.narration(bank) : (options.narration ?? txn.description);
      const items = options.feedItems ?? [amount];
      if (options.feedItems && (bank.currency !== this.homeCurrency || items.reduce((s, a) => s + a, 0) !== amount)) {
        throw new Error(`feed items must be in the home currency and add up to the bank line on ${bank.name}`);
      }
      for (const item of items) {
        this.bankTransactions.push(
          bankTransactionRow(this.feed, {
            bank,
            date: txn.date,
            description: narration,
            amount: item,
            homeAmount: options.feedItems ? item : line.amount,
            documentId: options.documentId ?? null,
            suggest: options.suggest ?? false,
          }),
        );
      }
      this.counts.bankTransactions += items.length;
    }
    if (this.batch.size >= FLUSH_LINES) {
      this.full.push(this.batch);
      this.batch = this.writer.batch();
    }
    return id;
  }

  /** Balance of a ledger account so far, home currency, debit positive. */
  balance(accountId: string): number {
    return this.balances.get(accountId) ?? 0;
  }

  /** Balance of a bank or card account so far, in its own currency. */
  bankBalance(ledgerAccountId: string): number {
    return this.bankBalances.get(ledgerAccountId) ?? 0;
  }

  addDocument(rows: DocumentRows): void {
    this.documents.push(rows.document);
    this.codedLines.push(...rows.codedLines);
    this.invoiceLines.push(...rows.invoiceLines);
    if (rows.file) this.files.push(rows.file);
    this.counts.documents += 1;
  }

  addBill(row: BillRow): void {
    this.bills.push(row);
    this.counts.bills += 1;
  }

  private get pendingServiceRows(): number {
    return this.bankTransactions.length + this.documents.length + this.codedLines.length + this.invoiceLines.length + this.bills.length;
  }

  /** Writes the full ledger batches, and the service rows once enough have gathered; everything when final. */
  async drain(final = false): Promise<void> {
    for (const batch of this.full) await batch.flush();
    this.full = [];
    if (final) await this.batch.flush();
    if (final || this.pendingServiceRows >= FLUSH_SERVICE_ROWS) await this.writeServiceRows();
  }

  private async writeServiceRows(): Promise<void> {
    const { dialect } = this.store;
    const rows = {
      documents: this.documents,
      codedLines: this.codedLines,
      invoiceLines: this.invoiceLines,
      files: this.files,
      bankTransactions: this.bankTransactions,
      bills: this.bills,
    };
    this.documents = [];
    this.codedLines = [];
    this.invoiceLines = [];
    this.files = [];
    this.bankTransactions = [];
    this.bills = [];
    await this.store.db.transaction().execute(async (trx) => {
      await insertChunked(trx, 'documents', rows.documents, dialect);
      await mergeSearchTable(trx, 'document_supplier_search');
      await insertChunked(trx, 'document_coded_lines', rows.codedLines, dialect);
      await insertChunked(trx, 'document_invoice_lines', rows.invoiceLines, dialect);
      // a few thousand files of a few kilobytes per statement is plenty
      for (let i = 0; i < rows.files.length; i += 500) await insertChunked(trx, 'document_files', rows.files.slice(i, i + 500), dialect);
      const matches = demoMatches(rows.bankTransactions);
      await insertChunked(trx, 'bank_transactions', rows.bankTransactions, dialect);
      await insertChunked(trx, 'bank_matches', matches, dialect);
      await refreshBankDailyTotalsFor(trx, rows.bankTransactions);
      await insertChunked(trx, 'bills', rows.bills, dialect);
    });
  }
}

/**
 * The demo's lines reconciled in the service, each document's lines one match (banking.match's
 * record, so banking.unmatch can take it apart). The demo's payments are the books' own, written
 * as the accounting system's: a match here links only, and undoing it leaves the books as they are.
 */
function demoMatches(lines: BankTransactionRow[]): BankMatchRow[] {
  const byDocument = new Map<string, BankMatchRow>();
  for (const line of lines) {
    if (line.reconciled_in !== 'service' || !line.document_id) continue;
    let match = byDocument.get(line.document_id);
    if (!match) {
      match = {
        id: `bm_${line.id.replace(/^btx_/, '')}`,
        organisation_id: line.organisation_id,
        bank_account_id: line.bank_account_id,
        document_id: line.document_id,
        kind: 'document',
        amount: 0,
        difference: 0,
        difference_kind: null,
        difference_account_id: null,
        payment_id: null,
        payment_link: null,
        payment_key: null,
        bill_id: null,
        bill_amount_due_before: null,
        created_by: null,
        created_at: line.created_at,
      };
      byDocument.set(line.document_id, match);
    }
    match.amount += line.amount;
    line.match_id = match.id;
  }
  return [...byDocument.values()];
}
