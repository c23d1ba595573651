/**
 * completion/complete for the prompts' arguments (MCP completes prompt and resource-template
 * arguments, not tool arguments): organisation ids from the token's coverage; account, supplier and
 * filter names read through the same call sequence as the tools, so scopes, roles and rate limits
 * apply alike. A completion that cannot be read (no organisation chosen, a role that may not list
 * bills) offers nothing rather than failing: it is a hint while the user types.
 */
import type { CompleteResult } from '@modelcontextprotocol/server';
import { INVALID_PARAMS } from '@modelcontextprotocol/server';
import type { Caller } from '../auth/verify.js';
import type { HeaderSink } from '../calls/call-limits.js';
import { callOperation } from '../calls/call-sequence.js';
import type { ServiceContext } from '../calls/service.js';
import { accountsList } from '../operations/accounts-list.js';
import { billsListSavedFilters } from '../operations/bills-list-saved-filters.js';
import { billsListToPay } from '../operations/bills-list-to-pay.js';
import { findPrompt } from './prompts.js';

/** MCP caps a completion at 100 values. */
const MAX_VALUES = 100;

export interface CompletionRequest {
  ref: { type: string; name?: string; uri?: string };
  argument: { name: string; value: string };
  context?: { arguments?: Record<string, string> };
}

type Source = (service: ServiceContext, caller: Caller, organisation: string | undefined, headers: HeaderSink) => Promise<string[]>;

const SOURCES: Record<string, Source> = {
  organisation: async (_service, caller) => caller.coverage.organisations.map((o) => o.id),
  account: async (service, caller, organisation, headers) => {
    const answer = (await callOperation(service, caller, accountsList, { organisation, input: {}, textInput: false, headers })) as {
      accounts: { fullName: string }[];
    };
    return answer.accounts.map((a) => a.fullName);
  },
  supplier: async (service, caller, organisation, headers) => {
    const answer = (await callOperation(service, caller, billsListToPay, { organisation, input: {}, textInput: false, headers })) as {
      bills: { supplier: string }[];
    };
    return [...new Set(answer.bills.map((b) => b.supplier))];
  },
  filter: async (service, caller, organisation, headers) => {
    const answer = (await callOperation(service, caller, billsListSavedFilters, { organisation, input: {}, textInput: false, headers })) as {
      filters: { name: string }[];
    };
    return answer.filters.map((f) => f.name);
  },
};

/** Values that start with what was typed, then values that contain it, case-insensitive. */
function matching(values: string[], typed: string): string[] {
  const t = typed.trim().toLowerCase();
  const starts = values.filter((v) => v.toLowerCase().startsWith(t));
  const contains = values.filter((v) => !v.toLowerCase().startsWith(t) && v.toLowerCase().includes(t));
  return [...starts, ...contains];
}

export async function complete(service: ServiceContext, caller: Caller, headers: HeaderSink, request: CompletionRequest): Promise<CompleteResult> {
  const { ref, argument } = request;
  const prompt = ref.type === 'ref/prompt' && ref.name ? findPrompt(ref.name) : undefined;
  if (!prompt)
    throw Object.assign(new Error(`Unknown ${ref.type === 'ref/prompt' ? `prompt: ${ref.name}` : `reference: ${ref.type}`}`), { code: INVALID_PARAMS });
  const source = prompt.arguments?.some((a) => a.name === argument.name) ? SOURCES[argument.name] : undefined;
  if (!source) return { completion: { values: [], total: 0, hasMore: false } };
  let values: string[];
  try {
    values = matching(await source(service, caller, request.context?.arguments?.organisation, headers), argument.value);
  } catch {
    values = [];
  }
  return { completion: { values: values.slice(0, MAX_VALUES), total: values.length, hasMore: values.length > MAX_VALUES } };
}
