/**
 * The Documents page's upload form as documents.create input: text amounts to numbers, one coded
 * line from the account and description fields, the file as base64; and the operation's parameter
 * errors back onto the form's fields.
 */
import type { ParameterError } from '../operations/errors.js';
import { sortErrors, type FieldErrors } from './operation-form.js';

/** The form's fields, named as the operation's parameters where there is one. */
export const DOCUMENT_FORM_FIELDS = [
  'type',
  'number',
  'supplier',
  'date',
  'dueDate',
  'currency',
  'subtotal',
  'tax',
  'total',
  'lineAccount',
  'lineDescription',
  'scheduledDate',
  'tags',
  'note',
] as const;

export type DocumentForm = Partial<Record<(typeof DOCUMENT_FORM_FIELDS)[number], string>>;

const AMOUNT = /^[+-]?(\d+(\.\d*)?|\.\d+)$/;
const AMOUNTS = ['subtotal', 'tax', 'total'] as const;

/** An amount as typed: a number when it is a plain decimal (thousands commas allowed), else the text so validation names it. */
function amount(text: string | undefined): unknown {
  const t = (text ?? '').trim().replace(/,/g, '');
  return AMOUNT.test(t) ? Number(t) : (text ?? '').trim();
}

export function documentInput(form: DocumentForm, file: { name: string; data: Buffer } | null): Record<string, unknown> {
  const given = (name: keyof DocumentForm) => {
    const v = (form[name] ?? '').trim();
    return v === '' ? undefined : v;
  };
  const [subtotal, tax, total] = AMOUNTS.map((a) => (a === 'tax' && !given('tax') ? 0 : amount(form[a])));
  const account = given('lineAccount');
  const description = given('lineDescription');
  const input: Record<string, unknown> = {
    type: form.type ?? '',
    number: form.number ?? '',
    supplier: form.supplier ?? '',
    date: (form.date ?? '').trim(),
    currency: form.currency ?? '',
    subtotal,
    tax,
    total,
    // one coded line, for the whole document, when either of its fields is filled in
    codedLines: account || description ? [{ description: description ?? '', ...(account ? { account } : {}), subtotal, tax, total }] : [],
    ...(file ? { file: { name: file.name, data: file.data.toString('base64') } } : {}),
  };
  for (const name of ['dueDate', 'scheduledDate', 'tags', 'note'] as const) {
    const v = given(name);
    if (v !== undefined) input[name] = v;
  }
  return input;
}

const FIELD_OF: Record<string, string> = {
  'codedLines.0.account': 'lineAccount',
  'codedLines.0.description': 'lineDescription',
  codedLines: 'lineAccount',
  'file.data': 'file',
  'file.name': 'file',
  'file.contentType': 'file',
};

/**
 * The operation's errors on the form's fields. An amount typed as something other than a number
 * is named in the form's words; the line's amounts are the document's, so their errors are the
 * document's and shown once.
 */
export function documentErrors(errors: ParameterError[], form: DocumentForm): FieldErrors {
  const fields = new Set<string>([...DOCUMENT_FORM_FIELDS, 'file']);
  const reworded = errors.flatMap((e): ParameterError[] => {
    const line = /^codedLines\.0\.(subtotal|tax|total)$/.exec(e.parameter);
    if (line) return errors.some((d) => d.parameter === line[1]) ? [] : [{ parameter: line[1]!, message: e.message }];
    const a = AMOUNTS.find((x) => x === e.parameter);
    if (a && typeof amount(form[a]) !== 'number') return [{ parameter: a, message: 'must be an amount such as 120.50' }];
    return [e];
  });
  return sortErrors(reworded, (p) => FIELD_OF[p] ?? (fields.has(p) ? p : null));
}
