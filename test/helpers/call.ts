/** Calls an operation the way every transport does (runOrganisationOperation), with today fixed; its links as REST writes them. */
import { restLinks } from '../../src/http/answer-body.js';
import type { Principal } from '../../src/operations/context.js';
import { renderLinks } from '../../src/operations/links.js';
import { runOrganisationOperation } from '../../src/operations/execute.js';
import type { OrganisationOperation } from '../../src/operations/operation.js';
import type { Store } from '../../src/store/db.js';

export const BASE_URL = 'https://ledgerline.test';

/** The organisation's own API client: roles do not apply to it. */
export const CLIENT: Principal = { kind: 'client', clientId: 'test-client' };

export function asUser(userId: string, email = `${userId}@example.test`): Principal {
  // the role is read live from the membership; this one is a placeholder
  return { kind: 'user', userId, email, role: 'custom' };
}

export interface CallOptions {
  today: string;
  principal?: Principal;
  /** treat input values as text (query string / CLI) */
  text?: boolean;
}

export async function call<T = any>(
  store: Store,
  op: OrganisationOperation<any, any>,
  organisationId: string,
  input: Record<string, unknown>,
  options: CallOptions,
): Promise<T> {
  const answer = await runOrganisationOperation({ db: store.db, baseUrl: BASE_URL, today: options.today }, op, options.principal ?? CLIENT, organisationId, {
    input,
    textInput: options.text ?? false,
  });
  return renderLinks(answer, restLinks(BASE_URL)) as T;
}

/** Runs fn and returns the error it throws, failing when it throws nothing. */
export async function rejection(fn: () => Promise<unknown>): Promise<any> {
  try {
    await fn();
  } catch (error) {
    return error;
  }
  throw new Error('expected an error, got a result');
}
