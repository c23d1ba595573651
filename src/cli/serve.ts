/**
 * `ledgerline serve`: migrate, load the demo into an empty database, and listen. With REDIS_URL the
 * rate-limit counters are shared by every instance; with DATABASE_READ_URL the operations read from
 * a replica. SIGTERM/SIGINT stop accepting, finish the requests in flight, then close.
 *
 * The settings are tried first (start-checks.ts): a database that cannot be reached, a Redis that
 * refuses REDIS_URL's credentials, or a HOST/PORT that cannot be listened on ends the command in one
 * line naming the setting, within seconds. The server's own modules (the OAuth server, the pages,
 * the operations) are loaded only after the database answered.
 */
import type { Redis } from 'ioredis';
import { ConfigError, loadConfig, type Config } from '../config.js';
import { DEMO_PASSWORD, DEMO_USERS } from '../demo/users.js';
import { todayIn } from '../domain/dates.js';
import { createLogger, type Logger } from '../calls/logger.js';
import type { Store } from '../store/db.js';
import { writeStamps } from '../store/deferred-stamps.js';
import { listOrganisations } from '../store/organisations.js';
import { findUserByEmail, organisationsOfUser } from '../store/users.js';
import {
  boundUrl,
  checkListen,
  isRedisSettingError,
  listenProblem,
  migrateChecked,
  openCheckedReplica,
  openCheckedStore,
  reasonOf,
  shownUrl,
} from './start-checks.js';

/**
 * The demo sign-ins, on every start while the demo users exist (not only on the start that made
 * them), each with the roles it holds now, so a reader knows whom to sign in as to reach settings.
 */
async function demoSignIns(store: Store, baseUrl: string): Promise<string> {
  const lines = [];
  for (const u of DEMO_USERS) {
    const user = await findUserByEmail(store.db, u.email);
    if (!user) continue;
    const roles = (await organisationsOfUser(store.db, user.id)).map((o) => `${o.role.replace('_', ' ')} of ${o.name}`);
    lines.push(`  ${u.email.padEnd(28)} ${roles.join('; ') || 'no organisation'}`);
  }
  if (!lines.length) return '';
  return (
    `Demo sign-in at ${baseUrl}/signin, each with the password "${DEMO_PASSWORD}" unless it was changed (super admins and admins see organisation ` +
    `settings):\n${lines.join('\n')}\n`
  );
}

/**
 * Redis at REDIS_URL, connected before the server listens (a call counted before the first
 * connection would read as a degradation). Credentials or a database number Redis refuses are a
 * setting to fix: the start fails. Redis merely away is an outage: the start goes on, limits hold
 * per instance until it answers (logged, and the metric says so).
 */
async function connectCheckedRedis(url: string, logger: Logger, opened: (() => unknown)[]): Promise<Redis> {
  const { connectRedis } = await import('../calls/redis-counters.js');
  const redis = connectRedis(url);
  opened.push(() => redis.disconnect());
  redis.on('error', () => {}); // reported through the fallback and the lines below, not as unhandled errors
  const first = await firstAnswer(redis, 2000);
  if (first.refused) throw new ConfigError(`cannot use Redis at REDIS_URL (${shownUrl(url)}): ${first.refused.message}`);
  if (!first.ready)
    logger.warn(
      { setting: 'REDIS_URL', redis: shownUrl(url), detail: first.error ? reasonOf(first.error) : 'no answer within 2 s' },
      'Redis not reachable at start: rate limits hold per instance until it is',
    );
  return redis;
}

/** Redis's first answer: ready, a refusal of REDIS_URL's credentials or database (at once), or nothing within `ms` (with the last error seen). */
function firstAnswer(redis: Redis, ms: number): Promise<{ ready: boolean; refused?: Error; error?: Error }> {
  return new Promise((resolve) => {
    let last: Error | undefined;
    const finish = (ready: boolean, refused?: Error) => {
      clearTimeout(timer);
      redis.off('ready', onReady);
      redis.off('error', onError);
      resolve({ ready, ...(refused ? { refused } : {}), ...(last ? { error: last } : {}) });
    };
    const onReady = () => finish(true);
    const onError = (error: Error) => {
      last = error;
      if (isRedisSettingError(error)) finish(false, error);
    };
    const timer = setTimeout(() => finish(false), ms);
    redis.on('ready', onReady);
    redis.on('error', onError);
    if (redis.status === 'ready') finish(true);
  });
}

