/**
 * What documents.publish writes: a stored document made into the transaction its type is
 * (DocumentToPublish), once it is complete. Every field still missing is named at once, in the
 * parameters a caller can act on (codedLines.2.account, createContact, paidFrom, exchangeRate,
 * taxAccount), so one answer says all there is to fix.
 */
import type { ChartAccount, Contact, DocumentToPublish } from '../../accounting/types.js';
import { supplierKey } from '../../domain/bill-criteria.js';
import { closeMatches } from '../../domain/close-matches.js';
import type { ParameterError } from '../../domain/problems.js';
import type { BankAccountRow, DocumentCodedLineRow, DocumentRow } from '../../store/schema.js';
import { OperationError } from '../errors.js';

export const PUBLISH_KINDS: Record<string, DocumentToPublish['kind']> = { bill: 'bill', expense_claim: 'bill', receipt: 'spend', supplier_credit: 'credit' };

export interface PublishChoices {
  paidFrom?: string | undefined;
  exchangeRate?: string | undefined;
  taxAccount?: string | undefined;
  createContact?: boolean | undefined;
}

export interface PlanInputs {
  row: DocumentRow;
  lines: DocumentCodedLineRow[];
  file: DocumentToPublish['file'];
  chart: ChartAccount[];
  contacts: Contact[];
  bankAccounts: BankAccountRow[];
  homeCurrency: string;
  /** the builtin ledger needs a rate for a foreign document and an account for tax; the vendors apply their own */
  ownLedger: boolean;
  key: string;
}

/** A document whose publish was sent but not confirmed holds the content it was sent with. */
export const PUBLISH_UNDER_WAY = (id: string) =>
  `document ${id} was sent to the books and its outcome is not known yet: publish it again (documents.publish) to finish, then it cannot change`;

/** An expense claim's supplier is "<employee> — <claim>": the employee is who is owed. */
export const contactNameOf = (row: Pick<DocumentRow, 'type' | 'supplier'>) =>
  row.type === 'expense_claim' ? row.supplier.split(' — ')[0]!.trim() : row.supplier.trim();

const RATE = /^(?:0|[1-9]\d{0,11})(?:\.\d{1,12})?$/;

/** The account a payment leaves from: a bank account of the service (its id), or a Bank or Credit Card account of the chart (id, number or name). */
function paidFromAccount(text: string, chart: ChartAccount[], bankAccounts: BankAccountRow[]): ChartAccount | undefined {
  const wanted = text.trim();
  const bank = bankAccounts.find((b) => b.id === wanted);
  const lower = wanted.toLowerCase();
  const spendable = chart.filter((a) => a.active && (a.type === 'Bank' || a.type === 'Credit Card'));
  if (bank) return spendable.find((a) => a.id === bank.ledger_account_id);
  return (
    spendable.find((a) => a.id === wanted || (a.number !== null && a.number === wanted) || a.fullName.toLowerCase() === lower) ??
    (spendable.filter((a) => a.name.toLowerCase() === lower).length === 1 ? spendable.find((a) => a.name.toLowerCase() === lower) : undefined)
  );
}

/** The account tax goes to in the builtin ledger: the one named, else the chart's single active tax liability. */
export function taxAccountOf(chart: ChartAccount[], named: string | undefined): ChartAccount | undefined {
  if (named) {
    const lower = named.trim().toLowerCase();
    return chart.find((a) => a.active && (a.id === named.trim() || a.number === named.trim() || a.fullName.toLowerCase() === lower));
  }
  const taxes = chart.filter((a) => a.active && a.type === 'Other Current Liability' && /\b(tax|vat|gst|hst|pst|iva|mwst|tva)\b/i.test(a.name));
  return taxes.length === 1 ? taxes[0] : undefined;
}

