/**
 * Purchase documents (bills, receipts, expense claims, supplier credits): priced from their items,
 * turned into balanced ledger lines, and stored as service documents with the lines they were coded
 * with, the lines the supplier's invoice listed, and a real original file.
 */
import type { NewLine } from '../accounting/builtin/writer.js';
import { addDays, minDate } from '../domain/dates.js';
import { convert, minorDigits } from '../domain/money.js';
import type { DocumentFileRow, DocumentRow } from '../store/schema.js';
import type { DemoOrganisationDef, TaxKind } from './catalog.js';
import { account, type AccountKey, type Chart } from './chart.js';
import { renderPdf, renderReceiptPng, type PrintableDocument } from './files.js';
import type { DocumentRows } from './ledger.js';
import { hashText } from './random.js';

export type DocumentType = 'bill' | 'receipt' | 'expense_claim' | 'supplier_credit';

export interface PurchaseItem {
  description: string;
  productCode: string | null;
  unit: string | null;
  /** hundredths: 150 = 1.5 */
  quantity: number;
  /** minor units of the document's currency */
  unitPrice: number;
  taxKind: TaxKind;
  account: AccountKey;
  className: string | null;
  customer: string | null;
}

export interface Purchase {
  type: DocumentType;
  /** as the document shows it: for an expense claim, "Employee — claim title" */
  supplier: string;
  /** who issued the paper: the supplier, or the employee for a claim */
  issuer: string;
  issuerCity: string;
  number: string;
  date: string;
  dueDate: string | null;
  currency: string;
  /** home-currency units per unit of currency, decimal text */
  rate: string;
  items: PurchaseItem[];
  footer: string;
}

export interface CodedGroup {
  account: AccountKey;
  taxKind: TaxKind;
  className: string | null;
  customer: string | null;
  description: string;
  quantity: number;
  subtotal: number;
  tax: number;
}

export interface PricedPurchase extends Purchase {
  lines: { item: PurchaseItem; amount: number; tax: number }[];
  coded: CodedGroup[];
  subtotal: number;
  tax: number;
  total: number;
  /** the total in home currency at the document's rate */
  homeTotal: number;
}

export function quantityText(hundredths: number): string {
  const whole = Math.trunc(hundredths / 100);
  const fraction = String(Math.abs(hundredths % 100))
    .padStart(2, '0')
    .replace(/0+$/, '');
  return fraction ? `${whole}.${fraction}` : String(whole);
}

export function pricePurchase(purchase: Purchase, def: DemoOrganisationDef, home: string): PricedPurchase {
  const lines = purchase.items.map((item) => {
    const amount = Math.round((item.quantity * item.unitPrice) / 100);
    const tax = Math.round((amount * def.tax.rates[item.taxKind]) / 1_000_000);
    return { item, amount, tax };
  });
  const groups = new Map<string, CodedGroup>();
  for (const { item, amount, tax } of lines) {
    const key = [item.account, item.taxKind, item.className ?? '', item.customer ?? ''].join('\u0000');
    const group = groups.get(key);
    if (group) {
      group.description = `${group.description}; ${item.description}`;
      group.quantity = 100;
      group.subtotal += amount;
      group.tax += tax;
    } else {
      groups.set(key, {
        account: item.account,
        taxKind: item.taxKind,
        className: item.className,
        customer: item.customer,
        description: item.description,
        quantity: item.quantity,
        subtotal: amount,
        tax,
      });
    }
  }
  const subtotal = lines.reduce((s, l) => s + l.amount, 0);
  const tax = lines.reduce((s, l) => s + l.tax, 0);
  const total = subtotal + tax;
  const homeTotal = purchase.currency === home ? total : convert(total, purchase.currency, purchase.rate, home);
  return { ...purchase, lines, coded: [...groups.values()], subtotal, tax, total, homeTotal };
}

/**
 * The ledger lines of a priced document against one counter account (payable, card, bank,
 * receivable). direction 1 debits the coded accounts and credits the counter (a bill, a charge);
 * -1 is the reverse (a credit note, a refund, a sales invoice). Foreign amounts are converted line
 * by line, and the rounding difference goes to the largest line so the home amounts balance.
 */
export function documentLines(pp: PricedPurchase, chart: Chart, home: string, counterAccountId: string, direction: 1 | -1): NewLine[] {
  const toHome = (amount: number) => (pp.currency === home ? amount : convert(amount, pp.currency, pp.rate, home));
  const lines: NewLine[] = pp.coded.map((g) => ({
    accountId: account(chart, g.account).id,
    amount: toHome(g.subtotal),
    amountInCurrency: g.subtotal,
    description: g.description,
  }));
  if (pp.tax !== 0) lines.push({ accountId: account(chart, 'tax').id, amount: toHome(pp.tax), amountInCurrency: pp.tax, description: `Tax on ${pp.number}` });
  const difference = pp.homeTotal - lines.reduce((s, l) => s + l.amount, 0);
  if (difference !== 0) {
    const largest = lines.reduce((a, b) => (Math.abs(b.amount) > Math.abs(a.amount) ? b : a));
    largest.amount += difference;
  }
  lines.push({ accountId: counterAccountId, amount: -pp.homeTotal, amountInCurrency: -pp.total, description: pp.supplier });
  return lines.map((l) => ({ ...l, amount: direction * l.amount, amountInCurrency: direction * (l.amountInCurrency ?? l.amount) }));
}

