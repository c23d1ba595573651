/**
 * A document as sent (major units, account names, base64) checked whole and turned into what is
 * stored (minor units, resolved accounts, bytes). Every problem is named by its field, all at once,
 * so a caller fixes a document in one round; nothing is written unless it all holds.
 */
import type { ChartAccount } from '../../accounting/types.js';
import { amountBoundText, fromMajor, overAmountBound, sum } from '../../domain/money.js';
import { resolveAccount } from '../account-lookup.js';
import { invalidRequest, OperationError, type ParameterError } from '../errors.js';
import type { DocumentToStore } from '../../store/document-writes.js';
import { FILE_TYPE_NAMES, MAX_DOCUMENT_FILE_BYTES, sniffDocumentFileType } from './file-type.js';
import { PAYABLE_TYPES, type CreateInput } from './input.js';

/** What is stored: minor units, resolved accounts, the file's bytes and the type read from them. */
export type CheckedDocument = DocumentToStore;

/** A document whose file is already stored is checked without it (the stored one stays). */
export type DocumentDraft = Omit<CreateInput, 'file'> & { file?: CreateInput['file'] | 'kept' };

export function checkDocument(draft: DocumentDraft, chart: ChartAccount[]): CheckedDocument {
  const errors: ParameterError[] = [];
  const fail = (parameter: string, message: string) => errors.push({ parameter, message });
  const currency = draft.currency;
  // sums are compared only when every amount is one: a bad amount is named once, not in every sum it is part of
  let amountsRead = true;
  const minor = (value: number, parameter: string): number => {
    // far below where sums of minor units stop being exact (domain/money.ts MAX_AMOUNT_MINOR)
    if (overAmountBound(value, currency)) {
      amountsRead = false;
      fail(parameter, `must be at most ${amountBoundText(currency)} in size (got ${value})`);
      return 0;
    }
    const m = fromMajor(value, currency);
    if (m === null) {
      amountsRead = false;
      fail(parameter, `${value} is not an amount in ${currency} (too many decimals)`);
    }
    return m ?? 0;
  };
  const subtotal = minor(draft.subtotal, 'subtotal');
  const tax = minor(draft.tax, 'tax');
  const total = minor(draft.total, 'total');
  if (total < 0 || subtotal < 0) fail(total < 0 ? 'total' : 'subtotal', 'must not be negative (a credit is a supplier_credit document with positive amounts)');
  if (amountsRead && subtotal + tax !== total) fail('total', `must equal subtotal plus tax (${draft.subtotal} + ${draft.tax})`);
  if (draft.dueDate && draft.dueDate < draft.date) fail('dueDate', `must not be before the document date ${draft.date}`);
  // lines, where a document lists any, must add up to its subtotal (their `net` amounts) and its tax
  const addUpToDocument = <Net extends string>(field: 'codedLines' | 'invoiceLines', lines: (Record<Net, number> & { tax: number })[], net: Net) => {
    if (lines.length === 0 || !amountsRead) return;
    if (sum(lines.map((l) => l[net])) !== subtotal) fail(field, `their ${net}s must add up to the document subtotal ${draft.subtotal}`);
    if (sum(lines.map((l) => l.tax)) !== tax) fail(field, `their tax must add up to the document tax ${draft.tax}`);
  };

  const codedLines = draft.codedLines.map((line, i) => {
    const at = `codedLines.${i}`;
    const amounts = { subtotal: minor(line.subtotal, `${at}.subtotal`), tax: minor(line.tax, `${at}.tax`), total: minor(line.total, `${at}.total`) };
    if (amountsRead && amounts.subtotal + amounts.tax !== amounts.total)
      fail(`${at}.total`, `must equal the line's subtotal plus tax (${line.subtotal} + ${line.tax})`);
    let account: ChartAccount | null = null;
    if (line.account) {
      try {
        account = resolveAccount(chart, line.account, `${at}.account`);
      } catch (error) {
        if (!(error instanceof OperationError)) throw error;
        fail(`${at}.account`, error.errors[0]?.message ?? error.message);
      }
    }
    return {
      description: line.description,
      account_id: account?.id ?? null,
      account_name: account?.fullName ?? null,
      tax_code_id: line.taxCodeId ?? null,
      class: line.class ?? null,
      customer: line.customer ?? null,
      quantity: String(line.quantity),
      ...amounts,
    };
  });
  addUpToDocument('codedLines', codedLines, 'subtotal');

  const invoiceLines = draft.invoiceLines.map((line, i) => {
    const at = `invoiceLines.${i}`;
    const amounts = { unit_price: minor(line.unitPrice, `${at}.unitPrice`), tax: minor(line.tax, `${at}.tax`), amount: minor(line.amount, `${at}.amount`) };
    // a supplier rounds quantity × price to the cent once per line; more than that is a typo
    if (amountsRead && Math.abs(amounts.unit_price * line.quantity - amounts.amount) >= 1)
      fail(`${at}.amount`, `must be quantity × unitPrice (${line.quantity} × ${line.unitPrice}), rounded to the ${currency} minor unit`);
    return {
      description: line.description,
      product_code: line.productCode ?? null,
      unit: line.unit ?? null,
      quantity: String(line.quantity),
      ...amounts,
    };
  });
  addUpToDocument('invoiceLines', invoiceLines, 'amount');

  const payable = PAYABLE_TYPES.has(draft.type);
  if (!payable) {
    for (const field of ['scheduledDate', 'tags', 'note'] as const) {
      const v = draft[field];
      if (v !== undefined && v !== null && v !== '') fail(field, `only a bill or an expense claim has one (this is a ${draft.type})`);
    }
  }

  const tags = checkTags(draft.tags, fail);
  const file = draft.file === 'kept' ? undefined : draft.file ? checkFile(draft.file, fail) : null;
  if (errors.length) throw invalidRequest(errors);
  return {
    type: draft.type,
    number: draft.number,
    supplier: draft.supplier,
    date: draft.date,
    dueDate: draft.dueDate ?? null,
    currency,
    subtotal,
    tax,
    total,
    codedLines,
    invoiceLines,
    file,
    bill: payable ? { dueDate: draft.dueDate ?? draft.date, scheduledDate: draft.scheduledDate ?? null, tags, note: draft.note || null } : null,
  };
}

