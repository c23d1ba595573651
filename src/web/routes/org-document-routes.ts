/**
 * A document's own page and publishing it (issue 42): documents.get, banking.accounts and
 * accounts.list read for the signed-in person, and documents.publish run as them
 * (operation-form.ts), so role policy, validation and audit apply as over REST. A refusal is shown
 * on the page in words: each missing field beside it or in the list with what to do, and a supplier
 * new to the books asked about before a second submit sends createContact.
 */
import type { FastifyInstance, FastifyReply } from 'fastify';
import { accountsList } from '../../operations/accounts-list.js';
import { bankingAccounts } from '../../operations/banking-accounts.js';
import { documentsGet } from '../../operations/documents-get.js';
import { documentsPublish } from '../../operations/documents-publish.js';
import { contactNameOf } from '../../operations/documents/publish-plan.js';
import type { ParameterError } from '../../operations/errors.js';
import { getOrganisation } from '../../store/organisations.js';
import { isRoleAllowed } from '../../store/role-policy.js';
import { operationForForm } from '../operation-form.js';
import { operationForPage } from '../operation-for-page.js';
import { documentPage, type PublishForm } from '../pages/org-document.js';
import { amountText } from '../pages/overview-parts.js';
import { messagePage } from '../pages/chrome.js';
import { one, seeOther, sendPage } from '../respond.js';
import type { WebContext } from '../web-context.js';
import { notFoundPage, type OrgAccess } from './guards.js';
import { NOTICES } from '../notices.js';
import { noticeFrom, orgRouter } from './org-routing.js';

const FIELDS = ['paidFrom', 'exchangeRate', 'taxAccount'] as const;

interface Attempt {
  values: Record<string, string>;
  errors: ParameterError[];
  /** a refusal that names no field: not allowed, already published, books that cannot be written */
  message?: string;
}

export function registerDocumentPageRoutes(app: FastifyInstance, w: WebContext): void {
  const db = w.service.db;
  const person = (a: OrgAccess) => ({ userId: a.session.user.id, email: a.session.user.email, role: a.role });
  const r = orgRouter(app, w);
  const back = (a: OrgAccess) => `/orgs/${a.org.id}/documents`;

  async function render(a: OrgAccess, id: string, reply: FastifyReply, attempt: Attempt | null, options: { notice?: string } = {}, status = 200) {
    const got = await operationForPage(w, person(a), a.org.id, documentsGet, { ids: id });
    if (!got.ok)
      return sendPage(
        reply,
        messagePage('Document not shown', got.message, { href: back(a), label: 'Back to documents' }, a.viewer),
        got.code === 'role_not_allowed' || got.code === 'not_a_member' ? 403 : 502,
      );
    const d = got.value.documents[0];
    if (!d || d.id.includes(':')) return notFoundPage(reply, a.viewer, 'That document', back(a));
    const allowed = d.publishedAt === null && (await isRoleAllowed(db, a.org.id, documentsPublish.name, a.role));
    const receipt = allowed && d.type === 'receipt';
    const [org, banks, chart] = await Promise.all([
      getOrganisation(db, a.org.id),
      receipt ? operationForPage(w, person(a), a.org.id, bankingAccounts, {}) : null,
      receipt || (allowed && attempt?.errors.some((e) => e.parameter === 'taxAccount')) ? operationForPage(w, person(a), a.org.id, accountsList, {}) : null,
    ]);
    const form = publishForm(attempt, { type: d.type, supplier: d.supplier });
    // the bank accounts statements come into, then the chart's other bank and card accounts
    const imported = banks?.ok ? banks.value.accounts.filter((b) => b.ledgerAccount) : [];
    const mirrored = new Set(imported.map((b) => b.ledgerAccount!.id));
    const payFrom = receipt
      ? [
          ...imported.map((b) => ({
            value: b.id.includes(':') ? b.ledgerAccount!.id : b.id,
            label: `${b.name}${b.number ? ` (${b.number})` : ''}, ${b.currency}`,
          })),
          ...(chart?.ok ? chart.value.accounts : [])
            .filter((x) => (x.type === 'Bank' || x.type === 'Credit Card') && !mirrored.has(x.id))
            .map((x) => ({ value: x.id, label: x.number ? `${x.fullName} (${x.number})` : x.fullName })),
        ]
      : [];
    const publish: PublishForm = {
      allowed,
      homeCurrency: org?.home_currency ?? d.currency,
      payFrom,
      accounts: chart?.ok ? chart.value.accounts.map((x) => ({ id: x.id, label: x.number ? `${x.fullName} (${x.number})` : x.fullName })) : [],
      ...form,
    };
    if (banks && !banks.ok) publish.problems.push(`The bank accounts could not be read (${banks.message}).`);
    const view = {
      ...d,
      total: amountText(d.total, d.currency),
      lines: d.codedLines.map((l) => ({ description: l.description, account: l.account, total: amountText(l.total, d.currency) })),
    };
    const error = attempt?.message ? `Not published: ${attempt.message}` : undefined;
    return sendPage(reply, documentPage(a.viewer, a.org, view, publish, { ...options, ...(error ? { error } : {}) }), status);
  }

  r.page('/documents/:documentId', async (a, p, request, reply) => render(a, p.documentId!, reply, null, noticeFrom(request, NOTICES.document)));

  r.action('/documents/:documentId/publish', async (a, p, _request, reply) => {
    const values = Object.fromEntries(FIELDS.map((f) => [f, (one(a.form[f]) ?? '').trim()]));
    const input: Record<string, unknown> = { id: p.documentId, createContact: one(a.form.createContact) === 'true' };
    for (const f of FIELDS) if (values[f]) input[f] = values[f];
    const answer = await operationForForm(w, person(a), a.org.id, documentsPublish, input);
    if (answer.ok) return seeOther(reply, `${back(a)}/${encodeURIComponent(p.documentId!)}?done=published`);
    if (answer.code === 'not_found') return notFoundPage(reply, a.viewer, 'That document', back(a));
    const attempt: Attempt = { values, errors: answer.errors, ...(answer.errors.length ? {} : { message: answer.message }) };
    return render(a, p.documentId!, reply, attempt, {}, answer.status);
  });
}

