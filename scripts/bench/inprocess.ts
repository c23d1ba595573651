/**
 * Measurements taken inside the benchmark process, with nothing else running: the reports with 12
 * comparisons against the single SQL statement that is their floor, every query each case sends
 * with its plan (EXPLAIN QUERY PLAN on SQLite, EXPLAIN on PostgreSQL) and time, and the token check.
 */
import { performance } from 'node:perf_hooks';
import SqliteDatabase from 'better-sqlite3';
import { CompiledQuery, Kysely, sql, SqliteDialect, type LogEvent, type RawBuilder } from 'kysely';
import { BuiltinAccounting } from '../../src/accounting/builtin/reader.js';
import type { AccountingSystem, DateRange } from '../../src/accounting/types.js';
import { splitRange } from '../../src/domain/range-split.js';
import { runOrganisationOperation } from '../../src/operations/execute.js';
import { OPERATIONS } from '../../src/operations/index.js';
import type { OrganisationOperation } from '../../src/operations/operation.js';
import { getOrganisation, toOrganisation } from '../../src/store/organisations.js';
import { namingPools, NamingPostgresDialect } from '../../src/store/pg-driver.js';
import { CAPABILITIES } from '../../src/store/dialect.js';
import type { Store } from '../../src/store/db.js';
import { keepPlannerStatistics, withStatementCache } from '../../src/store/sqlite-tuning.js';
import type { Database } from '../../src/store/schema.js';
import type { BenchCase } from './cases.js';
import { percentile } from './stats.js';

export interface CapturedQuery {
  sql: string;
  parameters: readonly unknown[];
  ms: number;
}

/** A store whose every query is recorded while `capturing` is set. */
export interface TracedStore extends Store {
  capture<T>(fn: () => Promise<T>): Promise<{ result: T; queries: CapturedQuery[] }>;
  /** the plan of one captured query, as text */
  explain(query: CapturedQuery): Promise<string>;
}

export function tracedStore(target: { sqlitePath: string } | { pgUrl: string; pgSchema: string }): TracedStore {
  let sink: CapturedQuery[] | null = null;
  const log = (event: LogEvent) => {
    if (sink && event.level === 'query') sink.push({ sql: event.query.sql, parameters: event.query.parameters, ms: event.queryDurationMillis });
  };
  const capture = async <T>(fn: () => Promise<T>) => {
    const queries: CapturedQuery[] = [];
    sink = queries;
    try {
      return { result: await fn(), queries };
    } finally {
      sink = null;
    }
  };
  if ('sqlitePath' in target) {
    const database = new SqliteDatabase(target.sqlitePath);
    database.pragma('journal_mode = WAL');
    // tuned as openStore tunes it, so the plans shown are the plans the server runs
    keepPlannerStatistics(database);
    const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: withStatementCache(database) }), log });
    return {
      db,
      dialect: CAPABILITIES.sqlite,
      close: () => db.destroy(),
      capture,
      explain: async (q) =>
        (database.prepare(`explain query plan ${q.sql}`).all(...(q.parameters as unknown[])) as { id: number; parent: number; detail: string }[])
          .map((r) => r.detail)
          .join('\n'),
    };
  }
  const pools = namingPools({ connectionString: target.pgUrl, max: 8, options: `-c search_path=${target.pgSchema}` });
  // the server's own driver: the statements compiled once (store/prepared.ts) go as named prepared statements, planned as the server plans them
  const db = new Kysely<Database>({ dialect: new NamingPostgresDialect(pools), log });
  return {
    db,
    dialect: CAPABILITIES.postgres,
    schema: target.pgSchema,
    close: () => db.destroy(),
    capture,
    explain: async (q) => {
      const result = await pools.unnamed.query(`explain ${q.sql}`, q.parameters as unknown[]);
      return result.rows.map((r: Record<string, string>) => r['QUERY PLAN']).join('\n');
    },
  };
}

async function timed(runs: number, fn: () => Promise<unknown>): Promise<number> {
  await fn();
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const began = performance.now();
    await fn();
    times.push(performance.now() - began);
  }
  return percentile(times, 0.5);
}

function operationNamed(name: string): OrganisationOperation<any, any> {
  const op = OPERATIONS.find((o) => o.name === name);
  if (!op || op.kind !== 'organisation') throw new Error(`no organisation operation ${name}`);
  return op as OrganisationOperation<any, any>;
}

