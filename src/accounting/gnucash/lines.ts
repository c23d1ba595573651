/**
 * Ledger lines: one per split on the asked accounts in the period, typed by its transaction (see
 * transaction-types.ts), with the transaction's contact, number and description. Read per call:
 * the splits of the accounts and dates asked for, then what classifies their transactions.
 */
import { minorDigits } from '../../domain/money.js';
import type { ChartAccount, Contact, LedgerLine, LineQuery } from '../types.js';
import { AccountingSystemError } from '../types.js';
import { convertedSplits, homeAmount, type ValuedSplit } from './amounts.js';
import type { Book, BookContext } from './book.js';
import { Owners } from './contacts.js';
import { COUNTED } from './counted.js';
import { fraction, toSafeNumber, toUnits } from './fractions.js';
import { bookDate, postDateCondition } from './post-dates.js';
import { transactionType, type TransactionFacts } from './transaction-types.js';

interface CandidateRow extends ValuedSplit {
  guid: string;
  tx_guid: string;
  account_guid: string;
  memo: string | null;
  num: string | null;
  post_date: string;
  description: string | null;
  currency: string;
}

interface TxSplitRow {
  guid: string;
  tx_guid: string;
  account_guid: string;
  value_num: bigint;
  value_denom: bigint;
  lot_guid: string | null;
}

interface DocumentRow {
  guid: string;
  id: string;
  billing_id: string | null;
  owner_type: bigint;
  owner_guid: string | null;
  post_txn: string;
  credit_note: bigint;
}

const json = (values: Iterable<string>) => JSON.stringify([...new Set(values)]);

/** Every line matching the query, newest first (date, then transaction, then line number). */
export function readLines(db: Book, ctx: BookContext, chart: ChartAccount[], contacts: Contact[], query: LineQuery): LedgerLine[] {
  if (query.accountIds.length === 0 || query.types.length === 0) return [];
  const dates = postDateCondition('t.post_date', query.from, query.to);
  const candidates = db
    .prepare(
      `SELECT s.guid, s.tx_guid, s.account_guid, s.memo, t.num, t.post_date, t.description, c.mnemonic AS currency,
              a.commodity_guid AS account_commodity, t.currency_guid AS tx_currency,
              s.value_num, s.value_denom, s.quantity_num, s.quantity_denom
       FROM splits s
       JOIN transactions t ON t.guid = s.tx_guid
       JOIN accounts a ON a.guid = s.account_guid
       JOIN commodities c ON c.guid = t.currency_guid
       WHERE s.account_guid IN (SELECT value FROM json_each(@accounts)) AND ${dates.sql} AND ${COUNTED}`,
    )
    .safeIntegers(true)
    .all({ ...dates.params, accounts: json(query.accountIds) }) as CandidateRow[];
  if (candidates.length === 0) return [];
  const txIds = json(candidates.map((c) => c.tx_guid));

  const txSplits = db
    .prepare(
      `SELECT s.guid, s.tx_guid, s.account_guid, s.value_num, s.value_denom, s.lot_guid
       FROM splits s WHERE s.tx_guid IN (SELECT value FROM json_each(@ids)) AND s.reconcile_state <> 'v'
       ORDER BY s.tx_guid, s.rowid`,
    )
    .safeIntegers(true)
    .all({ ids: txIds }) as TxSplitRow[];
  const documents = db
    .prepare(
      `SELECT i.guid, i.id, i.billing_id, i.owner_type, i.owner_guid, i.post_txn,
              EXISTS (SELECT 1 FROM slots k WHERE k.obj_guid = i.guid AND k.name = 'credit-note' AND k.int64_val <> 0) AS credit_note
       FROM invoices i WHERE i.post_txn IN (SELECT value FROM json_each(@ids))`,
    )
    .safeIntegers(true)
    .all({ ids: txIds }) as DocumentRow[];
  const txnTypes = new Map(
    (
      db
        .prepare(`SELECT obj_guid, string_val FROM slots WHERE name = 'trans-txn-type' AND obj_guid IN (SELECT value FROM json_each(@ids))`)
        .all({ ids: txIds }) as { obj_guid: string; string_val: string | null }[]
    ).map((r) => [r.obj_guid, r.string_val]),
  );
  const owners = new Owners(db, contacts);
  const lotOwners = readLotOwners(db, owners, txSplits);
  const entryText = readEntryDescriptions(db, documents);
  const converted = new Map(
    convertedSplits(db, ctx, {
      txGuids: [...new Set(candidates.filter((c) => homeAmount(c, ctx) === undefined).map((c) => c.tx_guid))],
    }).map((c) => [c.guid, c.amount]),
  );

  const types = new Map(chart.map((a) => [a.id, a.type]));
  const splitsByTx = new Map<string, TxSplitRow[]>();
  for (const s of txSplits) {
    const list = splitsByTx.get(s.tx_guid) ?? [];
    list.push(s);
    splitsByTx.set(s.tx_guid, list);
  }
  const documentByTx = new Map(documents.map((d) => [d.post_txn, d]));

  const transactions = new Map<string, { type: LedgerLine['type']; contact: Contact | undefined; number: string | null }>();
  const describe = (txGuid: string, row: CandidateRow) => {
    let known = transactions.get(txGuid);
    if (known) return known;
    const doc = documentByTx.get(txGuid);
    const splits = splitsByTx.get(txGuid) ?? [];
    const docOwner = doc ? owners.owner(Number(doc.owner_type), doc.owner_guid) : undefined;
    const facts: TransactionFacts = {
      txnType: txnTypes.get(txGuid) ?? null,
      num: row.num,
      splits: splits.flatMap((s) => {
        const type = types.get(s.account_guid);
        return type ? [{ type, value: fraction(s.value_num, s.value_denom) }] : [];
      }),
      ...(doc ? { document: { ownerKind: docOwner?.kind, creditNote: doc.credit_note !== 0n } } : {}),
    };
    const type = transactionType(facts);
    const contact =
      docOwner ??
      (type === 'payment' ? splits.map((s) => (s.lot_guid ? lotOwners.get(s.lot_guid) : undefined)).find((c) => c !== undefined) : undefined) ??
      (type !== 'payment' && type !== 'invoice' ? owners.named(row.description ?? '') : undefined);
    const number = doc ? (docOwner?.kind !== 'customer' && doc.billing_id?.trim() ? doc.billing_id.trim() : doc.id) : row.num?.trim() || null;
    known = { type, contact, number };
    transactions.set(txGuid, known);
    return known;
  };
  const lineNo = new Map<string, number>();
  for (const list of splitsByTx.values()) list.forEach((s, i) => lineNo.set(s.guid, i + 1));

  const wantedTypes = new Set(query.types);
  const wantedContacts = query.contactIds ? new Set(query.contactIds) : undefined;
  const lines: LedgerLine[] = [];
  for (const row of candidates) {
    const tx = describe(row.tx_guid, row);
    if (!wantedTypes.has(tx.type)) continue;
    if (wantedContacts && !wantedContacts.has(tx.contact?.id ?? '')) continue;
    const doc = documentByTx.get(row.tx_guid);
    const amount = homeAmount(row, ctx) ?? converted.get(row.guid);
    if (amount === undefined) throw new AccountingSystemError(`the GnuCash split ${row.guid} could not be converted to ${ctx.homeCurrency}`);
    lines.push({
      transactionId: row.tx_guid,
      lineNo: lineNo.get(row.guid) ?? 0,
      date: bookDate(row.post_date),
      type: tx.type,
      number: tx.number,
      contactId: tx.contact?.id ?? null,
      contactName: tx.contact?.name ?? null,
      description: row.memo?.trim() || (doc ? entryText.get(`${doc.guid}/${row.account_guid}`) : undefined) || (row.description ?? ''),
      accountId: row.account_guid,
      amount: toSafeNumber(amount),
      currency: row.currency,
      amountInCurrency: toSafeNumber(toUnits(fraction(row.value_num, row.value_denom), 10n ** BigInt(minorDigits(row.currency)))),
      link: null,
      // a bill, credit note or expense voucher is a document documents.get can show (payables.ts)
      documentId: doc && tx.contact?.kind !== 'customer' && (tx.type === 'bill' || tx.type === 'supplier_credit') ? doc.guid : null,
    });
  }
  return lines.sort((a, b) => b.date.localeCompare(a.date) || b.transactionId.localeCompare(a.transactionId) || a.lineNo - b.lineNo);
}

