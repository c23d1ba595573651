/**
 * The examples /openapi.json shows for every operation, made by calling each operation in-process
 * against the demo's books (src/demo: the same date and seed always write the same rows). Each
 * example is a request an integrator might send and the answer the operation gave, with long lists
 * cut to their first items. `npm run examples:openapi` writes them to openapi-examples.json, which
 * openapi.ts reads; test/openapi-examples.test.ts makes them again and fails when they differ, or
 * when one no longer fits its operation's schemas.
 */
import { createHash } from 'node:crypto';
import type { Coverage, Principal } from '../domain/access.js';
import { OperationError } from '../domain/problems.js';
import { generateDemo } from '../demo/generate.js';
import { runCallerOperation, runOrganisationOperation, type CallEnvironment } from '../operations/execute.js';
import { renderLinks } from '../operations/links.js';
import { restLinks } from './answer-body.js';
import { OPERATIONS } from '../operations/index.js';
import type { AnyOperation, OrganisationOperation } from '../operations/operation.js';
import type { Store } from '../store/db.js';
import { problemFrom, type Problem } from '../calls/problem.js';
import { insertBankLines, statementLine } from '../store/bank-lines.js';

/** The demo the examples are read from. */
export const EXAMPLES_DEMO = { date: '2026-11-21', seed: 7, scale: 1 } as const;
/** The base URL the examples' links are written with; openapi.ts puts the server's own in its place. */
export const EXAMPLES_BASE_URL = 'https://ledgerline.example';
/** Longest list an example keeps. */
export const EXAMPLE_LIST_ITEMS = 3;

export interface OperationExample {
  /** the parameters (query) or the JSON body sent */
  input: Record<string, unknown>;
  /** what the operation answered, its long lists cut */
  output: unknown;
}

export interface ApiExamples {
  /** where the examples come from, the base URL their links are written with, and the longest list kept */
  demo: { date: string; seed: number; organisation: string; baseUrl: string; listItems: number };
  operations: Record<string, OperationExample>;
  /** problems the operations answered for bad calls, by code */
  problems: Record<string, Problem>;
}

/** A small but complete PDF (one empty page), the kind of original file a scanner sends. */
const PDF = Buffer.from(
  '%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj\n2 0 obj<</Type/Pages/Kids[3 0 R]/Count 1>>endobj\n3 0 obj<</Type/Page/Parent 2 0 R/MediaBox[0 ' +
    '0 595 842]>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n',
).toString('base64');

/** Lists cut to their first items, everywhere in an answer. */
export function trimLists(value: unknown, items = EXAMPLE_LIST_ITEMS): unknown {
  if (Array.isArray(value)) return value.slice(0, items).map((v) => trimLists(v, items));
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, trimLists(v, items)]));
  return value;
}

const ID = /\b(doc|bill|dcl|dil|flt|txn|bm|pub|pay)_[0-9a-hjkmnp-tv-z]{16}\b/g;
const ALPHABET = '0123456789abcdefghjkmnpqrstvwxyz';

/**
 * The ids the changes made are random (store/ids.ts); each is replaced, everywhere in the examples,
 * by one of the same form made from its prefix and its order of appearance, so the examples are the
 * same on every run while a created document's id is still the id its update and delete name.
 */
function steadyIds<T>(examples: T, before: Set<string>): T {
  const text = JSON.stringify(examples);
  const renamed = new Map<string, string>();
  for (const [id, prefix] of text.matchAll(ID)) {
    if (before.has(id) || renamed.has(id)) continue;
    const digest = createHash('sha256').update(`ledgerline-example/${prefix}/${renamed.size}`).digest();
    renamed.set(id, `${prefix}_${[...digest.subarray(0, 16)].map((b) => ALPHABET[b & 31]).join('')}`);
  }
  return JSON.parse(text.replace(ID, (id) => renamed.get(id) ?? id)) as T;
}

