/**
 * Documents the connected accounting system holds (AccountingSystem.documents), as the service
 * shows documents. Their ids are the system's name, a colon and the system's own id
 * (`gnucash:<invoice guid>`): service ids (`doc_…`) never hold a colon, so the two cannot collide,
 * and the id names the same document on every call.
 */
import { toMajor } from '../domain/money.js';
import type { LedgerLine, SystemDocument } from '../accounting/types.js';
import type { OperationContext } from './context.js';
import type { Link } from './links.js';
import type { PublishedDocument } from './ledger/published-documents.js';

export function systemDocumentId(kind: string, documentId: string): string {
  return `${kind}:${documentId}`;
}

/** The system's own id when `id` names a document of the organisation's connected system; else undefined. */
export function systemIdOf(ctx: OperationContext, id: string): string | undefined {
  const prefix = `${ctx.accounting.kind}:`;
  return id.startsWith(prefix) && id.length > prefix.length ? id.slice(prefix.length) : undefined;
}

/** The connected system's documents among these ids, by the id asked for. */
export async function systemDocuments(ctx: OperationContext, ids: string[]): Promise<Map<string, SystemDocument>> {
  const wanted = new Map<string, string>();
  for (const id of ids) {
    const own = systemIdOf(ctx, id);
    if (own !== undefined) wanted.set(own, id);
  }
  if (wanted.size === 0 || !ctx.accounting.documents) return new Map();
  const found = await ctx.accounting.documents([...wanted.keys()]);
  return new Map(found.filter((d) => wanted.has(d.documentId)).map((d) => [wanted.get(d.documentId)!, d]));
}

/** documents.get's shape of a system document: coded lines carry the posted splits, tax on its own line. */
export function systemDocumentOutput(id: string, doc: SystemDocument, fileLink: Link | null = null) {
  const major = (minor: number) => toMajor(minor, doc.currency);
  return {
    id,
    number: doc.number,
    type: doc.type,
    supplier: doc.supplier,
    date: doc.date,
    dueDate: doc.dueDate,
    currency: doc.currency,
    accountingId: doc.transactionId,
    accountingLink: null,
    // published when the system posted it: its posting date
    publishedAt: doc.date,
    // documents.file's link when the system hands out the file (doc.hasFile); else none (documents.file answers not_found)
    link: doc.hasFile ? fileLink : null,
    subtotal: major(doc.subtotal),
    tax: major(doc.tax),
    total: major(doc.total),
    codedLines: doc.codedLines.map((l) => ({
      id: l.id,
      description: l.description,
      account: l.account,
      accountId: l.accountId,
      taxCodeId: null,
      class: null,
      customer: null,
      quantity: 1,
      subtotal: l.isTax ? 0 : major(l.amount),
      tax: l.isTax ? major(l.amount) : 0,
      total: major(l.amount),
    })),
    invoiceLines: doc.invoiceLines.map((l) => ({
      id: l.id,
      description: l.description,
      productCode: null,
      unit: l.unit,
      quantity: l.quantity,
      unitPrice: major(l.unitPrice),
      tax: major(l.tax),
      amount: major(l.amount),
    })),
  };
}

/**
 * For ledger lines the service published no document for: the connected system's own documents
 * behind them, by transaction id, in the shape ledger.account_transactions shows documents in.
 */
export async function systemDocumentsOfLines(
  ctx: OperationContext,
  lines: LedgerLine[],
  published: Map<string, unknown>,
): Promise<Map<string, PublishedDocument>> {
  const out = new Map<string, PublishedDocument>();
  const ids = [...new Set(lines.filter((l) => l.documentId && !published.has(l.transactionId)).map((l) => l.documentId!))];
  if (ids.length === 0 || !ctx.accounting.documents) return out;
  for (const doc of await ctx.accounting.documents(ids)) {
    const shown = systemDocumentOutput(systemDocumentId(ctx.accounting.kind, doc.documentId), doc);
    out.set(doc.transactionId, {
      id: shown.id,
      number: shown.number,
      type: shown.type,
      supplier: shown.supplier,
      date: shown.date,
      currency: shown.currency,
      total: shown.total,
      lines: shown.codedLines.map((l) => ({
        description: l.description,
        account: l.account,
        quantity: l.quantity,
        subtotal: l.subtotal,
        tax: l.tax,
        total: l.total,
      })),
    });
  }
  return out;
}
