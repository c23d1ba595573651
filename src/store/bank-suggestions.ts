/**
 * What suggested matches read and write (operations/banking/suggestions.ts): the bank lines still
 * to reconcile, the published documents no line is matched to yet, and each line's suggestion
 * (bank_transactions.suggested_match, suggested_document_id, suggestion_score, suggestion_reasons).
 *
 * suggestion_reasons holds JSON: the reasons in words and what the suggested document showed when
 * it was suggested (number, supplier, amount, currency). banking.transactions answers a line's
 * suggestion from it alone, so a page never calls the accounting system for an open bill it holds.
 */
import type { Kysely, Transaction } from 'kysely';
import { addDays, type IsoDate } from '../domain/dates.js';
import { chunks } from './chunks.js';
import type { Database } from './schema.js';

type Db = Kysely<Database> | Transaction<Database>;

export interface LineForSuggestion {
  id: string;
  bank_account_id: string;
  date: string;
  description: string;
  amount: number;
  home_amount: number;
  currency: string;
  suggested_match: number;
  suggested_document_id: string | null;
  suggestion_score: number | null;
  suggestion_reasons: string | null;
}

/** A line's suggestion as stored: the document, its score and why, and what the document showed then. */
export interface StoredSuggestion {
  suggested: boolean;
  documentId: string;
  score: number;
  reasons: string[];
  number: string;
  supplier: string;
  /** minor units of `currency`: what the line pays (a bill's total, an open bill's amount due) */
  amount: number;
  currency: string;
}

/** Read in groups this size: each group one statement under every dialect's parameter limit. */
const GROUP = 500;

/**
 * The lines of these accounts (every account when null) still to reconcile and not matched, dated
 * `since` or later, the newest `perAccount` of each account, with the account's currency and the
 * suggestion each holds now.
 */
export async function linesToSuggest(
  db: Db,
  organisationId: string,
  accountIds: string[] | null,
  since: IsoDate,
  perAccount: number,
): Promise<LineForSuggestion[]> {
  let accounts = db.selectFrom('bank_accounts').select(['id', 'currency']).where('organisation_id', '=', organisationId);
  if (accountIds) {
    if (accountIds.length === 0) return [];
    accounts = accounts.where('id', 'in', accountIds);
  }
  const lines: LineForSuggestion[] = [];
  for (const account of await accounts.orderBy('id').execute()) {
    const rows = await db
      .selectFrom('bank_transactions')
      .select([
        'id',
        'bank_account_id',
        'date',
        'description',
        'amount',
        'home_amount',
        'suggested_match',
        'suggested_document_id',
        'suggestion_score',
        'suggestion_reasons',
      ])
      .where('organisation_id', '=', organisationId)
      .where('bank_account_id', '=', account.id)
      .where('date', '>=', since)
      .where('status', '=', 'to_reconcile')
      .where('match_id', 'is', null)
      .orderBy('date', 'desc')
      .orderBy('id', 'desc')
      .limit(perAccount)
      .execute();
    for (const r of rows) {
      lines.push({
        ...r,
        amount: Number(r.amount),
        home_amount: Number(r.home_amount),
        currency: account.currency,
        suggested_match: Number(r.suggested_match),
        suggested_document_id: r.suggested_document_id ?? null,
        suggestion_score: r.suggestion_score === null || r.suggestion_score === undefined ? null : Number(r.suggestion_score),
        suggestion_reasons: r.suggestion_reasons ?? null,
      });
    }
  }
  return lines;
}

/** The ids of these accounts' lines (every account's when null) that hold a suggestion now, of any status and date. */
export async function linesHoldingSuggestions(db: Db, organisationId: string, accountIds: string[] | null): Promise<string[]> {
  if (accountIds?.length === 0) return [];
  let query = db
    .selectFrom('bank_transactions')
    .select('id')
    .where('organisation_id', '=', organisationId)
    .where((eb) => eb.or([eb('suggested_match', '=', 1), eb('suggested_document_id', 'is not', null)]));
  if (accountIds) query = query.where('bank_account_id', 'in', accountIds);
  return (await query.execute()).map((r) => r.id);
}

/** The documents suggested (flagged) on lines of accounts other than these: taken, while only these accounts' lines are scored again. */
export async function suggestedOutside(db: Db, organisationId: string, accountIds: string[]): Promise<Set<string>> {
  let query = db
    .selectFrom('bank_transactions')
    .select('suggested_document_id')
    .where('organisation_id', '=', organisationId)
    .where('suggested_match', '=', 1)
    .where('suggested_document_id', 'is not', null);
  if (accountIds.length) query = query.where('bank_account_id', 'not in', accountIds);
  return new Set((await query.execute()).map((r) => r.suggested_document_id!));
}

export interface DocumentForSuggestion {
  id: string;
  type: string;
  supplier: string;
  number: string;
  date: string;
  due_date: string | null;
  currency: string;
  total: number;
  exchange_rate: string | null;
  accounting_document_id: string | null;
}

