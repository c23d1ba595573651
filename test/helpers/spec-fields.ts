/**
 * Every response field the spec lists (service-spec.md, "Resources and their fields"), per
 * operation, as dotted paths; a path through a list names a field of each element. The spec's
 * "present with ..." fields are always present too: null (or an empty list) where they do not apply.
 * Checked against every answer (REST and MCP) and against the output schemas, which must mark each
 * one required.
 */
import assert from 'node:assert/strict';

const nested = (prefix: string, fields: string[]) => [prefix, ...fields.map((f) => `${prefix}.${f}`)];

const LEDGER_TRANSACTION = [
  'date',
  'type',
  'number',
  'supplier',
  'description',
  'account',
  'amount',
  'currency',
  'amountInCurrency',
  'accountingSystemId',
  'link',
  'document',
];

const REPORT = [
  'report',
  'organisation',
  'currency',
  'period',
  'compareBy',
  'comparePeriods',
  ...nested('periods', ['label', 'from', 'to']),
  ...nested('sections', ['title', 'total', 'groups']),
  ...nested('sections.groups', ['title', 'total', 'accounts']),
  ...nested('sections.groups.accounts', ['name', 'amounts']),
  ...nested('summary', ['label', 'amounts']),
];

const BUCKETS = ['current', 'days1to30', 'days31to60', 'days61to90', 'days91plus', 'total'];
const AGING = ['currency', 'date', 'count', ...nested('contacts', ['contact', ...BUCKETS]), ...nested('totals', BUCKETS)];

export const SPEC_FIELDS: Record<string, string[]> = {
  organisations: [...nested('organisations', ['id', 'name']), 'allOrganisations', 'organisationRequired'],
  'ledger.account_transactions': [
    ...nested('account', ['id', 'name', 'fullName', 'type', 'subAccounts']),
    ...nested('period', ['from', 'to', 'label']),
    'currency',
    'total',
    'count',
    'groupBy',
    ...nested('groups', ['key', 'name', 'total', 'count', 'share', 'transactions']),
    ...LEDGER_TRANSACTION.map((f) => `groups.transactions.${f}`),
    ...nested('transactions', LEDGER_TRANSACTION),
    'truncated',
    // not in the spec: paging as banking.transactions has it (issue 37, item 9)
    'page',
    'pageSize',
    'hasMore',
    'reconciliation',
    'notes',
  ],
  'reports.profit_and_loss': REPORT,
  'reports.balance_sheet': REPORT,
  'accounts.list': ['count', ...nested('accounts', ['id', 'name', 'fullName', 'number', 'type', 'classification', 'active', 'parentId'])],
  'banking.accounts': [
    'count',
    ...nested('accounts', ['id', 'name', 'number', 'type', 'bank', 'currency', 'isDefault', 'toReconcile', 'transactions', 'lastTransactionDate', 'balance']),
  ],
  'banking.transactions': [
    'account',
    ...nested('period', ['from', 'to']),
    'status',
    ...nested('totals', ['openingBalance', 'moneyIn', 'moneyOut', 'closingBalance', 'transactions', 'toReconcile', 'reconciled']),
    'count',
    'page',
    'pageSize',
    'hasMore',
    ...nested('transactions', [
      'id',
      'date',
      'description',
      'amount',
      'direction',
      'currency',
      'account',
      'status',
      'reconciledIn',
      'suggestedMatch',
      'report',
      'runningBalance',
      'linked',
    ]),
    ...nested('transactions.account', ['id', 'name']),
    ...nested('transactions.linked', [
      'documentId',
      'number',
      'type',
      'supplier',
      'date',
      'currency',
      'codedTo',
      'tax',
      'details',
      'accountingId',
      'link',
      'total',
    ]),
  ],
  'bills.list_to_pay': [
    ...nested('filter', ['id', 'name', 'description']),
    'count',
    'total',
    'baseCurrency',
    ...nested('bills', [
      'supplier',
      'invoiceNumber',
      'type',
      'date',
      'dueDate',
      'scheduledDate',
      'tags',
      'currency',
      'originalAmount',
      'amountDue',
      'latestNote',
    ]),
  ],
  'bills.list_saved_filters': ['baseCurrency', ...nested('filters', ['id', 'name', 'description', 'count', 'total'])],
  'documents.get': [
    ...nested('documents', [
      'id',
      'number',
      'type',
      'supplier',
      'date',
      'dueDate',
      'currency',
      'accountingId',
      'publishedAt',
      'link',
      'subtotal',
      'tax',
      'total',
      'codedLines',
      'invoiceLines',
    ]),
    ...nested('documents.codedLines', ['id', 'description', 'account', 'accountId', 'taxCodeId', 'class', 'customer', 'quantity', 'subtotal', 'tax', 'total']),
    ...nested('documents.invoiceLines', ['id', 'description', 'productCode', 'unit', 'quantity', 'unitPrice', 'tax', 'amount']),
    'notFound',
  ],
  'documents.file': ['id', 'contentType', 'size', 'data'],
  // not in the spec: the fields issue 15 (sales, receivables and summaries) asks for
  'reports.trial_balance': [
    'currency',
    'date',
    ...nested('accounts', ['id', 'name', 'fullName', 'number', 'type', 'debit', 'credit']),
    ...nested('totals', ['debit', 'credit']),
  ],
  'reports.aged_receivables': AGING,
  'reports.aged_payables': AGING,
  'reports.cash_summary': [
    'currency',
    ...nested('period', ['from', 'to']),
    ...nested('accounts', ['id', 'name', 'start', 'in', 'out', 'end']),
    ...nested('totals', ['start', 'in', 'out', 'end']),
  ],
  'sales.list_invoices': [
    'currency',
    'page',
    'pageSize',
    'hasMore',
    ...nested('totals', ['count', 'total', 'amountDue']),
    ...nested('invoices', ['transactionId', 'type', 'number', 'customer', 'date', 'dueDate', 'total', 'amountDue', 'status']),
  ],
  'contacts.search': ['total', 'page', 'pageSize', ...nested('totals', ['spend', 'sales']), ...nested('contacts', ['id', 'name', 'kind', 'spend', 'sales'])],
};

