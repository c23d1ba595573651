/**
 * The HTTP server: the authorization server (oidc-provider) under /oauth and its metadata, the
 * sign-in and consent pages, the REST API under /v1, the MCP endpoint at /mcp, protected resource
 * metadata, the OpenAPI document and reference page, health checks, and one error format for all of it.
 */
import type { AccountingConnectionSettings } from '../domain/accounting-vendors.js';
import { notFoundPage } from '../web/pages/not-found.js';
import { sendPage } from '../web/respond.js';
import { silentLogger, type Logger } from '../calls/logger.js';
import { readsLedger, readsOrganisations } from '../store/readiness.js';
import { readFileSync } from 'node:fs';
import { randomUUID } from 'node:crypto';
import formbody from '@fastify/formbody';
import Fastify, { LogController, type FastifyBaseLogger, type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import { createAuthServer, resourcesFor } from '../auth/provider.js';
import { loadSecrets, type ServiceSecrets } from '../auth/secrets.js';
import { registerMcp } from '../mcp/routes.js';
import { OperationError } from '../domain/problems.js';
import type { Store } from '../store/db.js';
import { registerInteractions } from '../web/interactions.js';
import { registerWebPages } from '../web/pages-routes.js';
import { oauthErrorPage } from '../web/pages/oauth-error.js';
import { registerDocs } from '../docs/reference-page.js';
import { registerReference } from '../docs/scalar.js';
import { internalProblem, problemFrom } from '../calls/problem.js';
import { clientErrorHandler, sendProblem } from '../http/problem-reply.js';
import { MemoryCounterStore, RateLimiter, type CounterStore } from '../calls/rate-limit.js';
import { keepAnswerJson, restLinks } from '../http/answer-body.js';
import { registerRest } from '../http/rest.js';
import { Metrics } from '../calls/metrics.js';
import type { ServiceContext } from '../calls/service.js';
import { isDatabaseUnavailable } from '../store/errors.js';
import { DEFAULT_RESULT_CACHE_MB, defaultRateLimits, type ExternalIdentityConfig, type RateLimits } from '../config.js';
import { ResultCache } from '../operations/result-cache.js';
import { registerProtectedResourceMetadata } from '../http/well-known.js';
import { registerAuthServer } from '../http/auth-server-handoff.js';
import { registerMetrics } from '../http/metrics-route.js';
import { requestLogFields } from '../calls/request-log.js';

export interface AppOptions {
  store: Store;
  baseUrl: string;
  secrets?: Partial<Pick<ServiceSecrets, 'cookieKeys' | 'jwks'>>;
  rateLimits?: RateLimits;
  counters?: CounterStore;
  /** a fixed local date for every organisation (tests) */
  today?: string;
  refreshGraceSeconds?: number;
  /** Client ID Metadata Document fetching, for tests on loopback */
  metadataDocumentFetch?: typeof fetch;
  /** where the request log and errors go (createLogger); silent by default */
  logger?: Logger;
  /** a read replica for the operations' own reads (DATABASE_READ_URL) */
  readStore?: Store;
  /** limit for every call to an accounting system */
  accountingTimeoutMs?: number;
  /** answers whether the shared rate-limit store (Redis) is reachable, for /readyz */
  countersReady?: () => Promise<boolean>;
  metrics?: Metrics;
  /** single sign-on through an external OpenID Connect provider (OIDC_ISSUER and the rest), if any */
  externalIdentity?: ExternalIdentityConfig;
  /** memory for answers reused while an organisation's data stands still, in bytes of JSON; 0 for none (default 64 MB) */
  resultCacheBytes?: number;
  /**
   * addresses and CIDR ranges of the reverse proxies whose X-Forwarded-For is believed (TRUST_PROXY);
   * none by default, so the client address is the connection's
   */
  trustProxy?: string[];
  /** the bearer token /metrics wants (METRICS_TOKEN); without one /metrics is off */
  metricsToken?: string;
  /** browser origins allowed to call /mcp besides BASE_URL's (MCP_ALLOWED_ORIGINS; default loopback ones) */
  mcpAllowedOrigins?: readonly string[];
  /** Xero and QuickBooks client registrations and the keys sealing their tokens (XERO_CLIENT_ID, LEDGERLINE_CONNECTION_KEYS, …) */
  accountingConnections?: AccountingConnectionSettings;
}

// the stylesheet is read from the source tree, so the compiled server serves the same file
const STYLESHEET = readFileSync(new URL('../../src/web/assets/site.css', import.meta.url));

export async function buildApp(options: AppOptions): Promise<{ app: FastifyInstance; service: ServiceContext }> {
  const { store, baseUrl } = options;
  const db = store.db;
  const secrets = await loadSecrets(db, { cookieSecrets: options.secrets?.cookieKeys, signingJwks: options.secrets?.jwks });
  const provider = createAuthServer({
    db,
    errorPage: oauthErrorPage,
    baseUrl,
    secrets,
    ...(options.refreshGraceSeconds !== undefined ? { refreshGraceSeconds: options.refreshGraceSeconds } : {}),
    ...(options.metadataDocumentFetch ? { fetch: options.metadataDocumentFetch } : {}),
  });
  const limits = options.rateLimits ?? defaultRateLimits();
  const limiter = new RateLimiter(options.counters ?? new MemoryCounterStore());
  const resultCacheBytes = options.resultCacheBytes ?? DEFAULT_RESULT_CACHE_MB * 1024 * 1024;
  // a kept answer counted as the REST text it is sent as, made here once (http/answer-body.ts)
  const restText = restLinks(baseUrl);
  const resultCache = resultCacheBytes > 0 ? new ResultCache(resultCacheBytes, (value) => keepAnswerJson(value, restText).length) : undefined;
  const metrics = options.metrics ?? new Metrics(store.poolStats);
  if (resultCache) metrics.watchResultCache(resultCache);
  const service: ServiceContext = {
    store,
    db,
    baseUrl,
    resources: resourcesFor(baseUrl),
    provider,
    secrets,
    env: {
      db,
      baseUrl,
      ...(options.readStore ? { readDb: options.readStore.db } : {}),
      ...(options.accountingTimeoutMs ? { accountingTimeoutMs: options.accountingTimeoutMs } : {}),
      ...(options.today ? { today: options.today } : {}),
      ...(resultCache ? { resultCache } : {}),
      ...(options.accountingConnections ? { accountingConnections: options.accountingConnections } : {}),
    },
    limiter,
    limits,
    metrics,
  };

  // once closing, answers in flight end their connection: an idle keep-alive connection would
  // otherwise hold the shutdown for the server's keep-alive timeout (72 s)
  let closing = false;
  /** The headers every answer carries, set by onSend and by the one answer no hook sees (frameworkErrors). */
  const stamp = (request: FastifyRequest, reply: FastifyReply) => {
    reply.header('x-request-id', request.id);
    reply.header('x-content-type-options', 'nosniff');
    if (closing) reply.header('connection', 'close');
    return reply;
  };

  const app = Fastify({
    // Fastify's instance types are declared on its own logger interface, which pino's satisfies
    loggerInstance: (options.logger ?? silentLogger()) as FastifyBaseLogger,
    // one line per request, written by the onResponse hook below with the route and the time taken
    logController: new LogController({ disableRequestLogging: true, requestIdLogLabel: 'requestId' }),
    bodyLimit: 64 * 1024,
    // a forwarded address is believed only from a configured proxy: otherwise any caller picks its own
    trustProxy: options.trustProxy?.length ? options.trustProxy : false,
    clientErrorHandler: clientErrorHandler(baseUrl),
    // a URL Fastify cannot route (invalid percent-encoding or UTF-8) gets a problem like any other 400
    // (answered before any hook runs, so it stamps the headers itself)
    frameworkErrors: (error, request, reply) =>
      sendProblem(
        stamp(request, reply),
        problemFrom(
          new OperationError(
            'bad_request',
            error.code === 'FST_ERR_BAD_URL' ? 'the URL is not valid (bad percent-encoding or UTF-8)' : 'the request could not be routed',
          ),
          baseUrl,
        ),
      ),
    genReqId: (req) => {
      const given = req.headers['x-request-id'];
      return typeof given === 'string' && /^[\w.:-]{1,100}$/.test(given) ? given : randomUUID();
    },
  });
  app.addHook('preClose', async () => {
    closing = true;
  });
  app.addHook('onSend', async (request, reply) => {
    stamp(request, reply);
  });
  // one structured line per request, and the request metrics; never headers, bodies or query strings:
  // who called (ids), a problem's code, a 404's path and an MCP call's method and tool (request-log.ts)
  app.addHook('onResponse', async (request, reply) => {
    const route = routeLabel(request.routeOptions.url, request.url);
    const status = reply.statusCode;
    metrics.observeRequest(route, request.method, String(status), reply.elapsedTime / 1000);
    request.log[status >= 500 ? 'error' : 'info']({
      method: request.method,
      route,
      status,
      ms: Math.round(reply.elapsedTime * 10) / 10,
      ...requestLogFields(request, status),
    });
  });

  app.setErrorHandler((error, request, reply) => {
    if (error instanceof OperationError) {
      // a wait the problem names (a rate limit, ours or the accounting system's) is also the header clients read
      if (typeof error.extra.retryAfter === 'number' && !reply.hasHeader('retry-after')) reply.header('retry-after', String(error.extra.retryAfter));
      return sendProblem(reply, problemFrom(error, baseUrl));
    }
    if (isDatabaseUnavailable(error)) {
      // the pool reconnects by itself when the database is back; tell the caller when to retry
      request.log.warn({ detail: (error as Error).message }, 'database unavailable');
      reply.header('retry-after', '5');
      return sendProblem(reply, problemFrom(new OperationError('database_unavailable', 'the database is unavailable; retry shortly'), baseUrl));
    }
    const status = (error as { statusCode?: number }).statusCode;
    if (status && status >= 400 && status < 500) {
      // Fastify's own 4xx errors (body parsing) are 400, 413 or 415
      const code = status === 413 ? 'payload_too_large' : status === 415 ? 'unsupported_media_type' : 'bad_request';
      return sendProblem(reply, problemFrom(new OperationError(code, (error as Error).message), baseUrl));
    }
    request.log.error({ stack: (error as Error).stack }, (error as Error).message);
    return sendProblem(reply, internalProblem(baseUrl, request.id));
  });
  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split('?')[0]!;
    // a browser following a link gets a page; API clients (Accept: JSON or anything) get the problem
    if (request.method === 'GET' && /\btext\/html\b/.test(request.headers.accept ?? '')) return sendPage(reply, notFoundPage(path), 404);
    return sendProblem(reply, problemFrom(new OperationError('not_found', `nothing at ${request.method} ${path}`), baseUrl));
  });

  await app.register(formbody);
  await registerAuthServer(app, service);

  app.get('/assets/site.css', async (_req, reply) =>
    reply.header('content-type', 'text/css; charset=utf-8').header('cache-control', 'public, max-age=3600').send(STYLESHEET),
  );
  app.get('/healthz', async () => ({ status: 'ok' }));
  // Ready means able to answer calls: the database (and replica) and the builtin ledger in it. Redis
  // only shares the rate limits between instances; without it each instance counts its own and calls
  // are still answered, so Redis away is "degraded" with 200 (a load balancer keeps every instance in),
  // said in the body, the log (on a change) and ledgerline_dependency_up{dependency="redis"}.
  const NEEDED = new Set(['database', 'readReplica', 'accounting']);
  const DEGRADED_MEANS: Record<string, string> = { redis: 'Redis is unreachable: rate limits hold per instance until it answers; calls are served' };
  const lastSeen = new Map<string, 'ok' | 'unavailable'>();
  app.get('/readyz', async (request, reply) => {
    const checks: Record<string, 'ok' | 'unavailable'> = {};
    const probe = async (name: string, check: () => Promise<unknown>) => {
      let timer: NodeJS.Timeout | undefined;
      try {
        const timeout = new Promise((_, reject) => (timer = setTimeout(() => reject(new Error('timeout')), 2000)));
        checks[name] = (await Promise.race([check(), timeout])) === false ? 'unavailable' : 'ok';
      } catch {
        checks[name] = 'unavailable';
      } finally {
        clearTimeout(timer); // a probe that answered leaves no 2 s timer behind
      }
    };
    await Promise.all([
      probe('database', () => readsOrganisations(db)),
      ...(options.readStore ? [probe('readReplica', () => readsOrganisations(options.readStore!.db))] : []),
      ...(options.countersReady ? [probe('redis', options.countersReady)] : []),
      // the builtin accounting system lives in the database; connected books are checked per organisation on use
      probe('accounting', () => readsLedger(db)),
    ]);
    for (const [name, state] of Object.entries(checks)) {
      metrics.dependencyUp.set({ dependency: name }, state === 'ok' ? 1 : 0);
      const before = lastSeen.get(name);
      lastSeen.set(name, state);
      if (before === state || (before === undefined && state === 'ok')) continue;
      if (state === 'ok') request.log.info({ dependency: name }, `readiness: ${name} answers again`);
      else
        request.log.warn(
          { dependency: name },
          NEEDED.has(name) ? `readiness: ${name} unavailable, not ready` : `readiness: ${name} unavailable, degraded (still ready)`,
        );
    }
    const down = Object.keys(checks).filter((name) => checks[name] !== 'ok');
    const ready = !down.some((name) => NEEDED.has(name));
    if (!ready) {
      reply.code(503).header('retry-after', '5');
      return { status: 'unavailable', checks };
    }
    if (!down.length) return { status: 'ready', checks };
    return { status: 'degraded', checks, degraded: Object.fromEntries(down.map((name) => [name, DEGRADED_MEANS[name] ?? `${name} is unavailable`])) };
  });
  registerMetrics(app, metrics, baseUrl, options.metricsToken);

  registerInteractions(app, {
    provider,
    db,
    baseUrl,
    csrfKey: secrets.cookieKeys[0]!,
    limiter,
    signInLimits: { perAccount: limits.signInPerAccount, perAddress: limits.signInPerAddress },
    external: options.externalIdentity,
  });
  registerProtectedResourceMetadata(app, service);
  registerRest(app, service);
  registerMcp(app, service, options.mcpAllowedOrigins ? { allowedOrigins: options.mcpAllowedOrigins } : {});
  registerDocs(app, service);
  registerReference(app);
  registerWebPages(app, service, options.externalIdentity);

  return { app, service };
}

/** The metrics label of a request: the operation for API calls, the route pattern otherwise. */
function routeLabel(pattern: string | undefined, url: string): string {
  if (pattern === '/v1/operations/:name') return 'unknown_operation';
  if (pattern?.startsWith('/v1/operations/')) return pattern.slice('/v1/operations/'.length);
  if (pattern === '/v1/organisations') return 'organisations';
  if (pattern) return pattern;
  return url.startsWith('/oauth/') || url.startsWith('/.well-known/') ? 'oauth' : 'unmatched';
}
