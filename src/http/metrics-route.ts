/**
 * GET /metrics for Prometheus, behind a bearer token from configuration (METRICS_TOKEN). Without a
 * token it is off (404, as for any unknown path): the numbers describe the service's traffic and
 * organisations' use, and "only from loopback" would open it to everyone behind a reverse proxy on
 * the same host, where every request comes from loopback.
 */
import type { FastifyInstance } from 'fastify';
import { constantTimeEqual } from '../store/hash.js';
import { OperationError } from '../domain/problems.js';
import type { Metrics } from '../calls/metrics.js';
import { problemFrom } from '../calls/problem.js';
import { sendProblem } from './problem-reply.js';

export function registerMetrics(app: FastifyInstance, metrics: Metrics, baseUrl: string, token: string | undefined): void {
  if (!token) return;
  app.get('/metrics', async (request, reply) => {
    const given = /^Bearer (.+)$/i.exec(request.headers.authorization ?? '')?.[1]?.trim() ?? '';
    if (!constantTimeEqual(given, token)) {
      reply.header('www-authenticate', 'Bearer realm="metrics"');
      return sendProblem(reply, problemFrom(new OperationError('invalid_token', 'the metrics want the bearer token set in METRICS_TOKEN'), baseUrl));
    }
    return reply
      .header('content-type', metrics.registry.contentType)
      .header('cache-control', 'no-store')
      .send(await metrics.registry.metrics());
  });
}
