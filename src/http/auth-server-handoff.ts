/**
 * The hand-off to the authorization server (oidc-provider, a Koa app of its own) for the paths it
 * answers: what it is shown of the request, the limits on its endpoints, its body limit and the
 * caching of its metadata.
 *
 * - What it is shown: oidc-provider builds every URL it publishes (metadata, the resume URL of a
 *   sign-in, client assertion audiences) from Host and, with `proxy` on, X-Forwarded-Proto/-Host,
 *   and reads the client address from X-Forwarded-For. Those are pinned here before it sees the
 *   request: Host and the scheme from BASE_URL, X-Forwarded-Host dropped, X-Forwarded-For set to the
 *   address Fastify trusts (TRUST_PROXY). So every URL it publishes comes from BASE_URL, and its
 *   cookies are Secure exactly when BASE_URL is https, whatever the caller sends.
 * - The limits: counted by the route the provider's own router picks (it ignores case and one trailing
 *   slash), not by comparing strings, so no spelling of a path reaches an endpoint uncounted.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import type { IncomingMessage, ServerResponse } from 'node:http';
import middie from '@fastify/middie';
import type { FastifyInstance } from 'fastify';
import type Provider from 'oidc-provider';
import { OperationError } from '../domain/problems.js';
import { problemFrom } from '../calls/problem.js';
import { writeProblem } from './problem-reply.js';
import type { Limit } from '../config.js';
import type { ServiceContext } from '../calls/service.js';

/** oidc-provider's own body limit (lib/shared/selective_body.js); larger bodies get 413 here, before it reads them. */
export const AUTH_SERVER_BODY_LIMIT = 56 * 1024;

/** Metadata changes only with a deployment: an hour's caching spares the discovery round trips. */
export const METADATA_CACHE_CONTROL = 'public, max-age=3600';

/** Whether Fastify hands a path to the provider (its own sign-in pages under /oauth/interaction/ stay ours). */
export function isAuthServerPath(path: string): boolean {
  return (
    path === '/.well-known/oauth-authorization-server' ||
    path === '/.well-known/openid-configuration' ||
    (path.startsWith('/oauth/') && !path.startsWith('/oauth/interaction/'))
  );
}

export async function registerAuthServer(app: FastifyInstance, service: ServiceContext): Promise<void> {
  const { provider, baseUrl, limiter, limits, metrics } = service;
  const base = new URL(baseUrl);
  const routeOf = await providerRouter(provider);

  // Every request, not only the provider's: the sign-in and consent routes pass their raw request to
  // provider.interactionDetails/Finished too, and Fastify's own protocol follows these headers.
  app.addHook('onRequest', async (request) => {
    const headers = request.raw.headers;
    headers['x-forwarded-for'] = request.ip ?? '';
    headers['x-forwarded-proto'] = base.protocol.slice(0, -1);
    delete headers['x-forwarded-host'];
    delete headers.forwarded;
  });

  const endpointLimits: Record<string, Limit[]> = {
    token: [limits.tokenEndpointPerAddress],
    registration: [limits.tokenEndpointPerAddress, limits.registrationsPerAddress],
  };
  provider.use(async (ctx, next) => {
    const route = routeOf(ctx.method, ctx.path);
    for (const limit of endpointLimits[route ?? ''] ?? []) {
      const result = await limiter.check(limit, ctx.ip);
      if (!result.allowed) {
        metrics.rateLimitRefusals.inc({ limit: limit.name });
        ctx.status = 429;
        ctx.set('retry-after', String(result.resetSeconds));
        ctx.set('cache-control', 'no-store');
        ctx.type = 'application/problem+json; charset=utf-8';
        const detail = `too many requests from this address; retry in ${result.resetSeconds} s`;
        // error and error_description too, for OAuth clients that read only those
        ctx.body = JSON.stringify({ ...problemFrom(new OperationError('rate_limited', detail), baseUrl), error: 'rate_limited', error_description: detail });
        return;
      }
    }
    await next();
    if (route === 'discovery' && ctx.status === 200) ctx.set('cache-control', METADATA_CACHE_CONTROL);
  });

  await app.register(middie);
  const callback = provider.callback();
  const providerStorage = await providerAsyncStorage();
  let inFlight = 0;
  app.use((req: IncomingMessage, res: ServerResponse, next: () => void) => {
    if (!isAuthServerPath((req.url ?? '').split('?')[0]!)) return next();
    const tooLarge = () => {
      const problem = problemFrom(new OperationError('payload_too_large', `the request body is larger than ${AUTH_SERVER_BODY_LIMIT} bytes`), baseUrl);
      // the rest of the body is not read: the connection cannot carry another request
      writeProblem(res, problem, { connection: 'close' });
    };
    if (Number(req.headers['content-length']) > AUTH_SERVER_BODY_LIMIT) return tooLarge();
    limitBodyAsRead(req, tooLarge);
    req.headers.host = base.host;
    // the provider answers these itself, past Fastify's hooks: count them here
    const started = process.hrtime.bigint();
    res.once('finish', () => metrics.observeRequest('oauth', req.method ?? '', String(res.statusCode), Number(process.hrtime.bigint() - started) / 1e9));
    // Node 20 runs a hook on every promise of the process while any AsyncLocalStorage is enabled, and
    // the provider enables its own on its first request, for good: about 5% of the cheapest API call's
    // CPU afterwards. Disabled again once no provider request is open (its next run() enables it).
    inFlight += 1;
    res.once('close', () => {
      inFlight -= 1;
      if (inFlight === 0) providerStorage.disable();
    });
    return callback(req, res);
  });
}