/**
 * Times the clock stamped during the run (a document's publishedAt) as one fixed time of the demo's
 * day: the demo itself writes nothing after its date, so any later time is the clock's, and would
 * make the examples differ on every run.
 */
function steadyTimes<T>(examples: T): T {
  const end = `${EXAMPLES_DEMO.date}T23:59:59.999Z`;
  const text = JSON.stringify(examples).replace(/\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z/g, (t) => (t > end ? `${EXAMPLES_DEMO.date}T12:00:00.000Z` : t));
  return JSON.parse(text) as T;
}

function operation(name: string): AnyOperation {
  const op = OPERATIONS.find((o) => o.name === name);
  if (!op) throw new Error(`no operation ${name}`);
  return op;
}

/**
 * Makes the examples: a fresh demo in `store` (an empty, migrated database), then every operation
 * called as the first demo organisation's own API client, its inputs chosen from earlier answers.
 */
export async function generateApiExamples(store: Store): Promise<ApiExamples> {
  const demo = await generateDemo(store, { ...EXAMPLES_DEMO });
  const org = demo.organisations[0]!;
  const env: CallEnvironment = { db: store.db, baseUrl: EXAMPLES_BASE_URL, today: EXAMPLES_DEMO.date };
  const client: Principal = { kind: 'client', clientId: 'cli_example' };
  const operations: Record<string, OperationExample> = {};
  const problems: Record<string, Problem> = {};

  const run = async (name: string, input: Record<string, unknown>): Promise<any> => {
    const op = operation(name) as OrganisationOperation<any, any>;
    // an example shows what REST sends: links as REST's URLs
    return renderLinks(await runOrganisationOperation(env, op, client, org.id, { input }), restLinks(EXAMPLES_BASE_URL));
  };
  const example = async (name: string, input: Record<string, unknown>): Promise<any> => {
    const output = await run(name, input);
    operations[name] = { input, output: trimLists(output) };
    return output;
  };
  const problem = async (name: string, input: Record<string, unknown>): Promise<void> => {
    try {
      await run(name, input);
    } catch (error) {
      if (!(error instanceof OperationError)) throw error;
      problems[error.code] = problemFrom(error, EXAMPLES_BASE_URL);
      return;
    }
    throw new Error(`${name} ${JSON.stringify(input)} was expected to fail`);
  };

  // a person whose connection covers every demo organisation: each call must name one
  const person: Principal = { kind: 'user', userId: 'usr_example', email: 'alice@demo.ledgerline.test', role: 'super_admin' };
  const coverage: Coverage = { organisations: demo.organisations.map((o) => ({ id: o.id, name: o.name })), all: false };
  operations.organisations = { input: {}, output: await runCallerOperation(env, operation('organisations') as any, person, coverage, { input: {} }) };

  const accounts = await example('accounts.list', { search: 'bank' });
  const expenses = (await run('accounts.list', { search: 'software' })).accounts[0] ?? accounts.accounts[0];
  await example('ledger.account_transactions', { account: expenses.name, period: 'last_month', limit: 3 });
  await example('reports.profit_and_loss', { period: 'last_month', comparePeriods: 1, compareBy: 'year' });
  await example('reports.balance_sheet', { asAt: '2026-10-31' });
  const banks = await example('banking.accounts', {});
  await example('banking.transactions', { account: banks.accounts[0].id, period: 'last_month', limit: 3 });
  const filters = await example('bills.list_saved_filters', {});
  await example('bills.list_to_pay', { filter: filters.filters.find((f: any) => f.count > 0)?.name ?? filters.filters[0].name, limit: 3 });
  const lines = await run('ledger.account_transactions', { account: expenses.name, period: 'last_year', limit: 50 });
  const withDocument = lines.transactions.find((t: any) => t.document)?.document.id;
  await example('documents.get', { ids: withDocument });
  await example('reports.trial_balance', { date: '2026-10-31' });
  await example('reports.aged_receivables', { detail: true, limit: 2 });
  await example('reports.aged_payables', { limit: 3 });
  await example('reports.cash_summary', { period: 'last_month' });
  await example('contacts.search', { kind: 'supplier', period: 'last_month', limit: 3 });
  await example('sales.list_invoices', { period: 'last_month', limit: 3 });

  const before = new Set(JSON.stringify(operations).match(ID) ?? []);
  const octopusBill = {
    type: 'bill',
    number: 'INV-20931',
    supplier: 'Octopus Energy Ltd',
    date: '2026-11-18',
    dueDate: '2026-12-02',
    currency: 'GBP',
    subtotal: 212.4,
    tax: 42.48,
    total: 254.88,
    codedLines: [{ description: 'Electricity, October 2026', account: 'Utilities:Electricity', subtotal: 212.4, tax: 42.48, total: 254.88 }],
    invoiceLines: [{ description: 'Electricity, October 2026', unit: 'kWh', quantity: 708, unitPrice: 0.3, tax: 42.48, amount: 212.4 }],
    file: { name: 'octopus-INV-20931.pdf', data: PDF },
  };
  const created = await example('documents.create', octopusBill);
  const documentId = created.document.id;
  await example('documents.file', { id: documentId });
  await example('documents.update', { id: documentId, scheduledDate: '2026-11-28', tags: 'utilities,office', note: 'Pay with the month-end run' });
  await example('documents.publish', { id: documentId });
  // the bill's payment as the bank shows it, then matched to it, undone, and another line marked reconciled elsewhere
  const payment = await paymentLine(store, org.id, banks.accounts[0].id, created.document);
  await example('banking.match', { transactionIds: payment, documentId });
  await example('banking.unmatch', { transactionId: payment });
  const open = (await run('banking.transactions', { account: banks.accounts[0].id, status: 'to_reconcile', period: 'last_month', limit: 1 })).transactions[0];
  await example('banking.mark_reconciled', { transactionIds: open?.id ?? payment });
  // a published document stays: the delete is of a second one, not yet published
  const draft = await run('documents.create', { ...octopusBill, number: 'INV-20932', file: null });
  await example('documents.delete', { id: draft.document.id });
  const filter = await example('bills.create_saved_filter', {
    name: 'Due in the next 7 days',
    description: 'Bills and expense claims to pay this week',
    criteria: { kinds: ['bill', 'expense_claim'], dueWithinDays: 7 },
  });
  await example('bills.update_saved_filter', {
    id: filter.filter.id,
    name: 'Due in the next 10 days',
    criteria: { kinds: ['bill', 'expense_claim'], dueWithinDays: 10 },
  });
  await example('bills.delete_saved_filter', { id: filter.filter.id });

  await problem('reports.profit_and_loss', { period: 'last_fortnight', comparePeriods: 13 });
  await problem('documents.file', { id: 'doc_0000000000000000' });
  await problem('ledger.account_transactions', { account: 'Sofware' });

  const missing = OPERATIONS.filter((op) => !operations[op.name]).map((op) => op.name);
  if (missing.length) throw new Error(`no example for ${missing.join(', ')}`);
  const ordered = Object.fromEntries(OPERATIONS.map((op) => [op.name, operations[op.name]!]));
  return {
    demo: { date: EXAMPLES_DEMO.date, seed: EXAMPLES_DEMO.seed, organisation: org.name, baseUrl: EXAMPLES_BASE_URL, listItems: EXAMPLE_LIST_ITEMS },
    operations: steadyTimes(steadyIds(ordered, before)),
    problems,
  };
}

/** A bank line paying a published document in full (the examples' statement line). */
async function paymentLine(
  store: Store,
  organisationId: string,
  bankAccountId: string,
  document: { total: number; number: string; supplier: string; date: string },
): Promise<string> {
  const line = statementLine({
    id: 'btx_example_payment',
    organisationId,
    bankAccountId,
    date: document.date,
    description: `${document.supplier.toUpperCase().slice(0, 18)} ${document.number}`,
    amount: -Math.round(document.total * 100),
  });
  await insertBankLines(store.db, [line]);
  return line.id;
}