function inputOf(path: string): Record<string, string> {
  return Object.fromEntries(new URL(path, 'http://x').searchParams);
}

const CLIENT = { kind: 'client', clientId: 'bench' } as const;

// --- plans ---

export interface CasePlans {
  name: string;
  queries: { sql: string; ms: number; plan: string; repeated: number }[];
  /**
   * the SQL of one call alone: each statement the call sends run by itself `runs` times on this
   * process's connection, median, times how often the call sends it, summed. What one call costs
   * the database however little the rest costs: a bound on the computed rate (1000 / sqlMs
   * requests/s per core that runs statements)
   */
  sqlMs: number;
}

/** A read statement (not transaction control); a leading comment (statedExactInJson's) does not make it anything else. */
const isRead = (text: string) => /^\s*(--[^\n]*\n\s*)*(select|with)\b/i.test(text);

/** Every query one call of each case sends, once each with its plan; `repeated` counts identical SQL (an N+1 shows here). */
export async function capturePlans(store: TracedStore, organisationId: string, today: string, cases: BenchCase[], runs: number): Promise<CasePlans[]> {
  const out: CasePlans[] = [];
  for (const c of cases) {
    if (c.operation === 'organisations') continue;
    const op = operationNamed(c.operation);
    const call = () =>
      runOrganisationOperation({ db: store.db, baseUrl: 'http://127.0.0.1', today }, op, CLIENT, organisationId, { input: inputOf(c.path), textInput: true });
    await call();
    const { queries } = await store.capture(call);
    const bySql = new Map<string, { q: CapturedQuery; count: number }>();
    for (const q of queries) {
      const seen = bySql.get(q.sql);
      if (seen) seen.count += 1;
      else bySql.set(q.sql, { q, count: 1 });
    }
    const planned = [];
    let sqlMs = 0;
    for (const { q, count } of bySql.values()) {
      // transaction control (the banking snapshot) has no plan
      const reads = isRead(q.sql);
      const plan = reads ? await store.explain(q) : '(transaction control)';
      planned.push({ sql: q.sql, ms: q.ms, plan, repeated: count });
      if (reads) sqlMs += count * (await timed(runs, () => store.db.executeQuery(CompiledQuery.raw(q.sql, [...q.parameters]))));
    }
    out.push({ name: c.name, queries: planned, sqlMs });
  }
  return out;
}

/**
 * SQLite's own work for one call of a case (bound.ts): each read statement the call sends, run alone
 * on the file (median of `runs`) with every row stepped and its values read as a plain array (no
 * object built per row, nothing handed between threads), summed. A lower bound on what the call's
 * SQL costs, whatever the rows then cost. Until 2026-11-29 (sixth session) each statement was
 * wrapped in `count(*)`, which let SQLite skip work the statement asks for: it never evaluated a
 * select list's subqueries (the bank search's match count: 5.7 ms as sent, 0.001 ms counted) and
 * counted from an index rows whose columns it then never read (an unfiltered bank page of 200:
 * 1.07 against 0.05 ms), so the bound it gave was too high.
 */
export async function sqliteOwnMs(
  store: TracedStore,
  sqlitePath: string,
  organisationId: string,
  today: string,
  benchCase: BenchCase,
  runs: number,
): Promise<number> {
  const op = operationNamed(benchCase.operation);
  const call = () =>
    runOrganisationOperation({ db: store.db, baseUrl: 'http://127.0.0.1', today }, op, CLIENT, organisationId, {
      input: inputOf(benchCase.path),
      textInput: true,
    });
  await call();
  const { queries } = await store.capture(call);
  const database = new SqliteDatabase(sqlitePath, { readonly: true });
  try {
    let ms = 0;
    for (const q of queries) {
      if (!isRead(q.sql)) continue;
      const stepped = database.prepare(q.sql).raw(true);
      ms += await timed(runs, async () => stepped.all(...(q.parameters as unknown[])));
    }
    return ms;
  } finally {
    database.close();
  }
}

// --- reports against their floor ---