/**
 * The organisation's published documents dated `since` or later that no bank line is matched to:
 * neither a match (bank_matches) nor a line's own link (bank_transactions.document_id, the demo's
 * and older matches). Also the ids of every published document's system copy (accounting_document_id),
 * matched or not, so the connected system's open bill of a document the service published is not
 * taken for a second candidate.
 */
export async function documentsToSuggest(
  db: Db,
  organisationId: string,
  since: IsoDate,
): Promise<{ documents: DocumentForSuggestion[]; systemCopies: Set<string> }> {
  const published = await db
    .selectFrom('documents')
    .select([
      'id',
      'type',
      'supplier',
      'number',
      'date',
      'due_date',
      'currency',
      'total',
      'exchange_rate',
      'accounting_document_id',
      'publish_state',
      'published_at',
    ])
    .where('organisation_id', '=', organisationId)
    .where('date', '>=', since)
    .where((eb) => eb.or([eb('publish_state', '=', 'published'), eb.and([eb('publish_state', 'is', null), eb('published_at', 'is not', null)])]))
    .execute();
  const matched = new Set<string>();
  for (const group of chunks(
    published.map((d) => d.id),
    GROUP,
  )) {
    const byMatch = await db
      .selectFrom('bank_matches')
      .select('document_id')
      .where('organisation_id', '=', organisationId)
      .where('document_id', 'in', group)
      .execute();
    for (const m of byMatch) matched.add(m.document_id);
  }
  // a line is matched after its document's date (a few days' grace): the lines since then are all that can hold one
  const linked = await db
    .selectFrom('bank_transactions')
    .select('document_id')
    .where('organisation_id', '=', organisationId)
    .where('date', '>=', addDays(since, -7))
    .where('document_id', 'is not', null)
    .execute();
  for (const l of linked) matched.add(l.document_id!);
  const systemCopies = new Set(published.flatMap((d) => (d.accounting_document_id ? [d.accounting_document_id] : [])));
  const documents = published
    .filter((d) => !matched.has(d.id))
    .map((d) => ({
      id: d.id,
      type: d.type,
      supplier: d.supplier,
      number: d.number,
      date: d.date,
      due_date: d.due_date,
      currency: d.currency,
      total: Number(d.total),
      exchange_rate: d.exchange_rate ?? null,
      accounting_document_id: d.accounting_document_id ?? null,
    }));
  return { documents, systemCopies };
}

/** The ids among these that a match (bank_matches) names: an open bill of the system already matched in the service. */
export async function matchedDocumentIds(db: Db, organisationId: string, ids: string[]): Promise<Set<string>> {
  const matched = new Set<string>();
  for (const group of chunks(ids, GROUP)) {
    for (const m of await db
      .selectFrom('bank_matches')
      .select('document_id')
      .where('organisation_id', '=', organisationId)
      .where('document_id', 'in', group)
      .execute())
      matched.add(m.document_id);
  }
  return matched;
}

/** The columns a suggestion (or its absence) is stored in. */
export function suggestionColumns(s: StoredSuggestion | null) {
  if (!s) return { suggested_match: 0, suggested_document_id: null, suggestion_score: null, suggestion_reasons: null };
  return {
    suggested_match: s.suggested ? 1 : 0,
    suggested_document_id: s.documentId,
    suggestion_score: s.score,
    suggestion_reasons: JSON.stringify({ reasons: s.reasons, number: s.number, supplier: s.supplier, amount: s.amount, currency: s.currency }),
  };
}

/**
 * Writes these lines' suggestions. A suggestion is written only on a line still to reconcile and
 * not matched (one matched meanwhile keeps none); clearing is written whatever the line's state.
 */
export async function writeSuggestions(trx: Db, organisationId: string, changes: { id: string; suggestion: StoredSuggestion | null }[]): Promise<number> {
  let written = 0;
  for (const { id, suggestion } of changes) {
    let update = trx.updateTable('bank_transactions').set(suggestionColumns(suggestion)).where('organisation_id', '=', organisationId).where('id', '=', id);
    if (suggestion) update = update.where('status', '=', 'to_reconcile').where('match_id', 'is', null);
    written += Number((await update.executeTakeFirst()).numUpdatedRows);
  }
  return written;
}

/** A line's stored suggestion, or null when it holds none (or what it holds cannot be read). */
export function readSuggestion(
  row: Pick<LineForSuggestion, 'suggested_match' | 'suggested_document_id' | 'suggestion_score' | 'suggestion_reasons'>,
): StoredSuggestion | null {
  if (!row.suggested_document_id || row.suggestion_reasons === null || row.suggestion_reasons === undefined) return null;
  try {
    const held = JSON.parse(row.suggestion_reasons) as Partial<Omit<StoredSuggestion, 'suggested' | 'documentId' | 'score'>>;
    if (!Array.isArray(held.reasons) || typeof held.amount !== 'number' || typeof held.currency !== 'string') return null;
    return {
      suggested: Number(row.suggested_match) === 1,
      documentId: row.suggested_document_id,
      score: Number(row.suggestion_score ?? 0),
      reasons: held.reasons.map(String),
      number: String(held.number ?? ''),
      supplier: String(held.supplier ?? ''),
      amount: held.amount,
      currency: held.currency,
    };
  } catch {
    return null;
  }
}
