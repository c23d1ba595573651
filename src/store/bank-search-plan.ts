/**
 * SQLite's choice of how a bank page searches (issue 43): the trigram tables of migration 026 name
 * the lines whose narration, or whose document's supplier, may contain the term; a rare term reads
 * just those, a common one walks the period's lines as before (store/banking.ts pageQuery).
 */
import { sql, type Kysely, type RawBuilder } from 'kysely';
import { dialectOf } from './dialect.js';
import { preparedShapes } from './prepared.js';
import type { Database } from './schema.js';

/** A page's search: none, the period's lines walked and each tested, or (SQLite) the lines the trigram tables name, each tested. */
export type SearchPlan = 'none' | 'walk' | 'candidates';

/**
 * SQLite: which reads fewer, the lines the trigram tables (migration 026) name for a term (its
 * candidates, each looked up by id, tested and sorted: about 5 µs each on the 1M-line benchmark), or
 * the period's lines walked newest first until the page is full (about 0.7 µs a line, from the
 * index that carries the narration). A term on `matches` of the book's `lines` fills a page `depth`
 * deep (offset + limit) after about depth × lines / matches lines walked, so the candidates cost
 * less while matches² < WALK_PER_CANDIDATE × depth × lines: a bound that grows with the square root
 * of the books (about 1,900 for a first page of 50 at 500,000 bank lines, 5,900 at 4.9M), where a
 * fixed one would walk ever more of a growing book for the terms just above it. Below
 * CANDIDATES_AT_LEAST matches the candidates are read whatever the books (at most ~2.5 ms of them).
 * `lines` is every organisation's, as the count is (the tables have no organisation to seek by): in
 * a database of many organisations a term common in the others is walked, as every term was before.
 */
const WALK_PER_CANDIDATE = 0.7 / 5;
const CANDIDATES_AT_LEAST = 500;

/** Under how many matches a page `depth` lines deep reads its candidates, in a database of `lines` bank lines. */
export function candidateBound(depth: number, lines: number): number {
  return Math.max(CANDIDATES_AT_LEAST, Math.ceil(Math.sqrt(WALK_PER_CANDIDATE * depth * lines)));
}

/**
 * How a page `depth` lines deep (offset + limit) searches: on SQLite, reading the lines the trigram
 * tables name when the term is rare enough (candidateBound), or else walking the period's lines; on
 * PostgreSQL by the one statement pageQuery has for it (its planner chooses between its trigram
 * indexes and the walk). A term under 3 characters has no trigram (the tables match nothing for
 * it): it walks. Counting the matches up to the bound costs ~0.3-0.75 µs a match, once per page.
 */
export async function searchPlan(db: Kysely<Database>, search: string | null, depth: number): Promise<SearchPlan> {
  if (search === null) return 'none';
  // a NUL would end the FTS5 query's string early
  if (dialectOf(db) !== 'sqlite' || [...search].length < 3 || search.includes('\0')) return 'walk';
  const bound = candidateBound(depth, await linesIndexed(db));
  const [row] = await matchCountStatement(db, '', { match: ftsPhrase(search), bound });
  return Number(row!.matches) < bound ? 'candidates' : 'walk';
}

/** How long the count of indexed lines is taken as it stands: it only weighs the choice above, and moves slowly. */
const LINES_KEPT_MS = 10_000;
const linesKept = new WeakMap<object, { lines: Promise<number>; at: number }>();

/** The bank lines indexed, every organisation's: the key table's largest key, one index seek (no row is counted). */
function linesIndexed(db: Kysely<Database>): Promise<number> {
  const kept = linesKept.get(db);
  if (kept && performance.now() - kept.at < LINES_KEPT_MS) return kept.lines;
  const lines = linesStatement(db, '', {}).then(([row]) => Number(row?.lines ?? 0));
  linesKept.set(db, { lines, at: performance.now() });
  // a failed read is not kept: the next page reads again (unless a newer read has taken its place)
  lines.catch(() => {
    if (linesKept.get(db)?.lines === lines) linesKept.delete(db);
  });
  return lines;
}

const linesStatement = preparedShapes((db) => sql<{ lines: number | null }>`select max(n) as lines from bank_narration_keys`.compile(db));

/** The term as one FTS5 phrase: in double quotes, its own doubled; the trigram tokenizer takes every character inside as it is. */
export function ftsPhrase(text: string): string {
  return `"${text.replace(/"/g, '""')}"`;
}

/**
 * The narrations matching a phrase, counted up to `bound`, and the suppliers too when that leaves
 * room (a common term stops at the narrations' bound; CASE reads the second count only when needed).
 */
const matchCountStatement = preparedShapes((db, v: { match: string; bound: number }) => {
  const count = (table: 'bank_narration_search' | 'document_supplier_search') =>
    sql<number>`(select count(*) from (select 1 from ${sql.table(table)} where ${sql.table(table)} match ${v.match} limit ${v.bound}))`;
  return sql<{
    matches: number;
  }>`select case when narrations >= ${v.bound} then narrations else narrations + ${count('document_supplier_search')} end as matches
    from (select ${count('bank_narration_search')} as narrations)`.compile(db);
});

/**
 * The ids of the organisation's lines whose narration has the phrase's trigrams in order, and of
 * the lines of its documents whose supplier has them: a superset of the lines the search's `like`
 * keeps (the tokenizer folds every letter's case, `like` only ASCII's), each then tested by it.
 */
export function candidateLines(organisationId: string, match: string): RawBuilder<{ id: string }> {
  return sql<{ id: string }>`(select k.id from bank_narration_search f join bank_narration_keys k on k.n = f.rowid
      where f.bank_narration_search match ${match} and k.organisation_id = ${organisationId}
    union
    select b.id from document_supplier_search f join document_supplier_keys k on k.n = f.rowid join bank_transactions b on b.document_id = k.id
      where f.document_supplier_search match ${match} and k.organisation_id = ${organisationId})`;
}
