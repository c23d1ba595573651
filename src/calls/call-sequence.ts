/**
 * The steps of every operation call over the network, REST and MCP alike, declared once in order:
 * scope → organisation → rate limits → the operation's own steps (organisation exists, membership,
 * role, parse, answer) → the answer is what the operation declares (output-check.ts). A transport only says where the organisation is named (REST: the
 * Service-Organisation header; MCP: the organisation argument), where the rate-limit headers go,
 * and how an answer or a problem is rendered.
 */
import { requireScope as requireTokenScope, resolveOrganisation, type Caller } from '../auth/verify.js';
import { OPERATION_STEPS, parseCallInput, runCallSequence, type Call, type Step } from '../operations/execute.js';
import type { AnyOperation } from '../operations/operation.js';
import { applyRateLimits as applyCallLimits, type HeaderSink } from './call-limits.js';
import { checkOutput } from './output-check.js';
import { noteOrganisation } from './request-log.js';
import type { ServiceContext } from './service.js';

/** A call as it arrives over the network: with the token's caller and the transport's own parts. */
export interface NetworkCall extends Call {
  service: ServiceContext;
  caller: Caller;
  /** the organisation the call names, as sent; undefined when it names none */
  requestedOrganisation: string | undefined;
  /** where the rate-limit headers go: the Fastify reply, or the raw response MCP writes */
  headers: HeaderSink;
}

/** The token carries the scope the operation declares. */
function requireScope(call: NetworkCall): void {
  requireTokenScope(call.caller, call.op.scope);
}

/** The organisation the call acts for, among those the token covers (none for an operation about the caller). */
function chooseOrganisation(call: NetworkCall): void {
  call.organisationId = call.op.kind === 'caller' ? null : resolveOrganisation(call.caller, call.requestedOrganisation);
  if (call.organisationId) noteOrganisation(call.caller, call.organisationId);
}

/** The token's budget, and the organisation's, allow one more call. */
async function applyRateLimits(call: NetworkCall): Promise<void> {
  await applyCallLimits(call.service, call.headers, call.caller, call.organisationId);
}

export const CALL_SEQUENCE: readonly Step<NetworkCall>[] = [requireScope, chooseOrganisation, applyRateLimits, ...OPERATION_STEPS, checkOutput];

/**
 * The steps before the input is parsed, which need nothing of it: scope, organisation, rate limits,
 * membership, role. A transport whose input comes in a body runs them from the headers before the
 * body is read (REST, rest.ts), so a caller who may not make the call is refused without it.
 */
const INPUT_STEP = CALL_SEQUENCE.indexOf(parseCallInput);
const ADMISSION_STEPS = CALL_SEQUENCE.slice(0, INPUT_STEP);
const INPUT_STEPS = CALL_SEQUENCE.slice(INPUT_STEP);

export interface Arrival {
  /** the organisation the call names, as the transport received it */
  organisation: string | undefined;
  input: Record<string, unknown>;
  /** true when the input is text to convert to the declared types (a query string) */
  textInput: boolean;
  headers: HeaderSink;
  /** the Idempotency-Key header of a create */
  idempotencyKey?: string;
}

/** What arrives before the input: everything but the input itself. */
export type Admission = Omit<Arrival, 'input' | 'textInput'>;

/** The rest of an admitted call: runs it with its input and returns its answer. */
export type WithInput = (input: Record<string, unknown>, textInput: boolean) => Promise<unknown>;

/**
 * Runs the steps of CALL_SEQUENCE that come before the input, for an authenticated caller, and
 * returns the rest of the call; it throws the refusal of the first step that refuses.
 */
export async function admitCall(service: ServiceContext, caller: Caller, op: AnyOperation, admission: Admission): Promise<WithInput> {
  const call: NetworkCall = {
    env: service.env,
    service,
    caller,
    op,
    principal: caller.principal,
    coverage: caller.coverage,
    organisationId: null,
    // an API client's organisation, read with its token: loadOrganisation takes it when the call acts for it
    ...(caller.organisationRow ? { row: caller.organisationRow } : {}),
    requestedOrganisation: admission.organisation,
    input: {},
    textInput: false,
    headers: admission.headers,
    ...(admission.idempotencyKey !== undefined ? { idempotencyKey: admission.idempotencyKey } : {}),
  };
  await runCallSequence(ADMISSION_STEPS, call);
  return (input, textInput) => runCallSequence(INPUT_STEPS, Object.assign(call, { input, textInput }));
}

/** Runs an operation for an authenticated caller through CALL_SEQUENCE and returns its answer. */
export async function callOperation(service: ServiceContext, caller: Caller, op: AnyOperation, arrival: Arrival): Promise<unknown> {
  const { input, textInput, ...admission } = arrival;
  return (await admitCall(service, caller, op, admission))(input, textInput);
}
