/**
 * SQLite's choice of how a bank page searches (issue 43): the trigram tables of migration 026,
 * numbered by scope since 030, name the lines whose narration, or whose document's supplier, may
 * contain the term; a term rare in the accounts asked about reads just those, a common one walks the
 * period's lines as before (store/banking.ts pageQuery).
 */
import { sql, type Kysely, type RawBuilder } from 'kysely';
import { dialectOf } from './dialect.js';
import { paddedSet, preparedShapes } from './prepared.js';
import { cachePerHandle, storeOf } from './versioned-cache.js';
import { MONTH_SIZE, monthPart, monthSlot } from './migrations/032-narration-search-by-month.js';
import type { Database } from './schema.js';
import type { SearchTable } from './search-merge.js';

/**
 * A page's search: none; the period's lines walked and each tested, its document's supplier looked
 * up line by line (`walk`) or (SQLite) from the organisation's few matching documents, read first
 * from the trigram table (`walk-known-suppliers`); or (SQLite) the lines the trigram tables name,
 * each tested (`candidates`).
 */
export type SearchPlan = 'none' | 'walk' | 'walk-known-suppliers' | 'candidates';

/**
 * SQLite: which reads fewer, the lines the trigram tables (migration 026) name for a term in the
 * accounts asked about (its candidates, each looked up by id, tested and sorted: about 5 µs each on
 * the 1M-line benchmark), or those accounts' lines of the period walked newest first until the page
 * is full (about 0.7 µs a line, from the index that carries the narration). A term on `matches` of
 * the accounts' `lines` fills a page `depth` deep (offset + limit) after about depth × lines /
 * matches lines walked, so the candidates cost less while matches² < WALK_PER_CANDIDATE × depth ×
 * lines: a bound that grows with the square root of the accounts' lines (about 1,900 for a first
 * page of 50 at 500,000 lines, 5,900 at 4.9M), where a fixed one would walk ever more of a growing
 * book for the terms just above it. Below CANDIDATES_AT_LEAST matches the candidates are read
 * whatever the books (at most ~2.5 ms of them). Matches and lines are the scopes' own (migration
 * 030): a term common elsewhere but rare in the accounts asked about is read as candidates.
 */
const WALK_PER_CANDIDATE = 0.7 / 5;
const CANDIDATES_AT_LEAST = 500;
/** The most documents a walk reads its matching suppliers from first (about 0.3 ms of them). */
const KNOWN_SUPPLIERS_AT_MOST = 100;

/** Under how many matches a page `depth` lines deep reads its candidates, over accounts of `lines` bank lines. */
export function candidateBound(depth: number, lines: number): number {
  return Math.max(CANDIDATES_AT_LEAST, Math.ceil(Math.sqrt(WALK_PER_CANDIDATE * depth * lines)));
}

/** What a search is asked over: the organisation, its accounts named (null: every account) and the period's first and last days. */
export interface SearchScope {
  organisationId: string;
  accountIds: string[] | null;
  from: string;
  to: string;
  search: string | null;
}

/**
 * How a page `depth` lines deep (offset + limit) searches: on SQLite, reading the lines the trigram
 * tables name when the term is rare enough in the accounts asked about (candidateBound), or else
 * walking the period's lines; on PostgreSQL by the one statement pageQuery has for it (its planner
 * chooses between its trigram indexes and the walk). A term under 3 characters has no trigram (the
 * tables match nothing for it): it walks. The matches in the scopes are counted up to the bound
 * (0.2-6 ms for a common term at 1M lines), and the scopes' entries read, once in ten seconds.
 */
export async function searchPlan(db: Kysely<Database>, scope: SearchScope, depth: number): Promise<SearchPlan> {
  const { search } = scope;
  if (search === null) return 'none';
  // a NUL would end the FTS5 query's string early
  if (dialectOf(db) !== 'sqlite' || [...search].length < 3 || search.includes('\0')) return 'walk';
  // the lines of the period's months in the accounts asked about
  const [fromPart, toPart] = [monthPart(scope.from), monthPart(scope.to)];
  const asked = scope.accountIds === null ? null : new Set(scope.accountIds);
  let lines = 0;
  for (const e of await narrationEntries(db, scope.organisationId))
    if ((asked === null || asked.has(e.account)) && e.part >= fromPart && e.part <= toPart) lines += e.next;
  const bound = candidateBound(depth, lines);
  const { narrations, suppliers } = await matchCounts(db, scope, search, bound);
  if (narrations + suppliers < bound) return 'candidates';
  // a walked line with a document looks its supplier up (~2-3 µs); the matching documents read first
  // cost ~3 µs each, then a probe in memory a line. Which is cheaper turns on how far the walk goes,
  // which the capped counts cannot tell (a term in 126,678 narrations and 3,034 suppliers fills its
  // page after a few lines: 0.12 ms walked against 3.65 ms for the set), so the set is read only
  // when it costs next to nothing whatever the walk: a term in few suppliers or none (remittance,
  // every account, reconciled, page 3 of 200 at 1M lines: 21.7 → 4.4 ms)
  return suppliers <= KNOWN_SUPPLIERS_AT_MOST ? 'walk-known-suppliers' : 'walk';
}

