/**
 * The rate limits of one operation call, shared by the REST and MCP transports so a token's budget
 * is the same however it calls: per token and per organisation, with the standard headers on every
 * answer and Retry-After when refused.
 */
import type { Caller } from '../auth/verify.js';
import { OperationError } from '../domain/problems.js';
import { rateLimitHeaders } from './rate-limit.js';
import type { ServiceContext } from './service.js';

/** Where the headers go: a Fastify reply, or a raw response the MCP transport writes. */
export interface HeaderSink {
  header(name: string, value: string): unknown;
}

export async function applyRateLimits(
  { limiter, limits, metrics }: Pick<ServiceContext, 'limiter' | 'limits' | 'metrics'>,
  headers: HeaderSink,
  c: Caller,
  organisationId: string | null,
): Promise<void> {
  const checks = [{ limit: limits.perToken, result: await limiter.check(limits.perToken, c.tokenKey) }];
  // a call its token may not make spends nothing of the organisation's budget: one runaway script
  // must not use up what the organisation's other clients may still do
  if (organisationId && checks[0]!.result.allowed) {
    checks.push({ limit: limits.perOrganisation, result: await limiter.check(limits.perOrganisation, organisationId) });
  }
  for (const [name, value] of Object.entries(rateLimitHeaders(checks))) headers.header(name, value);
  const refused = checks.filter((x) => !x.result.allowed);
  if (refused.length) {
    for (const r of refused) metrics.rateLimitRefusals.inc({ limit: r.limit.name });
    const wait = Math.max(...refused.map((x) => x.result.resetSeconds));
    headers.header('retry-after', String(wait));
    throw new OperationError('rate_limited', `rate limit reached (${refused.map((x) => x.limit.name).join(', ')}); retry in ${wait} s`, [], {
      retryAfter: wait,
    });
  }
}