/**
 * A body without Content-Length (Transfer-Encoding: chunked) shows its size only as it arrives. The
 * provider reads every body through req.iterator (lib/shared/selective_body.js, pinned in
 * package.json); this one counts the bytes as the provider reads them, and at the limit answers
 * 413 and stops reading. The provider then fails to read the body; its own error answer is dropped,
 * as Koa writes nothing to a response already ended.
 */
function limitBodyAsRead(req: IncomingMessage, tooLarge: () => void): void {
  const iterate = req.iterator.bind(req);
  req.iterator = (options) => {
    const chunks = iterate(options);
    return (async function* counted() {
      let received = 0;
      for await (const chunk of chunks) {
        received += (chunk as Buffer).length;
        if (received > AUTH_SERVER_BODY_LIMIT) {
          tooLarge();
          throw new Error('request body over the limit');
        }
        yield chunk;
      }
    })();
  };
}

/**
 * The provider's request storage (lib/helpers/als.js, internal to oidc-provider, pinned in
 * package.json): entered by its Koa chain for each request it answers and read only inside it.
 */
async function providerAsyncStorage(): Promise<AsyncLocalStorage<unknown>> {
  const storage = ((await import('oidc-provider/lib/helpers/als.js' as string)) as { default?: unknown }).default;
  if (!(storage instanceof AsyncLocalStorage))
    throw new Error(
      "oidc-provider's request storage is not where Ledgerline expects it (lib/helpers/als.js): check src/http/auth-server-handoff.ts against this version",
    );
  return storage as AsyncLocalStorage<unknown>;
}

/**
 * The provider's own router, so the limits match exactly the set of paths it answers. It is internal
 * to oidc-provider (pinned in package.json); a change there stops the server at start, not silently.
 */
async function providerRouter(provider: Provider): Promise<(method: string, path: string) => string | undefined> {
  const internals = ((await import('oidc-provider/lib/helpers/weak_cache.js' as string)) as { default: (p: Provider) => unknown }).default;
  const router = (internals(provider) as { router?: { match?: unknown } } | undefined)?.router;
  if (typeof router?.match !== 'function')
    throw new Error(
      "oidc-provider's router is not where Ledgerline expects it (lib/helpers/weak_cache.js): check src/http/auth-server-handoff.ts against this version",
    );
  const match = router.match.bind(router) as (method: string, path: string) => { route: { name: string } } | undefined;
  return (method, path) => match(method, path)?.route.name;
}