type ScopeShape = 'organisation' | 'accounts';
interface ScopeValues extends PeriodRange {
  organisationId: string;
  /** padded to a few lengths (a set: a repeated one changes nothing) */
  accountIds: string[];
}

/** Where the period's months lie within each account's range of rowids (migration 032): from its base + fromOffset to before its base + toOffset. */
export interface PeriodRange {
  fromOffset: number;
  toOffset: number;
}

export const periodRange = (period: { from: string; to: string }): PeriodRange => ({
  fromOffset: MONTH_SIZE * monthSlot(monthPart(period.from)),
  toOffset: MONTH_SIZE * (monthSlot(monthPart(period.to)) + 1),
});

const scopeValues = (scope: Pick<SearchScope, 'organisationId' | 'accountIds' | 'from' | 'to'>): ScopeValues => ({
  organisationId: scope.organisationId,
  accountIds: scope.accountIds === null ? [] : paddedSet(scope.accountIds),
  ...periodRange(scope),
});

/** The narration scopes (migration 032: an account's own row, part '') of the organisation's accounts asked about. */
function narrationScopes(v: ScopeValues, shape: ScopeShape): RawBuilder<unknown> {
  const accounts = shape === 'accounts' ? sql` and s.scope_id in (${sql.join(v.accountIds)})` : sql``;
  return sql`s.search = 'bank_narration' and s.organisation_id = ${v.organisationId}${accounts} and s.part = ''`;
}

/**
 * An account's entries of the period's months: one range, which FTS5 seeks to. The offsets are cast
 * to integers: a JavaScript number is bound as a REAL, and FTS5 takes a rowid bound only as an
 * integer (with a REAL it reads the term's every match and leaves the range to SQLite: 1.2 ms
 * against 0.04 for one scope of a common term).
 */
const rowidInPeriod = (v: PeriodRange) => sql`f.rowid >= s.base + cast(${v.fromOffset} as integer) and f.rowid < s.base + cast(${v.toOffset} as integer)`;

/**
 * How long the counts that weigh the choice above (an organisation's narration entries, a term's
 * matches) are taken as they stand: they only choose between two ways to the same rows, and move
 * slowly. A search paged through (an assistant reading page after page) counts once.
 */
const COUNTS_KEPT_MS = 10_000;
/** Organisations whose counts are kept at once (the least recently read go first). */
const COUNTS_KEPT = 1000;
const entriesKept = cachePerHandle<number, MonthEntries[]>(COUNTS_KEPT);
const matchesKept = cachePerHandle<number, MatchCounts>(COUNTS_KEPT);

/** Each ten seconds' slot stands for a version: a count is read again in the next one. */
const countsSlot = () => Math.floor(performance.now() / COUNTS_KEPT_MS);

/** The narration entries ever made in a month of an account (its row's `next`). */
interface MonthEntries {
  account: string;
  /** yyyy-MM */
  part: string;
  next: number;
}

/** The narration entries ever made in each month of each of the organisation's accounts: the lines the walk is weighed by. */
function narrationEntries(db: Kysely<Database>, organisationId: string): Promise<MonthEntries[]> {
  return entriesKept(storeOf(db)).get(organisationId, countsSlot(), '', () =>
    entriesStatement(db, '', { organisationId }).then((rows) => rows.map((r) => ({ account: r.scope_id, part: r.part, next: Number(r.next) }))),
  );
}

/** A term's matches in the narrations of the accounts asked about and in the organisation's suppliers, each scope's counted up to `bound`. */
interface MatchCounts {
  narrations: number;
  suppliers: number;
  bound: number;
}

/**
 * The term's match counts, kept for the slot. Counts under their bound are exact and serve any
 * bound; a capped count serves a bound no larger (the term is as common for it), and a larger one
 * (a deeper page) counts again.
 */
