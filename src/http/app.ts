/**
 * The HTTP server: the authorization server (oidc-provider) under /oauth and its metadata, the
 * sign-in and consent pages, the REST API under /v1, protected resource metadata, the OpenAPI
 * document and reference page, health checks, and one error format for all of it.
 */
import { readFileSync } from 'node:fs';
import { randomUUID } from 'node:crypto';
import formbody from '@fastify/formbody';
import middie from '@fastify/middie';
import Fastify, { type FastifyInstance } from 'fastify';
import { createAuthServer, resourcesFor } from '../auth/provider.js';
import { loadSecrets, type ServiceSecrets } from '../auth/secrets.js';
import { OperationError } from '../operations/errors.js';
import type { Store } from '../store/db.js';
import { registerInteractions } from '../web/interactions.js';
import { registerDocs } from './docs.js';
import { internalProblem, problemFrom, sendProblem } from './problem.js';
import { MemoryCounterStore, RateLimiter, type CounterStore } from './rate-limit.js';
import { registerRest } from './rest.js';
import { defaultRateLimits, type RateLimits, type ServiceContext } from './service.js';
import { registerProtectedResourceMetadata } from './well-known.js';

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
  allowLoopbackMetadataDocuments?: boolean;
  log?: (entry: Record<string, unknown>) => void;
}

// the stylesheet is read from the source tree, so the compiled server serves the same file
const STYLESHEET = readFileSync(new URL('../../src/web/assets/site.css', import.meta.url));

export async function buildApp(options: AppOptions): Promise<{ app: FastifyInstance; service: ServiceContext }> {
  const { store, baseUrl } = options;
  const db = store.db;
  const secrets = await loadSecrets(db, { cookieSecrets: options.secrets?.cookieKeys, signingJwks: options.secrets?.jwks });
  const provider = createAuthServer({
    db,
    baseUrl,
    secrets,
    ...(options.refreshGraceSeconds !== undefined ? { refreshGraceSeconds: options.refreshGraceSeconds } : {}),
    ...(options.metadataDocumentFetch ? { fetch: options.metadataDocumentFetch } : {}),
    ...(options.allowLoopbackMetadataDocuments ? { allowLoopbackMetadataDocuments: true } : {}),
  });
  const limits = options.rateLimits ?? defaultRateLimits();
  const limiter = new RateLimiter(options.counters ?? new MemoryCounterStore());
  const service: ServiceContext = {
    store,
    db,
    baseUrl,
    resources: resourcesFor(baseUrl),
    provider,
    secrets,
    env: { db, baseUrl, ...(options.today ? { today: options.today } : {}) },
    limiter,
    limits,
  };
  const log = options.log ?? (() => {});

  const app = Fastify({
    logger: false,
    bodyLimit: 64 * 1024,
    trustProxy: true,
    genReqId: (req) => {
      const given = req.headers['x-request-id'];
      return typeof given === 'string' && /^[\w.:-]{1,100}$/.test(given) ? given : randomUUID();
    },
  });
  app.addHook('onSend', async (request, reply) => {
    reply.header('x-request-id', request.id);
    reply.header('x-content-type-options', 'nosniff');
  });

  app.setErrorHandler((error, request, reply) => {
    if (error instanceof OperationError) return sendProblem(reply, problemFrom(error, baseUrl));
    const status = (error as { statusCode?: number }).statusCode;
    if (status && status >= 400 && status < 500) {
      const code = status === 413 ? 'payload_too_large' : status === 415 ? 'unsupported_media_type' : 'bad_request';
      return sendProblem(reply, problemFrom(new OperationError(status, code, 'Bad request', (error as Error).message), baseUrl));
    }
    log({ level: 'error', requestId: request.id, message: (error as Error).message, stack: (error as Error).stack });
    return sendProblem(reply, internalProblem(baseUrl, request.id));
  });
  app.setNotFoundHandler((request, reply) =>
    sendProblem(reply, problemFrom(new OperationError(404, 'not_found', 'Not found', `nothing at ${request.method} ${request.url.split('?')[0]}`), baseUrl)),
  );

  await app.register(formbody);
  await app.register(middie);

  // the token and registration endpoints are throttled per client address against guessing and floods
  app.use(async (req: any, res: any, next: () => void) => {
    const path = String(req.url ?? '').split('?')[0];
    if (req.method === 'POST' && (path === '/oauth/token' || path === '/oauth/register')) {
      const address = String(req.socket?.remoteAddress ?? 'unknown');
      const result = await limiter.check(limits.tokenEndpointPerAddress, address);
      if (!result.allowed) {
        res.statusCode = 429;
        res.setHeader('content-type', 'application/json');
        res.setHeader('retry-after', String(result.resetSeconds));
        res.end(JSON.stringify({ error: 'rate_limited', error_description: `too many requests; retry in ${result.resetSeconds} s` }));
        return;
      }
    }
    next();
  });
  const providerCallback = provider.callback();
  app.use((req: any, res: any, next: () => void) => {
    const path = String(req.url ?? '').split('?')[0]!;
    const forProvider =
      path === '/.well-known/oauth-authorization-server' ||
      path === '/.well-known/openid-configuration' ||
      (path.startsWith('/oauth/') && !path.startsWith('/oauth/interaction/'));
    if (forProvider) return providerCallback(req, res);
    next();
  });

  app.get('/assets/site.css', async (_req, reply) => reply.header('content-type', 'text/css; charset=utf-8').header('cache-control', 'public, max-age=3600').send(STYLESHEET));
  app.get('/healthz', async () => ({ status: 'ok' }));
  app.get('/readyz', async (_req, reply) => {
    try {
      await db.selectFrom('organisations').select('id').limit(1).execute();
      return { status: 'ready' };
    } catch {
      return reply.code(503).header('retry-after', '5').send({ status: 'unavailable' });
    }
  });

  registerInteractions(app, {
    provider,
    db,
    baseUrl,
    csrfKey: secrets.cookieKeys[0]!,
    limiter,
    signInLimits: { perAccount: limits.signInPerAccount, perAddress: limits.signInPerAddress },
  });
  registerProtectedResourceMetadata(app, service);
  registerRest(app, service);
  registerDocs(app, service);

  return { app, service };
}
