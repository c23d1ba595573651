/** Everything the HTTP transports share, built once per server. */
import type { FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import type Provider from 'oidc-provider';
import type { Resources } from '../auth/provider.js';
import type { ServiceSecrets } from '../auth/secrets.js';
import type { CallEnvironment } from '../operations/execute.js';
import type { Store } from '../store/db.js';
import type { Database } from '../store/schema.js';
import { authenticate, AuthenticationError, type Caller } from '../auth/verify.js';
import type { Metrics } from './metrics.js';
import type { RateLimits } from '../config.js';
import type { RateLimiter } from './rate-limit.js';
import { noteCaller } from './request-log.js';

export interface ServiceContext {
  store: Store;
  db: Kysely<Database>;
  baseUrl: string;
  resources: Resources;
  provider: Provider;
  secrets: ServiceSecrets;
  env: CallEnvironment;
  limiter: RateLimiter;
  limits: RateLimits;
  metrics: Metrics;
}

/**
 * The token check every transport makes, counted for the metrics; given the request, who called
 * (client, person, an API client's organisation) goes on its log line (request-log.ts).
 */
export async function authenticateCaller(
  service: ServiceContext,
  authorization: string | undefined,
  audience: string,
  request?: FastifyRequest,
): Promise<Caller> {
  try {
    const caller = await authenticate(service.db, authorization, audience);
    service.metrics.tokenChecks.inc({ result: 'valid' });
    if (request) noteCaller(request, caller);
    return caller;
  } catch (error) {
    service.metrics.tokenChecks.inc({ result: error instanceof AuthenticationError ? 'refused' : 'error' });
    throw error;
  }
}
