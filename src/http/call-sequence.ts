/**
 * The steps of every operation call over the network, REST and MCP alike, declared once in order:
 * scope → organisation → rate limits → the operation's own steps (organisation exists, membership,
 * role, parse, answer). A transport only says where the organisation is named (REST: the
 * Service-Organisation header; MCP: the organisation argument), where the rate-limit headers go,
 * and how an answer or a problem is rendered.
 */
import { requireScope as requireTokenScope, resolveOrganisation, type Caller } from '../auth/verify.js';
import { OPERATION_STEPS, runCallSequence, type Call, type Step } from '../operations/execute.js';
import type { AnyOperation } from '../operations/operation.js';
import { applyRateLimits as applyCallLimits, type HeaderSink } from './call-limits.js';
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
}

/** The token's budget, and the organisation's, allow one more call. */
async function applyRateLimits(call: NetworkCall): Promise<void> {
  await applyCallLimits(call.service, call.headers, call.caller, call.organisationId);
}

export const CALL_SEQUENCE: readonly Step<NetworkCall>[] = [requireScope, chooseOrganisation, applyRateLimits, ...OPERATION_STEPS];

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

/** Runs an operation for an authenticated caller through CALL_SEQUENCE and returns its answer. */
export function callOperation(service: ServiceContext, caller: Caller, op: AnyOperation, arrival: Arrival): Promise<unknown> {
  return runCallSequence(CALL_SEQUENCE, {
    env: service.env,
    service,
    caller,
    op,
    principal: caller.principal,
    coverage: caller.coverage,
    organisationId: null,
    // an API client's organisation, read with its token: loadOrganisation takes it when the call acts for it
    ...(caller.organisationRow ? { row: caller.organisationRow } : {}),
    requestedOrganisation: arrival.organisation,
    input: arrival.input,
    textInput: arrival.textInput,
    headers: arrival.headers,
    ...(arrival.idempotencyKey !== undefined ? { idempotencyKey: arrival.idempotencyKey } : {}),
  });
}
