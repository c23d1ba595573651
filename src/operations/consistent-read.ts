/**
 * Several statements that must agree with each other (a bank page's totals, lines and running
 * balances), read without holding a transaction where nothing changed meanwhile. The organisation's
 * data version (migration 006) moves in the same transaction as every write of its data, so when it
 * reads the same after the statements as the call read it before them, no write committed in
 * between and every statement saw the same books; when it moved, the statements run again in a
 * read-only snapshot, as they always did before.
 *
 * Why not always the snapshot: on SQLite a snapshot holds a reader's connection of its own for all
 * its statements, each a round trip through the busy main thread (store/sqlite-read-pool.ts), and
 * under load the bank page's snapshots held them 26-35 ms for about 3 ms of work, four at a time,
 * the rest waiting for one; statements alone go to any reader's shared connection.
 */
import type { Kysely } from 'kysely';
import { organisationDataVersion } from '../store/organisations.js';
import type { Database } from '../store/schema.js';
import type { OperationContext } from './context.js';

export async function consistentRead<T>(ctx: OperationContext, read: (db: Kysely<Database>) => Promise<T>): Promise<T> {
  // a change's reads, or a replica's, have no version read at the call's start to compare with
  if (ctx.dataVersion !== undefined) {
    const answer = await read(ctx.db);
    if ((await organisationDataVersion(ctx.db, ctx.organisation.id)) === ctx.dataVersion) return answer;
  }
  return ctx.db.transaction().setIsolationLevel('repeatable read').setAccessMode('read only').execute(read);
}