export interface ReportTiming {
  name: string;
  description: string;
  /** the operation's run(), median ms */
  operationMs: number;
  /** the connector's accountTotals calls alone */
  connectorMs: number;
  /** one SQL statement over the same stored data (monthly totals, day totals of partial months) */
  floorMs: number;
  /** one SQL statement over the ledger lines only, for scale */
  linesFloorMs: number;
  ratio: number;
  statements: number;
  /** the floor's totals equal the connector's */
  checked: boolean;
}

interface TotalsCall {
  ranges: DateRange[];
  accountIds?: string[];
}

/** An accounting system that records the accountTotals calls an operation makes. */
function recording(inner: AccountingSystem, calls: TotalsCall[]): AccountingSystem {
  return {
    kind: inner.kind,
    chartOfAccounts: () => inner.chartOfAccounts(),
    contacts: () => inner.contacts(),
    accountTotals: (ranges, accountIds) => {
      calls.push({ ranges, ...(accountIds ? { accountIds } : {}) });
      return inner.accountTotals(ranges, accountIds);
    },
    lineTotals: (q, g) => inner.lineTotals(q, g),
    lines: (q, l, o) => inner.lines(q, l, o),
    check: () => inner.check(),
  };
}

/** A range as the builtin reader splits it: whole months from the monthly totals, partial months from the day totals. */
function split(range: DateRange): { months: [string, string] | null; days: [string, string][] } {
  const { months, days } = splitRange(range);
  return { months: months ? [months.from ?? '0000-00', months.to] : null, days };
}

/**
 * One statement for every range of every call: conditional sums over the stored data the report
 * needs (monthly totals, and day totals for the partial months), or, for scale, over the lines.
 */
function floorQuery(
  organisationId: string,
  calls: TotalsCall[],
  mode: 'totals' | 'lines',
): { query: RawBuilder<Record<string, number | string>>; columns: number } {
  const columns: RawBuilder<unknown>[] = [];
  const dayRanges: [string, string][] = [];
  for (const c of calls) {
    const restrict = c.accountIds ? sql`account_id in (${sql.join(c.accountIds)})` : sql`1 = 1`;
    for (const range of c.ranges) {
      let condition: RawBuilder<unknown>;
      if (mode === 'lines') {
        condition = range.from !== undefined ? sql`d >= ${range.from} and d <= ${range.to}` : sql`d <= ${range.to}`;
        dayRanges.push([range.from ?? '0000-00-00', range.to]);
      } else {
        const { months, days } = split(range);
        const parts: RawBuilder<unknown>[] = [];
        if (months) parts.push(sql`(m >= ${months[0]} and m <= ${months[1]})`);
        for (const [a, b] of days) parts.push(sql`(d >= ${a} and d <= ${b})`);
        dayRanges.push(...days);
        condition = parts.length ? sql.join(parts, sql` or `) : sql`1 = 0`;
      }
      columns.push(sql`sum(case when (${condition}) and ${restrict} then amount else 0 end) as ${sql.ref(`r${columns.length}`)}`);
    }
  }
  const days = dayRanges.length
    ? sql.join(
        dayRanges.map(([a, b]) => sql`(date >= ${a} and date <= ${b})`),
        sql` or `,
      )
    : sql`1 = 0`;
  const source =
    mode === 'lines'
      ? sql`select account_id, cast(null as text) as m, date as d, amount from acct_lines where organisation_id = ${organisationId} and (${days})`
      : sql`select account_id, month as m, cast(null as text) as d, amount from acct_month_totals where organisation_id = ${organisationId}
            union all
            select account_id, cast(null as text) as m, date as d, amount from acct_day_totals where organisation_id = ${organisationId} and (${days})`;
  return {
    query: sql<Record<string, number | string>>`select account_id, ${sql.join(columns)} from (${source}) as s group by account_id`,
    columns: columns.length,
  };
}