function checkFile(file: NonNullable<CreateInput['file']>, fail: (parameter: string, message: string) => void): CheckedDocument['file'] {
  const base64 = file.data.replace(/\s+/g, '');
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(base64) || base64.length % 4 !== 0) {
    fail('file.data', 'is not base64');
    return null;
  }
  const data = Buffer.from(base64, 'base64');
  if (data.length === 0) fail('file.data', 'is empty');
  if (data.length > MAX_DOCUMENT_FILE_BYTES) fail('file.data', `is ${(data.length / 1024 / 1024).toFixed(1)} MB; at most 10 MB`);
  const type = sniffDocumentFileType(data);
  if (!type) {
    fail('file.data', 'is not a PDF, PNG, JPEG, WebP or HEIC file (read from its content)');
    return null;
  }
  const declared = file.contentType?.split(';')[0]?.trim().toLowerCase();
  if (declared && declared !== type && !(declared === 'image/jpg' && type === 'image/jpeg') && !(declared === 'image/heif' && type === 'image/heic'))
    fail('file.contentType', `says ${declared} but the content is ${FILE_TYPE_NAMES[type]}`);
  return { fileName: file.name, contentType: type, data };
}

/** Tags as comma-separated text: at most 20, each at most 50 characters, trimmed, empty ones dropped. */
export function checkTags(text: string | null | undefined, fail: (parameter: string, message: string) => void): string[] {
  const tags = (text ?? '')
    .split(',')
    .map((t) => t.trim())
    .filter((t) => t !== '');
  if (tags.length > 20) fail('tags', `at most 20 tags (got ${tags.length})`);
  const long = tags.find((t) => t.length > 50);
  if (long) fail('tags', `"${long.slice(0, 20)}…" is over 50 characters; a tag is a word or two`);
  return tags;
}
