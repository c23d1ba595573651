/**
 * Every problem the service answers, declared once: its stable code, HTTP status, title, and the
 * meaning the /docs reference shows (its anchor, #error-<code>, is every problem's `type` link).
 * A thrower names the code and says what happened; status and title come from here, so the same
 * code always answers the same way (RFC 9457: a type's title does not change between occurrences),
 * and a code not in this list is a type error. It sits at the bottom floor so that store/, auth/,
 * http/, mcp/ and web/ can all raise problems without reaching up.
 */

interface ProblemEntry {
  status: number;
  title: string;
  /** the text of its row in the /docs errors table */
  meaning: string;
}

/** The title a problem of each status has unless its entry names its own (the status's reason phrase, as the service has always spelt it). */
const REASON_PHRASES = {
  400: 'Bad request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not found',
  405: 'Method not allowed',
  408: 'Request Timeout',
  409: 'Conflict',
  413: 'Payload too large',
  415: 'Unsupported media type',
  422: 'Unprocessable content',
  429: 'Too many requests',
  431: 'Request Header Fields Too Large',
  500: 'Internal error',
  502: 'Bad gateway',
  503: 'Service unavailable',
  504: 'Gateway timeout',
} as const;

type DeclaredProblem = Omit<ProblemEntry, 'status' | 'title'> & { status: keyof typeof REASON_PHRASES; title?: string };

const DECLARED = {
  invalid_request: { status: 400, title: 'Invalid request', meaning: 'A parameter is missing, unknown or invalid; errors[] names each one.' },
  bad_request: { status: 400, meaning: 'The request itself could not be read: malformed JSON, an invalid URL, or broken HTTP.' },
  organisation_required: {
    status: 400,
    title: 'Organisation required',
    meaning: 'The token covers several organisations: send the Service-Organisation header (REST) or the organisation argument (MCP).',
  },
  invalid_token: { status: 401, meaning: 'No access token, or it is expired, revoked, or for another resource.' },
  insufficient_scope: { status: 403, meaning: 'The token lacks the scope the operation needs.' },
  role_not_allowed: { status: 403, meaning: "Your role in this organisation may not call this operation (the organisation's role policy)." },
  organisation_not_approved: { status: 403, meaning: 'The connection was not approved for that organisation.' },
  not_a_member: { status: 403, meaning: 'You are no longer a member of that organisation.' },
  app_blocked: { status: 403, meaning: "That organisation's admins blocked the app this token was issued to." },
  organisation_not_allowed: { status: 403, meaning: "An organisation's own API client named another organisation." },
  no_organisation: { status: 403, meaning: 'The connection covers no organisation you are still a member of.' },
  invalid_host: { status: 403, meaning: 'The MCP endpoint of a loopback server answers loopback host names only (DNS rebinding).' },
  accounting_unavailable: { status: 502, title: 'Accounting system unavailable', meaning: "The organisation's accounting system could not be read." },
  accounting_rate_limited: {
    status: 503,
    title: 'Accounting system rate limited',
    meaning: "The organisation's accounting system allows no more calls for now (its published limits); retry after Retry-After seconds.",
  },
  accounting_timeout: { status: 504, title: 'Accounting system timeout', meaning: "The organisation's accounting system did not answer in time." },
  account_not_found: { status: 404, meaning: 'No such account; candidates lists close matches.' },
  supplier_not_found: { status: 404, meaning: 'No such supplier; candidates lists close matches.' },
  organisation_not_found: { status: 404, meaning: 'The organisation the call acts for no longer exists.' },
  not_found: { status: 404, meaning: 'No such document or file, or nothing at that path.' },
  unknown_operation: { status: 404, meaning: 'No operation of that name.' },
  not_document_owner: { status: 403, meaning: 'A submitter may change or delete only the documents they created.' },
  document_published: { status: 409, meaning: 'The document is published to the books; its content can no longer be changed or deleted.' },
  document_incomplete: {
    status: 422,
    meaning:
      'The document cannot be published yet: errors[] names each field to complete (a line without an account, a new supplier to confirm, the account ' +
      'a receipt was paid from).',
  },
  publishing_not_supported: {
    status: 409,
    meaning: "The organisation's books cannot be written through the service (a GnuCash book is read from its file): publish in the accounting system itself.",
  },
  accounting_refused: {
    status: 422,
    meaning:
      'The accounting system refused the change (a closed period or lock date, an archived account, a validation error); errors[] names the field. ' +
      'Nothing was written.',
  },
  match_amounts_differ: {
    status: 422,
    meaning: 'The bank lines do not add up to what the document or bill asks: match the right lines, or name the difference as a fee or rounding.',
  },
  already_matched: { status: 409, meaning: 'A bank line or document is already matched or reconciled; unmatch it first.' },
  already_exists: { status: 409, meaning: 'Something of that name already exists in this organisation.' },
  idempotency_key_in_use: { status: 409, meaning: 'A request with this Idempotency-Key is still being processed; retry in a moment.' },
  idempotency_key_reused: {
    status: 422,
    meaning: 'This Idempotency-Key was used for a different request in the last 24 hours; send a new key for a new request.',
  },
  method_not_allowed: { status: 405, meaning: 'The operation is served with another HTTP method; the Allow header names it.' },
  request_timeout: { status: 408, meaning: 'The request did not arrive in time.' },
  file_too_large: { status: 413, title: 'File too large', meaning: 'The stored file is over the 10 MB limit.' },
  payload_too_large: { status: 413, meaning: 'The request body is over the limit for its endpoint.' },
  unsupported_media_type: { status: 415, meaning: 'The request body is of a type this endpoint does not read.' },
  request_header_fields_too_large: { status: 431, meaning: 'The request headers are over the limit (16 KB in all).' },
  rate_limited: { status: 429, meaning: 'Too many requests; wait for Retry-After seconds.' },
  internal_error: { status: 500, meaning: 'Something failed on our side; quote the request id.' },
  database_unavailable: { status: 503, meaning: 'The database is unavailable for a moment; retry after Retry-After seconds.' },
} as const satisfies Record<string, DeclaredProblem>;