export async function reportTimings(store: Store, organisationId: string, today: string, runs: number): Promise<ReportTiming[]> {
  const row = (await getOrganisation(store.db, organisationId))!;
  const organisation = toOrganisation(row);
  const specs = [
    {
      name: 'P&L, 12 comparison months',
      description: 'last month and the 12 months before',
      op: 'reports.profit_and_loss',
      input: { period: 'last_month', compareBy: 'month', comparePeriods: 12 },
    },
    {
      name: 'P&L, 12 partial months',
      description: 'month to date and the same days of the 12 months before',
      op: 'reports.profit_and_loss',
      input: { period: 'custom', from: `${today.slice(0, 8)}01`, to: today, compareBy: 'month', comparePeriods: 12 },
    },
    {
      name: 'Balance sheet, 12 comparison dates',
      description: 'today and the 12 month ends before',
      op: 'reports.balance_sheet',
      input: { comparePeriods: 12 },
    },
  ];
  const out: ReportTiming[] = [];
  for (const spec of specs) {
    const op = operationNamed(spec.op);
    const calls: TotalsCall[] = [];
    const builtin = new BuiltinAccounting(store.db, organisationId);
    const ctx = { db: store.db, organisation, principal: CLIENT, today, baseUrl: 'http://127.0.0.1', accounting: recording(builtin, calls) };
    const input = op.input.parse(spec.input);
    await op.run(ctx, input);
    const captured = [...calls];
    const operationMs = await timed(runs, () => op.run({ ...ctx, accounting: builtin }, input));
    const connectorMs = await timed(runs, () => Promise.all(captured.map((c) => builtin.accountTotals(c.ranges, c.accountIds))));
    const floor = floorQuery(organisationId, captured, 'totals');
    const linesFloor = floorQuery(organisationId, captured, 'lines');
    const floorMs = await timed(runs, () => floor.query.execute(store.db));
    const linesFloorMs = await timed(Math.max(3, Math.floor(runs / 4)), () => linesFloor.query.execute(store.db));
    // the floor must compute the same numbers, or it is not the floor of this report
    const expected = await Promise.all(captured.map((c) => builtin.accountTotals(c.ranges, c.accountIds)));
    const floorRows = (await floor.query.execute(store.db)).rows;
    const linesRows = (await linesFloor.query.execute(store.db)).rows;
    const same = (rows: Record<string, number | string>[]) => {
      const byAccount = new Map(rows.map((r) => [String(r.account_id), r]));
      let column = 0;
      for (const totals of expected) {
        const width = captured[expected.indexOf(totals)]!.ranges.length;
        for (const [account, amounts] of totals) {
          for (let i = 0; i < width; i++) {
            if (Number(byAccount.get(account)?.[`r${column + i}`] ?? 0) !== amounts[i]) return false;
          }
        }
        column += width;
      }
      return true;
    };
    out.push({
      name: spec.name,
      description: spec.description,
      operationMs,
      connectorMs,
      floorMs,
      linesFloorMs,
      ratio: operationMs / floorMs,
      statements: captured.reduce((n, c) => n + c.ranges.length, 0),
      checked: same(floorRows) && same(linesRows),
    });
  }
  return out;
}

// --- the token check ---

export interface TokenCheckTiming {
  /** authenticate() of verify.ts, as the server runs it */
  microseconds: number;
  queries: number;
  statements: string[];
}

/** The bearer token check of every request, alone: queries it sends and its median time. */
export async function tokenCheckTiming(store: TracedStore, organisationId: string, today: string, runs: number): Promise<TokenCheckTiming> {
  const { buildApp } = await import('../../src/app/app.js');
  const { authenticate } = await import('../../src/auth/verify.js');
  const { createApiClient } = await import('../../src/auth/clients.js');
  const { app, service } = await buildApp({ store, baseUrl: 'http://127.0.0.1:9', today });
  try {
    const client = await createApiClient(store.db, { organisationId, name: 'Benchmark (in-process)' });
    const response = await app.inject({
      method: 'POST',
      url: '/oauth/token',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({
        grant_type: 'client_credentials',
        client_id: client.clientId,
        client_secret: client.clientSecret,
        scope: 'service.read',
      }).toString(),
    });
    const token = (response.json() as { access_token?: string }).access_token;
    if (!token) throw new Error(`no token: ${response.statusCode} ${response.body}`);
    const perCall = async (check: () => Promise<unknown>) => {
      await check();
      const { queries } = await store.capture(check);
      const began = performance.now();
      for (let i = 0; i < runs; i++) await check();
      return { microseconds: ((performance.now() - began) / runs) * 1000, queries };
    };
    const check = await perCall(() => authenticate(store.db, `Bearer ${token}`, service.resources.api));
    return { microseconds: check.microseconds, queries: check.queries.length, statements: check.queries.map((q) => q.sql) };
  } finally {
    await app.close();
  }
}
