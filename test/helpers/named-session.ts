/**
 * Reads of a PostgreSQL session's own state on the connections named statements run on
 * (store/pg-driver.ts): with a store of one connection a pool (poolSize 1), that is the one session
 * every named statement ran in. A statement sent unnamed would run on the other pool's session.
 */
import { sql, type Kysely } from 'kysely';
import { preparedQuery } from '../../src/store/prepared.js';
import type { Database } from '../../src/store/schema.js';

export interface PreparedStatement {
  name: string;
  statement: string;
  generic_plans: number;
  custom_plans: number;
}

const preparedStatementsQuery = preparedQuery((db, _v: Record<string, never>) =>
  sql<PreparedStatement>`select name, statement, generic_plans::int as generic_plans, custom_plans::int as custom_plans
    from pg_prepared_statements where name like 'ledgerline_%' and statement not like '%pg_prepared_statements%'`.compile(db),
);

/** The service's statements prepared in the named statements' session, with how each was planned. */
export function preparedStatements(db: Kysely<Database>): Promise<PreparedStatement[]> {
  return preparedStatementsQuery(db, {});
}

const flushQuery = preparedQuery((db, _v: Record<string, never>) => sql<{ flushed: null }>`select pg_stat_force_next_flush() as flushed`.compile(db));

/** The named statements' session's statistics (index scans) flushed for other sessions to read. */
export async function flushNamedSessionStats(db: Kysely<Database>): Promise<void> {
  await flushQuery(db, {});
}

const settingQuery = preparedQuery((db, _v: Record<string, never>) => sql<{ mode: string }>`select current_setting('plan_cache_mode') as mode`.compile(db));

/** The plan_cache_mode of the named statements' session. */
export async function namedSessionPlanMode(db: Kysely<Database>): Promise<string> {
  return (await settingQuery(db, {}))[0]!.mode;
}
