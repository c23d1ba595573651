/**
 * Errors as RFC 9457 problem details (application/problem+json): type, title, status, detail, a
 * stable code, and errors[] naming each bad parameter. Nothing internal ever reaches the body.
 * Every transport renders these; http/problem-reply.ts sends them over HTTP.
 */
import { OperationError, problemAnchor, type ProblemCode } from '../domain/problems.js';

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

export function internalProblem(baseUrl: string, requestId: string): Problem {
  const error = new OperationError('internal_error', `Something went wrong on our side. Quote request id ${requestId} if you contact support.`);
  return problemFrom(error, baseUrl);
}

export { OperationError };