async function matchCounts(db: Kysely<Database>, scope: SearchScope, search: string, bound: number): Promise<MatchCounts> {
  const kept = matchesKept(storeOf(db));
  const slot = countsSlot();
  const shape: ScopeShape = scope.accountIds === null ? 'organisation' : 'accounts';
  const accounts = scope.accountIds === null ? '*' : [...new Set(scope.accountIds)].sort().join(',');
  const key = `${accounts}\0${monthPart(scope.from)}\0${monthPart(scope.to)}\0${search}`;
  const count = (upTo: number) => async (): Promise<MatchCounts> => {
    const [row] = await matchCountStatement(db, shape, { ...scopeValues(scope), match: ftsPhrase(search), bound: upTo });
    return { narrations: Number(row!.narrations), suppliers: Number(row!.suppliers), bound: upTo };
  };
  const first = await kept.get(scope.organisationId, slot, key, count(bound));
  if (first.narrations + first.suppliers < first.bound || bound <= first.bound) return first;
  return kept.get(scope.organisationId, slot, `${key}\0${bound}`, count(bound));
}

const entriesStatement = preparedShapes((db, v: { organisationId: string }) =>
  sql<{ scope_id: string; part: string; next: number }>`select scope_id, part, next from text_search_scopes
    where search = 'bank_narration' and organisation_id = ${v.organisationId} and part <> ''`.compile(db),
);

/** The term as one FTS5 phrase: in double quotes, its own doubled; the trigram tokenizer takes every character inside as it is. */
export function ftsPhrase(text: string): string {
  return `"${text.replace(/"/g, '""')}"`;
}

/** `f`, a trigram table, matching the phrase that follows. */
const ftsMatch = (table: SearchTable) => sql`f.${sql.table(table)} match`;
/** The organisation's suppliers: FTS5 seeks the term's matches to their scope's range of rowids (migration 032). */
const rowidInScope = sql`f.rowid >= s.base and f.rowid < s.base + s.next`;

/**
 * The narrations matching a phrase in the scopes asked about, and the organisation's suppliers, each
 * scope counted up to `bound` (FTS5 stops reading a common term there).
 */
const matchCountStatement = preparedShapes((db, v: ScopeValues & { match: string; bound: number }, shape: ScopeShape) => {
  const counted = (table: SearchTable, scopes: RawBuilder<unknown>, range: RawBuilder<unknown>) =>
    sql<number>`(select coalesce(sum((select count(*) from (select 1 from ${sql.table(table)} f
      where ${ftsMatch(table)} ${v.match} and ${range} limit ${v.bound}))), 0)
    from text_search_scopes s where ${scopes})`;
  const narrations = counted('bank_narration_search', narrationScopes(v, shape), rowidInPeriod(v));
  const suppliers = counted('document_supplier_search', supplierScope(v.organisationId), rowidInScope);
  return sql<{ narrations: number; suppliers: number }>`select ${narrations} as narrations, ${suppliers} as suppliers`.compile(db);
});

/** The organisation's supplier scope (migration 032). */
const supplierScope = (organisationId: unknown) =>
  sql`s.search = 'document_supplier' and s.organisation_id = ${organisationId} and s.scope_id = '' and s.part = ''`;

/**
 * The ids of the organisation's documents whose supplier has the phrase's trigrams in order: a
 * superset of those the search's `like` keeps, each then tested by it (pageQuery).
 */
export function supplierCandidates(organisationId: string, match: string): RawBuilder<{ id: string }> {
  return sql<{ id: string }>`select k.id from text_search_scopes s cross join document_supplier_search f cross join document_supplier_keys k
      where ${supplierScope(organisationId)} and ${ftsMatch('document_supplier_search')} ${match} and ${rowidInScope} and k.n = f.rowid
        and k.organisation_id = ${organisationId}`;
}

/**
 * The ids of the lines whose narration has the phrase's trigrams in order, in the scopes asked
 * about, and of the lines of the organisation's documents whose supplier has them: a superset of the
 * lines the search's `like` keeps (the tokenizer folds every letter's case, `like` only ASCII's),
 * each then tested by it (and by the page's account, dates and status). Each account's matches
 * of the period's months are read from their range of rowids (cross joins: the scopes first, then
 * the table seeked by them); the suppliers' of any date (their lines' dates are the page's test).
 */
export function candidateLines(organisationId: string, accountIds: string[] | null, period: PeriodRange, match: string): RawBuilder<{ id: string }> {
  // the page statement's placeholders, compiled with it (the ids not padded again here; each named: a spread would not see them)
  const v: ScopeValues = { organisationId, accountIds: accountIds ?? [], fromOffset: period.fromOffset, toOffset: period.toOffset };
  return sql<{ id: string }>`(select k.id from text_search_scopes s cross join bank_narration_search f cross join bank_narration_keys k
      where ${narrationScopes(v, accountIds === null ? 'organisation' : 'accounts')}
        and ${ftsMatch('bank_narration_search')} ${match} and ${rowidInPeriod(v)} and k.n = f.rowid and k.organisation_id = ${organisationId}
    union
    select b.id from (${supplierCandidates(organisationId, match)}) c cross join bank_transactions b where b.document_id = c.id)`;
}
