/**
 * Suggested matches kept up to date (issue 42, item 3): the organisation's bank lines still to
 * reconcile scored against the documents they may pay (domain/match-suggestions.ts), each line's
 * suggestion written where it changed, in one transaction. Called after a bank import commits, and
 * by documents.publish, banking.match and banking.unmatch after theirs, since each changes the lines
 * or the candidates.
 *
 * Candidates: the service's published documents no line is matched to (a bill or expense claim is
 * paid by money out of its total, a receipt is money out, a supplier credit money in), and the open
 * bills and expense claims the connected system holds as its own (AccountingSystem.payables: their
 * amount due), each once: an open bill that is the system's copy of a document the service
 * published is that document.
 *
 * Bounded: the lines of the last 24 months, the newest 2,000 of each account. A payment is seldom
 * matched to a bill over a year old (the scorer gives up after 400 days), a line older than two
 * years still to reconcile was reconciled elsewhere or never will be, and a few thousand lines
 * against a few thousand documents score in about a second at most, in turns of a few
 * milliseconds between which the server's other requests run. Lines beyond the bound lose any suggestion they held.
 */
import type { Kysely } from 'kysely';
import { accountingSystemFor, type ConnectionContext } from '../../accounting/index.js';
import { AccountingSystemError, type AccountingSystem, type PayableBill } from '../../accounting/types.js';
import { addDays, addMonths, todayIn, type IsoDate } from '../../domain/dates.js';
import {
  candidateScorer,
  pickSuggestions,
  type CandidateKind,
  type LineToMatch,
  type MatchCandidate,
  type ScoredCandidate,
} from '../../domain/match-suggestions.js';
import { convertWithinBound } from '../../domain/money.js';
import {
  documentsToSuggest,
  linesHoldingSuggestions,
  linesToSuggest,
  matchedDocumentIds,
  suggestedOutside,
  suggestionColumns,
  writeSuggestions,
  type DocumentForSuggestion,
  type StoredSuggestion,
} from '../../store/bank-suggestions.js';
import { getOrganisation } from '../../store/organisations.js';
import type { Database } from '../../store/schema.js';
import { systemDocumentId } from '../documents-system.js';

export const SUGGESTION_MONTHS = 24;
export const SUGGESTION_LINES_PER_ACCOUNT = 2_000;
/** lines scored between looks at the clock, and the time the scoring holds the thread before it lets others run */
const SLICE = 10;
const TURN_MS = 8;
/** a line may pay a document up to this many days older (match-signals.ts dateSignal gives up after 400) */
const OLDEST_DOCUMENT_DAYS = 400;

export interface RefreshOptions {
  /** only these bank accounts' lines (an import's account); every account when left out */
  accountIds?: string[];
  /** the organisation's today (tests fix it); else from its time zone */
  today?: IsoDate;
}

export interface RefreshOutcome {
  lines: number;
  candidates: number;
  /** lines flagged (suggestedMatch) after the refresh */
  suggested: number;
  /** rows written */
  changed: number;
  /** the connected system's open bills could not be read: suggestions of them were left as they were */
  payablesUnread: boolean;
}

const KINDS = new Set<CandidateKind>(['bill', 'receipt', 'expense_claim', 'supplier_credit']);

function documentCandidate(d: DocumentForSuggestion, home: string): MatchCandidate | null {
  if (!KINDS.has(d.type as CandidateKind)) return null;
  const amount = Math.abs(d.total);
  const homeAmount = d.currency === home ? amount : d.exchange_rate ? convertWithinBound(amount, d.currency, d.exchange_rate, home) : null;
  return {
    id: d.id,
    kind: d.type as CandidateKind,
    supplier: d.supplier,
    number: d.number,
    date: d.date,
    dueDate: d.due_date,
    currency: d.currency,
    amount,
    homeAmount,
  };
}

/** An open bill of the system: what is still due (home currency; its own currency's original amount when foreign, the best the system tells). */
function payableCandidate(kind: string, bill: PayableBill, home: string): MatchCandidate {
  const amount = bill.currency === home ? bill.amountDue : bill.originalAmount;
  return {
    id: systemDocumentId(kind, bill.documentId),
    kind: bill.kind,
    supplier: bill.supplier,
    number: bill.number,
    date: bill.date,
    dueDate: bill.dueDate,
    currency: bill.currency,
    amount,
    homeAmount: bill.amountDue,
  };
}