/** Everything up to listening; what it opens is put on `opened`, for the caller to close if it fails. */
async function start(config: Config, opened: (() => unknown)[]) {
  // the settings first, before the server's modules load: one that cannot work fails in seconds
  await checkListen(config.host, config.port);
  const store = await openCheckedStore(config, { sqliteReadWorkers: config.sqliteReadWorkers });
  opened.push(() => store.close());
  const readStore = await openCheckedReplica(config);
  if (readStore) opened.push(() => readStore.close());
  // JSON lines on standard output, written asynchronously (flushed before the process ends)
  const logger = createLogger();
  const redis = config.redisUrl ? await connectCheckedRedis(config.redisUrl, logger, opened) : undefined;
  await migrateChecked(store, config);
  if ((await listOrganisations(store.db)).length === 0) {
    process.stdout.write('Empty database: loading the demo organisations…\n');
    const { generateDemo } = await import('../demo/generate.js');
    await generateDemo(store, { date: todayIn('UTC'), seed: 1, scale: 1 });
  }
  const demoNote = await demoSignIns(store, config.baseUrl);

  const [{ Metrics }, { FallbackCounterStore, RedisCounterStore }, { FallbackCallBudget, RedisCallBudget, useCallBudget }, { buildApp }] = await Promise.all([
    import('../calls/metrics.js'),
    import('../calls/redis-counters.js'),
    import('../accounting/call-budget.js'),
    import('../app/app.js'),
  ]);
  const metrics = new Metrics(store.poolStats);
  const counters = redis
    ? new FallbackCounterStore(new RedisCounterStore(redis), {
        degraded(error) {
          metrics.rateLimitDegraded.set(1);
          logger.warn({ detail: error.message }, 'Redis unreachable: rate limits now hold per instance');
        },
        recovered() {
          metrics.rateLimitDegraded.set(0);
          logger.info('Redis reachable again: rate limits are shared');
        },
      })
    : undefined;
  // vendors' published limits (Xero, QuickBooks) shared by every instance, as the API's own are
  if (redis) useCallBudget(new FallbackCallBudget(new RedisCallBudget(redis)));

  const { app } = await buildApp({
    store,
    baseUrl: config.baseUrl,
    secrets: { ...(config.cookieSecrets ? { cookieKeys: config.cookieSecrets } : {}), ...(config.signingJwks ? { jwks: config.signingJwks } : {}) },
    rateLimits: config.rateLimits,
    metrics,
    accountingTimeoutMs: config.accountingTimeoutMs,
    ...(config.accountingConnections ? { accountingConnections: config.accountingConnections } : {}),
    resultCacheBytes: config.resultCacheBytes,
    trustProxy: config.trustProxy,
    mcpAllowedOrigins: config.mcpAllowedOrigins,
    ...(config.metricsToken ? { metricsToken: config.metricsToken } : {}),
    ...(config.externalIdentity ? { externalIdentity: config.externalIdentity } : {}),
    ...(readStore ? { readStore } : {}),
    ...(counters ? { counters, countersReady: async () => (await redis!.ping()) === 'PONG' } : {}),
    logger,
  });
  opened.push(() => app.close());
  try {
    await app.listen({ host: config.host, port: config.port });
  } catch (error) {
    throw listenProblem(error, config.host, config.port) ?? error;
  }
  return { store, readStore, redis, app, logger, demoNote };
}

export async function serveCommand(): Promise<number> {
  const config = loadConfig();
  // what to close if the start fails part-way, latest first, so that the process can end
  const opened: (() => unknown)[] = [];
  let started: Awaited<ReturnType<typeof start>>;
  try {
    started = await start(config, opened);
  } catch (error) {
    for (const close of opened.reverse())
      await Promise.resolve()
        .then(close)
        .catch(() => {});
    throw error;
  }
  const { store, readStore, redis, app, logger, demoNote } = started;
  // first copies of Xero and QuickBooks books go on between calls (a large book takes an hour of the vendor's budget)
  const { startMirrorWarmUp } = await import('../accounting/mirror/warm-up.js');
  const warmUp = startMirrorWarmUp({
    db: store.db,
    connections: config.accountingConnections,
    intervalMs: 30_000,
    timeoutMs: config.accountingTimeoutMs,
    onProblem: (organisationId, detail, expected) =>
      expected
        ? logger.debug({ organisationId, detail }, 'first copy of the books: not yet')
        : logger.warn({ organisationId, detail }, 'first copy of the books failed'),
  });
  // the address bound (what a local check or a proxy connects to), and BASE_URL (what clients are told)
  process.stdout.write(
    `Ledgerline is listening on ${boundUrl(app.server.address())} (BASE_URL ${config.baseUrl}; ` +
      `database: ${config.databaseUrl ? 'PostgreSQL' : config.sqlitePath}${redis ? ', rate limits in Redis' : ''}).\n` +
      `API reference: ${config.baseUrl}/docs · MCP: ${config.baseUrl}/mcp · OAuth metadata: ${config.baseUrl}/.well-known/oauth-authorization-server\n` +
      demoNote,
  );
  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info(`${signal}: finishing requests in flight`);
    warmUp.stop();
    await app.close(); // stops accepting, waits for in-flight requests
    await writeStamps(store.db); // the clients' and sessions' last use, noted but not written yet
    redis?.disconnect();
    await readStore?.close();
    await store.close();
    await new Promise<void>((resolve) => logger.flush(() => resolve())); // the buffered lines, before exiting
    process.exit(0);
  };
  process.once('SIGINT', () => void stop('SIGINT'));
  process.once('SIGTERM', () => void stop('SIGTERM'));
  return new Promise<number>(() => {});
}
