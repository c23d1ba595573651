/**
 * Errors as RFC 9457 problem details (application/problem+json): type, title, status, detail, a
 * stable code, and errors[] naming each bad parameter. Nothing internal ever reaches the body.
 */
import { STATUS_CODES, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyReply } from 'fastify';
import { OperationError, PROBLEMS, problemAnchor, type ProblemCode } from '../domain/problems.js';
import { noteForLog } from './request-log.js';

export interface Problem {
  type: string;
  title: string;
  status: number;
  detail: string;
  code: string;
  errors?: { parameter: string; message: string }[];
  [extra: string]: unknown;
}

/** The `type` of a problem: its row in the errors table of /docs/reference. */
export function problemType(baseUrl: string, code: ProblemCode): string {
  return `${baseUrl}/docs/reference#${problemAnchor(code)}`;
}

export function problemFrom(error: OperationError, baseUrl: string): Problem {
  return {
    ...error.extra,
    type: problemType(baseUrl, error.code),
    title: error.title,
    status: error.status,
    detail: error.message,
    code: error.code,
    ...(error.errors.length ? { errors: error.errors } : {}),
  };
}

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

export function internalProblem(baseUrl: string, requestId: string): Problem {
  const error = new OperationError('internal_error', `Something went wrong on our side. Quote request id ${requestId} if you contact support.`);
  return problemFrom(error, baseUrl);
}

export { OperationError };