export type ProblemCode = keyof typeof DECLARED;

export const PROBLEMS = Object.fromEntries(
  Object.entries(DECLARED).map(([code, p]: [string, DeclaredProblem]) => [
    code,
    { status: p.status, title: p.title ?? REASON_PHRASES[p.status], meaning: p.meaning },
  ]),
) as Readonly<Record<ProblemCode, Readonly<ProblemEntry>>>;

export const PROBLEM_CODES = Object.keys(PROBLEMS) as ProblemCode[];

/** The anchor on /docs a problem's `type` links to. */
export function problemAnchor(code: ProblemCode): string {
  return `error-${code}`;
}

export interface ParameterError {
  parameter: string;
  message: string;
}

/** A problem to answer the caller with; every transport (REST, MCP, CLI) renders the same fields. */
export class OperationError extends Error {
  readonly status: number;
  readonly title: string;

  constructor(
    readonly code: ProblemCode,
    message: string,
    readonly errors: ParameterError[] = [],
    /** extra, machine-readable members of the problem (e.g. close matches) */
    readonly extra: Record<string, unknown> = {},
  ) {
    super(message);
    this.name = 'OperationError';
    this.status = PROBLEMS[code].status;
    this.title = PROBLEMS[code].title;
  }
}

export function invalidRequest(errors: ParameterError[]): OperationError {
  const detail = errors.map((e) => `${e.parameter}: ${e.message}`).join('; ');
  return new OperationError('invalid_request', detail, errors);
}

export function invalidParameter(parameter: string, message: string): OperationError {
  return invalidRequest([{ parameter, message }]);
}
