/**
 * The service's log: one JSON line per event through pino, the logger Fastify is built on, written
 * asynchronously (pino buffers and writes off the request path, so logging does not hold an
 * answer). The fields are the ones the log always had: `time` (ISO), `level` as a word, `message`,
 * and per request `requestId`, `method`, `route`, `status`, `ms`; with, when they apply, who called
 * (`organisationId`, `clientId`, `userId`: ids, never emails), the problem `code` of an error, a 404's
 * `path` (no query, secret segments hidden) and an MCP request's `mcpMethod` and `tool`
 * (request-log.ts).
 */
import pino, { type DestinationStream, type Logger } from 'pino';

export type { Logger } from 'pino';

export function createLogger(options: { level?: string; destination?: DestinationStream } = {}): Logger {
  return pino(
    {
      level: options.level ?? 'info',
      base: undefined,
      messageKey: 'message',
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }) },
    },
    options.destination ?? pino.destination({ sync: false }),
  );
}

/** For a server built where nothing reads its log (in-process tools). */
export const silentLogger = (): Logger => pino({ level: 'silent' });
