/**
 * Errors an operation can answer with. Each carries an HTTP status and a stable code, and every
 * transport (REST problem+json, MCP isError results, the CLI) renders the same fields.
 */

export interface ParameterError {
  parameter: string;
  message: string;
}

export class OperationError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    readonly title: string,
    message: string,
    readonly errors: ParameterError[] = [],
    /** extra, machine-readable members of the problem (e.g. close matches) */
    readonly extra: Record<string, unknown> = {},
  ) {
    super(message);
    this.name = 'OperationError';
  }
}

export function invalidRequest(errors: ParameterError[]): OperationError {
  const detail = errors.map((e) => `${e.parameter}: ${e.message}`).join('; ');
  return new OperationError(400, 'invalid_request', 'Invalid request', detail, errors);
}

export function invalidParameter(parameter: string, message: string): OperationError {
  return invalidRequest([{ parameter, message }]);
}

export function notFound(code: string, message: string, extra: Record<string, unknown> = {}): OperationError {
  return new OperationError(404, code, 'Not found', message, [], extra);
}

export function forbidden(code: string, message: string): OperationError {
  return new OperationError(403, code, 'Forbidden', message);
}

export function badRequest(code: string, message: string): OperationError {
  return new OperationError(400, code, 'Bad request', message);
}