export function publishPlan(
  inputs: PlanInputs,
  choices: PublishChoices,
): { doc: DocumentToPublish; taxAccountId: string | null; payableId: string | null; paidFromType: 'Bank' | 'Credit Card' | null } {
  const { row, chart } = inputs;
  const errors: ParameterError[] = [];
  const fail = (parameter: string, message: string) => errors.push({ parameter, message });
  const kind = PUBLISH_KINDS[row.type]!;
  const byId = new Map(chart.map((a) => [a.id, a]));

  if (inputs.lines.length === 0) fail('codedLines', 'the document has no coded lines: code it to accounts first (documents.update with codedLines)');
  const lines = inputs.lines.map((l, i) => {
    const account = l.account_id ? byId.get(l.account_id) : undefined;
    if (!l.account_id) fail(`codedLines.${i}.account`, `line ${i + 1} ("${l.description}") is not coded to an account`);
    else if (!account)
      fail(`codedLines.${i}.account`, `line ${i + 1} is coded to ${l.account_name ?? l.account_id}, which is no longer in the chart of accounts`);
    else if (!account.active) fail(`codedLines.${i}.account`, `line ${i + 1} is coded to ${account.fullName}, which is archived in the books`);
    return {
      description: l.description,
      accountId: l.account_id ?? '',
      taxCodeId: l.tax_code_id,
      quantity: l.quantity,
      subtotal: Number(l.subtotal),
      tax: Number(l.tax),
      total: Number(l.total),
    };
  });
  if (Number(row.total) <= 0) fail('total', 'a document of nothing cannot be published');

  // the supplier (or employee) as the books know them, else created once the caller confirms it
  const name = contactNameOf(row);
  const wantedKind = row.type === 'expense_claim' ? 'employee' : 'supplier';
  const known = inputs.contacts.filter((c) => supplierKey(c.name) === supplierKey(name));
  const contact = known.find((c) => c.kind === wantedKind) ?? known[0];
  if (!contact && choices.createContact !== true) {
    const close = closeMatches(name, inputs.contacts, (c) => [c.name]).map((c) => c.name);
    fail(
      'createContact',
      `${name} is not a ${wantedKind} in the books yet: publish with createContact: true to create it${
        close.length ? `, or correct the document's supplier (close: ${close.join(', ')})` : ''
      }`,
    );
  }

  let paidFromAccountId: string | null = null;
  let paidFromType: 'Bank' | 'Credit Card' | null = null;
  if (kind === 'spend') {
    const account = choices.paidFrom ? paidFromAccount(choices.paidFrom, chart, inputs.bankAccounts) : undefined;
    if (!choices.paidFrom)
      fail(
        'paidFrom',
        "a receipt is published as money spent from a bank or card account: name it (a bank account id from banking.accounts, or the account's number or name)",
      );
    else if (!account) fail('paidFrom', `"${choices.paidFrom}" is not an active bank or card account of the books`);
    else {
      paidFromAccountId = account.id;
      paidFromType = account.type as 'Bank' | 'Credit Card';
    }
  }

  const foreign = row.currency !== inputs.homeCurrency;
  const exchangeRate = foreign ? (choices.exchangeRate?.trim() ?? null) : null;
  if (exchangeRate !== null && (!RATE.test(exchangeRate) || Number(exchangeRate) <= 0))
    fail('exchangeRate', 'must be a positive decimal: home currency units per unit of the document currency');
  else if (foreign && inputs.ownLedger && exchangeRate === null)
    fail('exchangeRate', `the document is in ${row.currency}: give the rate (${inputs.homeCurrency} per ${row.currency}) it is to be booked at`);

  let taxAccountId: string | null = null;
  let payableId: string | null = null;
  if (inputs.ownLedger) {
    if (Number(row.tax) !== 0) {
      const tax = taxAccountOf(chart, choices.taxAccount);
      if (!tax)
        fail(
          'taxAccount',
          choices.taxAccount
            ? `"${choices.taxAccount}" is not an active account of the chart`
            : 'the chart has no single tax account (an Other Current Liability named for VAT, GST or tax): name the account tax goes to',
        );
      else taxAccountId = tax.id;
    }
    if (kind !== 'spend') {
      const payables = chart.filter((a) => a.active && a.type === 'Accounts Payable');
      if (payables.length === 0) fail('codedLines', 'the chart has no Accounts Payable account for the amount owed');
      else payableId = payables[0]!.id;
    }
  }

  if (errors.length)
    throw new OperationError(
      'document_incomplete',
      `document ${row.id} cannot be published yet: ${errors.map((e) => `${e.parameter}: ${e.message}`).join('; ')}`,
      errors,
    );
  return {
    doc: {
      ...rowDocument(row, inputs.key, inputs.homeCurrency),
      contact: { id: contact?.id ?? null, name: contact?.name ?? name, kind: wantedKind },
      exchangeRate,
      lines,
      paidFromAccountId,
      file: inputs.file,
    },
    taxAccountId,
    payableId,
    paidFromType,
  };
}

/**
 * What the stored row alone says of the document to publish: the contact by name (not yet looked
 * up in the books), the rate it was sent with, no lines, account or file. Enough to look an earlier
 * try up by its key when the plan no longer holds; publishPlan completes it.
 */
export function rowDocument(row: DocumentRow, key: string, homeCurrency: string): DocumentToPublish {
  return {
    documentId: row.id,
    key,
    kind: PUBLISH_KINDS[row.type]!,
    type: row.type as DocumentToPublish['type'],
    contact: { id: null, name: contactNameOf(row), kind: row.type === 'expense_claim' ? 'employee' : 'supplier' },
    number: row.number,
    date: row.date,
    dueDate: row.due_date,
    currency: row.currency,
    exchangeRate: row.currency === homeCurrency ? null : (row.exchange_rate ?? null),
    lines: [],
    subtotal: Number(row.subtotal),
    tax: Number(row.tax),
    total: Number(row.total),
    paidFromAccountId: null,
    file: null,
  };
}