/** The owner of each lot a payment split settles: the lot's own owner record, or its document's owner. */
function readLotOwners(db: Book, owners: Owners, splits: TxSplitRow[]): Map<string, Contact> {
  const lots = [...new Set(splits.map((s) => s.lot_guid).filter((l): l is string => l !== null))];
  const out = new Map<string, Contact>();
  if (lots.length === 0) return out;
  const rows = db
    .prepare(
      `SELECT t.obj_guid AS lot, t.int64_val AS type, g.guid_val AS owner FROM slots t JOIN slots g ON g.obj_guid = t.obj_guid
       WHERE t.name = 'gncOwner/owner-type' AND g.name = 'gncOwner/owner-guid' AND t.obj_guid IN (SELECT value FROM json_each(@lots))
       UNION ALL
       SELECT post_lot, owner_type, owner_guid FROM invoices WHERE post_lot IN (SELECT value FROM json_each(@lots))`,
    )
    .all({ lots: JSON.stringify(lots) }) as { lot: string; type: number; owner: string | null }[];
  for (const r of rows) {
    const contact = owners.owner(Number(r.type), r.owner);
    if (contact && !out.has(r.lot)) out.set(r.lot, contact);
  }
  return out;
}

/**
 * What a document's entries coded to an account say, keyed "document/account": GnuCash posts a
 * bill's entries on one account as one split with no memo, so this is the line's description.
 */
function readEntryDescriptions(db: Book, documents: DocumentRow[]): Map<string, string> {
  const out = new Map<string, string>();
  if (documents.length === 0) return out;
  const rows = db
    .prepare(
      `SELECT coalesce(bill, invoice) AS document, CASE WHEN bill IS NOT NULL THEN b_acct ELSE i_acct END AS account, description
       FROM entries WHERE bill IN (SELECT value FROM json_each(@docs)) OR invoice IN (SELECT value FROM json_each(@docs))
       ORDER BY rowid`,
    )
    .all({ docs: json(documents.map((d) => d.guid)) }) as { document: string; account: string | null; description: string | null }[];
  for (const r of rows) {
    const text = r.description?.trim();
    if (!text || !r.account) continue;
    const key = `${r.document}/${r.account}`;
    out.set(key, out.has(key) ? `${out.get(key)}; ${text}` : text);
  }
  return out;
}
