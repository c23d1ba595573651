/**
 * Kysely's PostgreSQL dialect with its connections' sending chosen here, at construction, rather
 * than by replacing a live client's `query` (Kysely's Dialect → Driver → DatabaseConnection split,
 * as its own dialects do). The hot statements (compiled once, prepared.ts) carry their name in
 * their traits and go as named prepared statements: the first run on a connection parses and
 * plans, the next ones only bind and execute (the token check's lookup: 330 µs to 114 µs a call
 * on 127.0.0.1); every other statement goes unnamed, as Kysely sends it. The replies of several
 * connections arrive in one turn of the event loop and go back to their requests within its
 * budget (turn-budget.ts). Transactions and savepoints are Kysely's own PostgresDriver's.
 *
 * Two pools (PgPools). A statement is named only where its generic plan was measured as good as a
 * custom one (prepared.ts GenericPlan), but PostgreSQL decides by its own estimate (`plan_cache_mode
 * = auto`): after five custom plans it keeps planning each call afresh whenever the generic plan's
 * estimated cost is the higher, which it is for lists passed as arrays (it cannot see their length):
 * the report totals' statement spent 0.65 ms of a call binding against 0.16 executing
 * (docs/performance.md). So named statements run on connections whose sessions force the generic
 * plan, and unnamed ones on connections left to plan each call for its values, as they must be (the
 * ledger's lines of several suppliers: 0.5 ms planned for their values, 80 ms generic). The pool is
 * chosen by a connection's first statement: a single statement by its own kind, a transaction
 * (which begins unnamed) on the planning pool, where its named statements are PostgreSQL's choice
 * as before.
 */
import { PostgresDialect, PostgresDriver, type CompiledQuery, type DatabaseConnection, type Driver, type QueryResult } from 'kysely';
import pg from 'pg';
import { traitsOf } from './prepared.js';
import { settledInTurn } from './turn-budget.js';

/** The connections named statements run on (their sessions force the generic plan), and those for everything else. */
export interface PgPools {
  named: pg.Pool;
  unnamed: pg.Pool;
}

/**
 * The two pools for one database, `config` as for one pool. Everything that ran before keeps its
 * `max` connections (transactions, which may hold theirs a while, and the unnamed statements); the
 * named statements, single statements that hold a connection only while they run, get half as many
 * again (at least one), so an instance opens at most one and a half times `max`. The named
 * statements' sessions are set when each connects, by a statement rather than a startup option,
 * which a pooler in between (PgBouncer) would refuse.
 */
export function namingPools(config: pg.PoolConfig): PgPools {
  const max = config.max ?? 10;
  const named = new pg.Pool({ ...config, max: Math.max(1, Math.ceil(max / 2)) });
  // queued before any statement the connection is taken for; should it fail, so will they
  named.on('connect', (client) => void client.query('set plan_cache_mode = force_generic_plan').catch(() => {}));
  return { named, unnamed: new pg.Pool({ ...config, max }) };
}

/**
 * A connection taken from a pool when its first statement is sent, from the pool its kind goes to,
 * and sending each statement named or not as its traits say. Kysely asks for a connection before it
 * knows what will run on it: a single statement, or a transaction's, or (db.connection(), which the
 * service does not use) several. Should an unnamed statement follow on a connection of the named
 * pool, the session is set to plan for values first and the connection closed when released, so no
 * session of that pool is left planning otherwise.
 */
class NamingConnection implements DatabaseConnection {
  private client: pg.PoolClient | undefined;
  private fromNamed = false;
  private replanned = false;

  constructor(private readonly pools: PgPools) {}

  async executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    const name = traitsOf(query)?.name;
    const client = this.client ?? (await this.take(name !== undefined));
    if (this.fromNamed && name === undefined && !this.replanned) {
      this.replanned = true;
      await client.query('set plan_cache_mode = auto');
    }
    const values = [...query.parameters];
    const sent = name ? client.query<R & pg.QueryResultRow>({ name, text: query.sql, values }) : client.query<R & pg.QueryResultRow>(query.sql, values);
    const { command, rowCount, rows } = await settledInTurn(sent);
    const changed = command === 'INSERT' || command === 'UPDATE' || command === 'DELETE' || command === 'MERGE';
    return { ...(changed ? { numAffectedRows: BigInt(rowCount ?? 0) } : {}), rows: rows ?? [] };
  }

  private async take(named: boolean): Promise<pg.PoolClient> {
    this.fromNamed = named;
    this.client = await (named ? this.pools.named : this.pools.unnamed).connect();
    return this.client;
  }

  release(): void {
    // a session set to plan for values leaves the named pool with the connection
    this.client?.release(this.replanned);
    this.client = undefined;
  }

  async *streamQuery<R>(): AsyncIterableIterator<QueryResult<R>> {
    throw new Error('streaming is not used by the service (no cursor is configured)');
  }
}

class NamingDriver extends PostgresDriver implements Driver {
  private pools: PgPools | undefined;

  constructor(pools: PgPools) {
    super({ pool: pools.unnamed });
    this.pools = pools;
  }

  override async init(): Promise<void> {}

  override async acquireConnection(): Promise<DatabaseConnection> {
    if (!this.pools) throw new Error('the PostgreSQL driver has already been destroyed');
    return new NamingConnection(this.pools);
  }

  override async releaseConnection(connection: DatabaseConnection): Promise<void> {
    (connection as NamingConnection).release();
  }

  override async destroy(): Promise<void> {
    const pools = this.pools;
    this.pools = undefined;
    await Promise.all([pools?.named.end(), pools?.unnamed.end()]);
  }
}

/** PostgresDialect whose driver names the statements prepared.ts compiles, each kind on its own pool (PgPools). */
export class NamingPostgresDialect extends PostgresDialect {
  constructor(private readonly pools: PgPools) {
    super({ pool: pools.unnamed });
  }

  override createDriver(): Driver {
    return new NamingDriver(this.pools);
  }
}
