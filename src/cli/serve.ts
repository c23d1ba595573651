/**
 * `ledgerline serve`: migrate, load the demo into an empty database, and listen. With REDIS_URL the
 * rate-limit counters are shared by every instance; with DATABASE_READ_URL the operations read from
 * a replica. SIGTERM/SIGINT stop accepting, finish the requests in flight, then close.
 */
import { FallbackCallBudget, RedisCallBudget, useCallBudget } from '../accounting/call-budget.js';
import { startMirrorWarmUp } from '../accounting/mirror/warm-up.js';
import { createLogger } from '../http/logger.js';
import { loadConfig } from '../config.js';
import { generateDemo } from '../demo/generate.js';
import { DEMO_PASSWORD, DEMO_USERS } from '../demo/users.js';
import { todayIn } from '../domain/dates.js';
import { buildApp } from '../http/app.js';
import { Metrics } from '../http/metrics.js';
import { connectRedis, FallbackCounterStore, RedisCounterStore, whenReady } from '../http/redis-counters.js';
import { openStore, type Store } from '../store/db.js';
import { writeStamps } from '../store/deferred-stamps.js';
import { migrate } from '../store/migrate.js';
import { listOrganisations } from '../store/organisations.js';
import { findUserByEmail } from '../store/users.js';


/** The demo sign-ins, on every start while the demo users exist (not only on the start that made them). */
async function demoSignIns(store: Store, baseUrl: string): Promise<string> {
  const present = [];
  for (const u of DEMO_USERS) if (await findUserByEmail(store.db, u.email)) present.push(u.email);
  if (!present.length) return '';
  return `Demo sign-in at ${baseUrl}/signin: ${present.join(', ')}, each with the password "${DEMO_PASSWORD}" unless it was changed.\n`;
}

export async function serveCommand(): Promise<number> {
  const config = loadConfig();
  const store = openStore({ databaseUrl: config.databaseUrl, sqlitePath: config.sqlitePath, poolSize: config.poolSize, sqliteReadWorkers: config.sqliteReadWorkers });
  const readStore = config.databaseReadUrl ? openStore({ databaseUrl: config.databaseReadUrl, poolSize: config.poolSize }) : undefined;
  await migrate(store);
  if ((await listOrganisations(store.db)).length === 0) {
    process.stdout.write('Empty database: loading the demo organisations…\n');
    await generateDemo(store, { date: todayIn('UTC'), seed: 1, scale: 1 });
  }
  const demoNote = await demoSignIns(store, config.baseUrl);

  // JSON lines on standard output, written asynchronously (flushed before the process ends)
  const logger = createLogger();
  const metrics = new Metrics(store.poolStats);
  const redis = config.redisUrl ? connectRedis(config.redisUrl) : undefined;
  redis?.on('error', () => {}); // reported through the fallback below, not as unhandled errors
  if (redis && !(await whenReady(redis, 2000))) logger.warn('Redis not reachable at start: rate limits hold per instance until it is');
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
  await app.listen({ host: config.host, port: config.port });
  // first copies of Xero and QuickBooks books go on between calls (a large book takes an hour of the vendor's budget)
  const warmUp = startMirrorWarmUp({
    db: store.db,
    connections: config.accountingConnections,
    intervalMs: 30_000,
    timeoutMs: config.accountingTimeoutMs,
    onProblem: (organisationId, detail, expected) => (expected ? logger.debug({ organisationId, detail }, 'first copy of the books: not yet') : logger.warn({ organisationId, detail }, 'first copy of the books failed')),
  });
  process.stdout.write(
    `Ledgerline is listening on ${config.baseUrl} (database: ${config.databaseUrl ? 'PostgreSQL' : config.sqlitePath}${redis ? ', rate limits in Redis' : ''}).\n` +
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