/** The operation's refusal sorted for the page: beside a field, the new-contact question, or listed with what to do. */
function publishForm(attempt: Attempt | null, d: { type: string; supplier: string }): Pick<PublishForm, 'state' | 'newContact' | 'problems'> {
  const errors: Record<string, string[]> = {};
  const problems: string[] = [];
  let newContact: PublishForm['newContact'] = null;
  for (const e of attempt?.errors ?? []) {
    if (e.parameter === 'createContact') {
      const close = /\(close: ([^)]*)\)/.exec(e.message)?.[1];
      newContact = { name: contactNameOf(d), kind: d.type === 'expense_claim' ? 'employee' : 'supplier', close: close ? close.split(', ') : [] };
    } else if ((FIELDS as readonly string[]).includes(e.parameter)) {
      (errors[e.parameter] ??= []).push(fieldWords(e));
    } else {
      problems.push(problemWords(e));
    }
  }
  return { state: { values: attempt?.values ?? {}, errors }, newContact, problems };
}

function fieldWords(e: ParameterError): string {
  if (e.parameter === 'paidFrom' && /name it/.test(e.message)) return 'choose the bank or card account that paid it';
  if (e.parameter === 'taxAccount' && /no single tax account/.test(e.message))
    return 'choose the account tax goes to: the chart has no single VAT, GST or tax account';
  return e.message;
}

function problemWords(e: ParameterError): string {
  if (/^codedLines\.\d+\.account$/.test(e.parameter)) {
    return (
      `${capital(e.message)}: code it to an active account of the chart (delete the document and upload it again with an account chosen, or set ` +
      `its lines with documents.update), then publish.`
    );
  }
  if (e.parameter === 'codedLines') return `${capital(e.message)}.`;
  if (e.parameter === 'total') return `${capital(e.message)}: check the document's amounts.`;
  if (e.parameter === '(document)' || e.parameter === '(input)') return `${capital(e.message)}.`;
  return `${e.parameter}: ${e.message}.`;
}

const capital = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);