export async function refreshSuggestions(
  db: Kysely<Database>,
  organisationId: string,
  accounting: AccountingSystem,
  options: RefreshOptions = {},
): Promise<RefreshOutcome> {
  const organisation = await getOrganisation(db, organisationId);
  if (!organisation) throw new Error(`no organisation ${organisationId}`);
  const home = organisation.home_currency;
  const today = options.today ?? todayIn(organisation.time_zone);
  const since = addMonths(today, -SUGGESTION_MONTHS);
  const accountIds = options.accountIds ?? null;

  // the system first, outside any transaction: another system is never waited on while the database is held
  let payables: PayableBill[] = [];
  let payablesUnread = false;
  try {
    payables = (await accounting.payables?.()) ?? [];
  } catch (error) {
    if (!(error instanceof AccountingSystemError)) throw error;
    payablesUnread = true;
  }
  const [rows, held, { documents, systemCopies }, elsewhere] = await Promise.all([
    linesToSuggest(db, organisationId, accountIds, since, SUGGESTION_LINES_PER_ACCOUNT),
    linesHoldingSuggestions(db, organisationId, accountIds),
    documentsToSuggest(db, organisationId, addDays(since, -OLDEST_DOCUMENT_DAYS)),
    // one line per document: while some accounts are scored, the others keep what they were suggested
    accountIds ? suggestedOutside(db, organisationId, accountIds) : new Set<string>(),
  ]);
  const open = payables.filter((p) => p.amountDue > 0 && !systemCopies.has(p.documentId)).map((p) => payableCandidate(accounting.kind, p, home));
  const matchedOpen = await matchedDocumentIds(
    db,
    organisationId,
    open.map((c) => c.id),
  );
  const candidates = [...documents.flatMap((d) => documentCandidate(d, home) ?? []), ...open.filter((c) => !matchedOpen.has(c.id))].filter(
    (c) => !elsewhere.has(c.id),
  );

  const lines: LineToMatch[] = rows.map((r) => ({
    id: r.id,
    date: r.date,
    description: r.description,
    amount: r.amount,
    homeAmount: r.home_amount,
    currency: r.currency,
  }));
  const score = candidateScorer(candidates);
  const scored = new Map<string, ScoredCandidate[]>();
  // the scoring is all on this thread: a few milliseconds of it at a time, the server's requests in between
  let began = performance.now();
  for (let i = 0; i < lines.length; i += SLICE) {
    for (const [id, list] of score(lines.slice(i, i + SLICE))) scored.set(id, list);
    if (performance.now() - began >= TURN_MS) {
      await new Promise((resolve) => setImmediate(resolve));
      began = performance.now();
    }
  }
  const picked = pickSuggestions(lines, candidates, scored);

  const byId = new Map(candidates.map((c) => [c.id, c]));
  const systemPrefix = `${accounting.kind}:`;
  const changes: { id: string; suggestion: StoredSuggestion | null }[] = [];
  const scoredIds = new Set<string>();
  for (const row of rows) {
    scoredIds.add(row.id);
    // the system's open bills unread: a line suggested one keeps it until they can be read again
    if (payablesUnread && row.suggested_document_id?.startsWith(systemPrefix)) continue;
    const s = picked.get(row.id) ?? null;
    const c = s ? byId.get(s.candidateId)! : null;
    const wanted: StoredSuggestion | null =
      s && c
        ? {
            suggested: s.suggested,
            documentId: c.id,
            score: s.score,
            reasons: s.reasons,
            number: c.number,
            supplier: c.supplier,
            amount: c.amount,
            currency: c.currency,
          }
        : null;
    const now = suggestionColumns(wanted);
    const same =
      now.suggested_match === row.suggested_match &&
      now.suggested_document_id === row.suggested_document_id &&
      now.suggestion_score === row.suggestion_score &&
      now.suggestion_reasons === row.suggestion_reasons;
    if (!same) changes.push({ id: row.id, suggestion: wanted });
  }
  // lines reconciled, matched or beyond the bound since they were suggested: theirs go
  for (const id of held) if (!scoredIds.has(id)) changes.push({ id, suggestion: null });

  const changed = changes.length ? await db.transaction().execute((trx) => writeSuggestions(trx, organisationId, changes)) : 0;
  return { lines: lines.length, candidates: candidates.length, suggested: [...picked.values()].filter((s) => s?.suggested).length, changed, payablesUnread };
}

/**
 * After a bank import has committed: the account's lines scored again, with the organisation's
 * connected system as the server or the command line reaches it. Never throws: the import stands
 * whatever happens here, and the next refresh (the next import, publish or match) writes what this
 * one could not; the error is handed back for the caller to log.
 */
export async function refreshAfterImport(
  db: Kysely<Database>,
  organisation: Parameters<typeof accountingSystemFor>[1],
  accountId: string,
  env: ConnectionContext & { timeoutMs?: number | undefined; today?: IsoDate | undefined } = {},
): Promise<RefreshOutcome | Error> {
  try {
    const accounting = accountingSystemFor(db, organisation, env.timeoutMs, { settings: env.settings, primary: env.primary ?? db });
    return await refreshSuggestions(db, organisation.id, accounting, { accountIds: [accountId], ...(env.today ? { today: env.today } : {}) });
  } catch (error) {
    return error instanceof Error ? error : new Error(String(error));
  }
}