export function formatAmount(minor: number, currency: string): string {
  const digits = minorDigits(currency);
  const abs = Math.abs(minor);
  // grouped by hand: the printed files must not depend on the platform's locale data
  const whole = String(Math.floor(abs / 10 ** digits)).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  const fraction = digits ? '.' + String(abs % 10 ** digits).padStart(digits, '0') : '';
  return `${minor < 0 ? '-' : ''}${whole}${fraction}`;
}

const TITLES: Record<DocumentType, string> = { bill: 'INVOICE', receipt: 'RECEIPT', expense_claim: 'EXPENSE CLAIM', supplier_credit: 'CREDIT NOTE' };

export function printable(pp: PricedPurchase, def: DemoOrganisationDef): PrintableDocument {
  const f = (minor: number) => formatAmount(minor, pp.currency);
  const rate = def.tax.rates.standard;
  return {
    title: TITLES[pp.type],
    issuer: pp.issuer,
    issuerLines: [pp.issuerCity, `${def.tax.label} registration ${String(hashText(pp.issuer)[0] % 1_000_000_000).padStart(9, '0')}`],
    recipient: def.name,
    recipientLines: [...def.address],
    number: pp.number,
    date: pp.date,
    dueDate: pp.dueDate,
    currency: pp.currency,
    lines: pp.lines.map((l) => ({
      description: l.item.description,
      quantity: quantityText(l.item.quantity),
      unitPrice: f(l.item.unitPrice),
      amount: f(l.amount),
    })),
    subtotal: f(pp.subtotal),
    taxLabel: pp.tax ? `${def.tax.label} ${rate / 10_000}%` : def.tax.label,
    tax: f(pp.tax),
    total: f(pp.total),
    footer: pp.footer,
  };
}

/**
 * The original files. Every document gets one; at scale 1 (and for the last month at any scale)
 * each is rendered from its own content, beyond that the benchmark organisation reuses a small
 * pool of rendered files so a million-line demo does not carry fifty thousand distinct files.
 */
export class DocumentFiles {
  private readonly pool = { pdf: [] as Buffer[], png: [] as Buffer[] };
  private used = 0;

  constructor(
    private readonly renderAll: boolean,
    private readonly renderSince: string,
    private readonly poolSize = 12,
  ) {}

  file(document: DocumentRow, content: () => PrintableDocument): DocumentFileRow {
    const kind = document.type === 'receipt' ? 'png' : 'pdf';
    const pool = this.pool[kind];
    let data: Buffer;
    if (this.renderAll || document.date >= this.renderSince || pool.length < this.poolSize) {
      data = kind === 'png' ? renderReceiptPng(content()) : renderPdf(content());
      if (pool.length < this.poolSize) pool.push(data);
    } else {
      data = pool[this.used++ % pool.length]!;
    }
    const base = document.number.replace(/[^A-Za-z0-9._-]+/g, '-');
    return {
      document_id: document.id,
      organisation_id: document.organisation_id,
      file_name: kind === 'png' ? `receipt-${document.date}-${base}.png` : `${base}.pdf`,
      content_type: kind === 'png' ? 'image/png' : 'application/pdf',
      size: data.length,
      data,
    };
  }
}

export interface DocumentContext {
  def: DemoOrganisationDef;
  organisationId: string;
  asOf: string;
  chart: Chart;
  makeId: (prefix: string) => string;
  files: DocumentFiles;
}

/** The service rows of a document; published (with its ledger transaction) unless txnId is null. */
export function documentRows(ctx: DocumentContext, pp: PricedPurchase, id: string, txnId: string | null): DocumentRows {
  const published = txnId !== null;
  const document: DocumentRow = {
    id,
    organisation_id: ctx.organisationId,
    number: pp.number,
    type: pp.type,
    supplier: pp.supplier,
    date: pp.date,
    due_date: pp.dueDate,
    currency: pp.currency,
    subtotal: pp.subtotal,
    tax: pp.tax,
    total: pp.total,
    accounting_transaction_id: txnId,
    published_at: published ? `${minDate(addDays(pp.date, 1), ctx.asOf)}T14:30:00.000Z` : null,
    created_at: `${pp.date}T10:00:00.000Z`,
    created_by: null,
    updated_at: null,
  };
  const codedLines = pp.coded.map((g, i) => {
    const acct = account(ctx.chart, g.account);
    return {
      id: ctx.makeId('dcl'),
      document_id: id,
      organisation_id: ctx.organisationId,
      line_no: i + 1,
      description: g.description,
      account_id: acct.id,
      account_name: acct.full_name,
      tax_code_id: ctx.def.tax.codes[g.taxKind],
      class: g.className,
      customer: g.customer,
      quantity: quantityText(g.quantity),
      subtotal: g.subtotal,
      tax: g.tax,
      total: g.subtotal + g.tax,
    };
  });
  const invoiceLines = pp.lines.map((l, i) => ({
    id: ctx.makeId('dil'),
    document_id: id,
    organisation_id: ctx.organisationId,
    line_no: i + 1,
    description: l.item.description,
    product_code: l.item.productCode,
    unit: l.item.unit,
    quantity: quantityText(l.item.quantity),
    unit_price: l.item.unitPrice,
    tax: l.tax,
    amount: l.amount,
  }));
  const file = ctx.files.file(document, () => printable(pp, ctx.def));
  return { document, codedLines, invoiceLines, file };
}
