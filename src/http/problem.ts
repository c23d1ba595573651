/**
 * Errors as RFC 9457 problem details (application/problem+json): type, title, status, detail, a
 * stable code, and errors[] naming each bad parameter. Nothing internal ever reaches the body.
 */
import type { FastifyReply } from 'fastify';
import { OperationError } from '../operations/errors.js';

export interface Problem {
  type: string;
  title: string;
  status: number;
  detail: string;
  code: string;
  errors?: { parameter: string; message: string }[];
  [extra: string]: unknown;
}

export function problemFrom(error: OperationError, baseUrl: string): Problem {
  return {
    ...error.extra,
    type: `${baseUrl}/docs#error-${error.code}`,
    title: error.title,
    status: error.status,
    detail: error.message,
    code: error.code,
    ...(error.errors.length ? { errors: error.errors } : {}),
  };
}

export function sendProblem(reply: FastifyReply, problem: Problem): FastifyReply {
  return reply.code(problem.status).header('content-type', 'application/problem+json; charset=utf-8').send(problem);
}

export function internalProblem(baseUrl: string, requestId: string): Problem {
  return {
    type: `${baseUrl}/docs#error-internal_error`,
    title: 'Internal error',
    status: 500,
    detail: `Something went wrong on our side. Quote request id ${requestId} if you contact support.`,
    code: 'internal_error',
  };
}

export { OperationError };
