/** Problems (calls/problem.ts) sent over HTTP: on Fastify's reply, on a raw Node response, and for errors before a request exists. */
import { STATUS_CODES, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyReply } from 'fastify';
import { OperationError } from '../domain/problems.js';
import { problemFrom, type Problem } from '../calls/problem.js';
import { noteForLog } from '../calls/request-log.js';

export function sendProblem(reply: FastifyReply, problem: Problem): FastifyReply {
  noteForLog(reply.request, { code: problem.code });
  return reply.code(problem.status).header('content-type', 'application/problem+json; charset=utf-8').send(problem);
}

/** A problem on a raw Node response, for answers given outside Fastify's reply (the provider's hand-off). */
export function writeProblem(res: ServerResponse, problem: Problem, headers: Record<string, string> = {}): void {
  if (res.req) noteForLog(res.req, { code: problem.code });
  const body = JSON.stringify(problem);
  res.writeHead(problem.status, { ...headers, 'content-type': 'application/problem+json; charset=utf-8', 'content-length': Buffer.byteLength(body) });
  res.end(body);
}

/**
 * Fastify's clientErrorHandler: errors Node's HTTP parser meets before any request exists (headers too
 * large, malformed request lines, timeouts), answered as problem+json like everything else, then the
 * connection closed as Node itself does.
 */
export function clientErrorHandler(baseUrl: string) {
  return (error: NodeJS.ErrnoException, socket: Socket): void => {
    if (error.code === 'ECONNRESET' || socket.destroyed) return;
    const problem =
      error.code === 'HPE_HEADER_OVERFLOW'
        ? new OperationError('request_header_fields_too_large', 'the request header fields are too large')
        : error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
          ? new OperationError('request_timeout', 'the request was not received in time')
          : new OperationError('bad_request', 'the request is not valid HTTP');
    const body = JSON.stringify(problemFrom(problem, baseUrl));
    if (socket.writable)
      socket.write(
        `HTTP/1.1 ${problem.status} ${STATUS_CODES[problem.status]}\r\nContent-Type: application/problem+json; charset=utf-8\r\n` +
          `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
      );
    socket.destroy(error);
  };
}