/** The objects a path's parent reaches in an answer: lists are walked into, null stops the walk. */
function holders(value: unknown, parts: string[]): Record<string, unknown>[] {
  if (value === null || value === undefined) return [];
  if (Array.isArray(value)) return value.flatMap((v) => holders(v, parts));
  if (parts.length === 0) return [value as Record<string, unknown>];
  return holders((value as Record<string, unknown>)[parts[0]!], parts.slice(1));
}

/** Asserts that every spec field is present (possibly null) wherever its parent is. */
export function assertSpecFields(operation: string, answer: unknown): void {
  const fields = SPEC_FIELDS[operation];
  assert.ok(fields, `no spec field list for ${operation}`);
  for (const path of fields) {
    const parts = path.split('.');
    for (const holder of holders(answer, parts.slice(0, -1)))
      assert.ok(Object.hasOwn(holder, parts.at(-1)!), `${operation}: ${path} is missing in ${JSON.stringify(holder).slice(0, 200)}`);
  }
}

type Schema = Record<string, any>;

/** The schema under nullable spellings (anyOf with null, type lists) and local $refs. */
function unwrap(schema: Schema, root: Schema): Schema {
  if (schema.$ref)
    return unwrap(
      schema.$ref
        .split('/')
        .slice(1)
        .reduce((s: Schema, k: string) => s[k], root),
      root,
    );
  const branches = schema.anyOf ?? schema.oneOf;
  if (branches) {
    const real = branches.filter((b: Schema) => b.type !== 'null');
    if (real.length === 1) return unwrap(real[0], root);
  }
  return schema;
}

/** Asserts that an output schema declares every spec field and marks it required. */
export function assertSchemaRequiresSpecFields(operation: string, root: Schema): void {
  for (const path of SPEC_FIELDS[operation]!) {
    let schema = unwrap(root, root);
    for (const [i, part] of path.split('.').entries()) {
      if (schema.type === 'array') schema = unwrap(schema.items, root);
      assert.ok(schema.properties?.[part], `${operation}: the schema has no ${path}`);
      assert.ok(
        schema.required?.includes(part),
        `${operation}: the schema does not mark ${path
          .split('.')
          .slice(0, i + 1)
          .join('.')} required`,
      );
      schema = unwrap(schema.properties[part], root);
    }
  }
}

/** Asserts that every object of a schema requires all its properties: no field is sometimes left out. */
export function assertEveryPropertyRequired(name: string, schema: Schema, at = '(answer)'): void {
  if (!schema || typeof schema !== 'object') return;
  if (schema.properties) {
    const missing = Object.keys(schema.properties).filter((p) => !schema.required?.includes(p));
    assert.deepEqual(missing, [], `${name}: ${at} leaves out ${missing.join(', ')} sometimes; answer null or [] instead`);
    for (const [p, s] of Object.entries(schema.properties)) assertEveryPropertyRequired(name, s as Schema, `${at}.${p}`);
  }
  for (const key of ['items', 'anyOf', 'oneOf', 'allOf', '$defs', 'definitions']) {
    const inner = schema[key];
    if (Array.isArray(inner)) inner.forEach((s) => assertEveryPropertyRequired(name, s, at));
    else if (inner && typeof inner === 'object')
      key === '$defs' || key === 'definitions'
        ? Object.entries(inner).forEach(([k, s]) => assertEveryPropertyRequired(name, s as Schema, `$defs.${k}`))
        : assertEveryPropertyRequired(name, inner, at);
  }
}
