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
 * SQLite: under this many entries of the trigram tables (migration 026) matching a term, a page reads
 * just the lines they name (candidates); at this many or more it walks the period's lines newest
 * first, which a common term fills a page in quickly. Measured on the 1M-line benchmark: a
 * candidate costs about 5 µs (read from the index, its line looked up by id, the rows sorted), a
 * line walked about 0.7 µs, so at this bound the candidates cost ~10 ms at most, while a term above
 * it is on one line in 250 or more of a 500,000-line book (a page of 50: ~12,500 lines walked).
 * Counting up to the bound costs ~0.5-1.5 ms for a common term, once per page. The count is over
 * every organisation (the tables have no organisation to seek by): in a database of many
 * organisations a term common in the others is walked, as every term was before.
 */
export const SEARCH_CANDIDATES_BELOW = 2000;

/**
 * How a page searches: on SQLite, reading the lines the trigram tables name when the term is rare,
 * or else walking the period's lines; on PostgreSQL by the one statement pageQuery has for it (its
 * planner chooses between its trigram indexes and the walk). A term under 3 characters has no
 * trigram (the tables match nothing for it): it walks.
 */
export async function searchPlan(db: Kysely<Database>, search: string | null): Promise<SearchPlan> {
  if (search === null) return 'none';
  // a NUL would end the FTS5 query's string early
  if (dialectOf(db) !== 'sqlite' || [...search].length < 3 || search.includes('\0')) return 'walk';
  const [row] = await matchCountStatement(db, '', { match: ftsPhrase(search), bound: SEARCH_CANDIDATES_BELOW });
  return Number(row!.matches) < SEARCH_CANDIDATES_BELOW ? 'candidates' : 'walk';
}

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
