/**
 * The Reconcile page (issue 42): banking.accounts and banking.transactions read for the signed-in
 * person, and banking.match, banking.unmatch and banking.mark_reconciled run as them
 * (operation-form.ts), so role policy, validation and audit apply as over REST and MCP. Each change
 * is a POST that comes back to the same account and page (POST-redirect-GET); a refusal is shown
 * beside its line with what to do. The buttons a role may not use are not shown, and the operation
 * refuses them anyway when a post is forged.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { fromMajor, minorDigits } from '../../domain/money.js';
import { bankingAccounts } from '../../operations/banking-accounts.js';
import { bankingMarkReconciled } from '../../operations/banking-mark-reconciled.js';
import { bankingMatch } from '../../operations/banking-match.js';
import { bankingTransactions } from '../../operations/banking-transactions.js';
import { bankingUnmatch } from '../../operations/banking-unmatch.js';
import { documentsGet } from '../../operations/documents-get.js';
import { listPublishedDocuments } from '../../store/documents-published.js';
import { isRoleAllowed } from '../../store/role-policy.js';
import { operationForForm, type FormAnswer } from '../operation-form.js';
import { operationForPage, type PagePerson } from '../operation-for-page.js';
import { amountText } from '../pages/overview-parts.js';
import { reconcilePage, type LineProblem, type ReconcileLine, type ReconcileView } from '../pages/org-reconcile.js';
import { one, seeOther, sendPage } from '../respond.js';
import type { WebContext } from '../web-context.js';
import { documentTypeLabel, formatDay } from '../words.js';
import type { OrgAccess } from './guards.js';
import { NOTICES } from '../notices.js';
import { noticeFrom, orgRouter } from './org-routing.js';
import { allowedDifferences } from '../../operations/banking/match-plan.js';

const PAGE_SIZE = 25;
// every line still to reconcile, whenever it is dated: the operation's default is three months
const ALL_TIME = { period: 'custom', from: '1000-01-01', to: '9998-12-31' };

interface Where {
  account: string | undefined;
  page: number;
  change?: string | undefined;
  search?: string | undefined;
}

const pageNumber = (text: string | undefined) => {
  const n = Number(text);
  return Number.isInteger(n) && n >= 1 && n <= 100_000 ? n : 1;
};

export function registerReconcileRoutes(app: FastifyInstance, w: WebContext): void {
  const db = w.service.db;
  const person = (a: OrgAccess): PagePerson => ({ userId: a.session.user.id, email: a.session.user.email, role: a.role });
  const r = orgRouter(app, w);
  const base = (a: OrgAccess) => `/orgs/${a.org.id}/reconcile`;

  async function render(
    a: OrgAccess,
    reply: FastifyReply,
    where: Where,
    options: { notice?: string; error?: string; problems?: Record<string, LineProblem>; askDifference?: { lineId: string; documentId: string } } = {},
    status = 200,
  ) {
    const me = person(a);
    const [listed, may] = await Promise.all([
      operationForPage(w, me, a.org.id, bankingAccounts, {}),
      Promise.all(['banking.match', 'banking.unmatch', 'banking.mark_reconciled'].map((op) => isRoleAllowed(db, a.org.id, op, a.role))),
    ]);
    const view: ReconcileView = {
      accounts: [],
      account: null,
      lines: [],
      reconciled: [],
      page: where.page,
      hasMore: false,
      may: { match: may[0]!, unmatch: may[1]!, mark: may[2]! },
      change: null,
      problems: { ...options.problems },
    };
    const errors: string[] = options.error ? [options.error] : [];
    if (!listed.ok) errors.push(`The bank accounts could not be read: ${listed.message}`);
    else {
      // an account of the books nothing was imported into has no lines here (banking.transactions says so)
      view.accounts = listed.value.accounts
        .filter((x) => x.balanceBasis !== 'books')
        .map((x) => ({ id: x.id, name: x.name, number: x.number, currency: x.currency, toReconcile: x.toReconcile }));
      view.account = view.accounts.find((x) => x.id === where.account) ?? view.accounts[0] ?? null;
    }
    if (view.account) {
      const account = view.account;
      const [open, done] = await Promise.all([
        operationForPage(w, me, a.org.id, bankingTransactions, {
          account: account.id,
          status: 'to_reconcile',
          ...ALL_TIME,
          limit: PAGE_SIZE,
          page: where.page,
        }),
        operationForPage(w, me, a.org.id, bankingTransactions, { account: account.id, status: 'reconciled', ...ALL_TIME, limit: 25 }),
      ]);
      if (open.ok) {
        view.lines = open.value.transactions.map(lineOf);
        view.hasMore = open.value.hasMore;
      } else errors.push(`The lines to reconcile could not be read: ${open.message}`);
      if (done.ok) view.reconciled = done.value.transactions.map(lineOf);
      const asked = options.askDifference;
      const askedLine = asked ? view.lines.find((l) => l.id === asked.lineId) : undefined;
      if (asked && askedLine && view.problems[asked.lineId]) view.problems[asked.lineId]!.offers = await differenceOffers(a, askedLine, asked.documentId);
      const changing = where.change ? view.lines.find((l) => l.id === where.change) : undefined;
      if (changing && view.may.match) {
        const search = (where.search ?? '').trim().slice(0, 100);
        const candidates = await listPublishedDocuments(db, a.org.id, { unmatchedOnly: true, currency: account.currency, search, limit: 50 });
        view.change = {
          lineId: changing.id,
          search,
          candidates: candidates.map((d) => ({
            id: d.id,
            label:
              `${documentTypeLabel(d.type)} ${d.number} ` +
              `from ${d.supplier}, ${amountText(d.total / 10 ** minorDigits(d.currency), d.currency)} ${d.currency}, ${formatDay(d.date)}`,
          })),
        };
      }
      // a refusal about a line not shown here (another page, or reconciled meanwhile) goes at the top
      const shown = new Set([...view.lines, ...view.reconciled].map((l) => l.id));
      for (const [id, p] of Object.entries(view.problems)) if (!shown.has(id)) errors.push(p.message);
    }
    const error = errors.length ? errors.join(' ') : undefined;
    return sendPage(
      reply,
      reconcilePage(a.viewer, a.org, view, { ...(options.notice ? { notice: options.notice } : {}), ...(error ? { error } : {}) }),
      status,
    );
  }

  const whereOf = (request: FastifyRequest): Where => {
    const q = request.query as Record<string, string | undefined>;
    return { account: one(q.account), page: pageNumber(one(q.page)), change: one(q.change), search: one(q.q) };
  };
  const formWhere = (a: OrgAccess & { form: Record<string, string | string[] | undefined> }): Where => ({
    account: one(a.form.account),
    page: pageNumber(one(a.form.page)),
  });
  const back = (a: OrgAccess, where: Where, done: keyof typeof NOTICES.reconcile, lineId: string) => {
    const query = new URLSearchParams({ ...(where.account ? { account: where.account } : {}), ...(where.page > 1 ? { page: String(where.page) } : {}), done });
    return `${base(a)}?${query}#line-${encodeURIComponent(lineId)}`;
  };

  r.page('/reconcile', async (a, _p, request, reply) => render(a, reply, whereOf(request), noticeFrom(request, NOTICES.reconcile)));

  r.action('/reconcile/match', async (a, _p, _request, reply) => {
    const where = formWhere(a);
    const lineId = one(a.form.transactionId) ?? '';
    const documentId = one(a.form.documentId) ?? '';
    const kind = one(a.form.difference);
    const input: Record<string, unknown> = { transactionIds: lineId, documentId, ...(kind === 'fee' || kind === 'rounding' ? { difference: { kind } } : {}) };
    const answer = await operationForForm(w, person(a), a.org.id, bankingMatch, input);
    if (answer.ok) return seeOther(reply, back(a, where, 'matched', lineId));
    const problem: LineProblem = { message: refusalWords(answer), documentId };
    const ask = answer.code === 'match_amounts_differ' && !kind ? { lineId, documentId } : undefined;
    return render(a, reply, where, { problems: { [lineId]: problem }, ...(ask ? { askDifference: ask } : {}) }, answer.status);
  });

  r.action('/reconcile/unmatch', async (a, _p, _request, reply) => {
    const where = formWhere(a);
    const lineId = one(a.form.transactionId) ?? '';
    const answer = await operationForForm(w, person(a), a.org.id, bankingUnmatch, { transactionId: lineId });
    if (answer.ok) return seeOther(reply, back(a, where, 'unmatched', lineId));
    return render(a, reply, where, { problems: { [lineId]: { message: refusalWords(answer) } } }, answer.status);
  });

  r.action('/reconcile/mark', async (a, _p, _request, reply) => {
    const where = formWhere(a);
    const lineId = one(a.form.transactionId) ?? '';
    const reconciled = one(a.form.reconciled) !== 'false';
    const answer = await operationForForm(w, person(a), a.org.id, bankingMarkReconciled, { transactionIds: lineId, reconciled });
    if (answer.ok) return seeOther(reply, back(a, where, reconciled ? 'marked' : 'unmarked', lineId));
    return render(a, reply, where, { problems: { [lineId]: { message: refusalWords(answer) } } }, answer.status);
  });

  /**
   * What the person may book instead when the amounts differ, asked before it is: a bank fee when
   * more went out than the document says, a rounding when they differ by at most one unit.
   */
  async function differenceOffers(a: OrgAccess, line: ReconcileLine, documentId: string): Promise<LineProblem['offers']> {
    const got = await operationForPage(w, person(a), a.org.id, documentsGet, { ids: documentId });
    const doc = got.ok ? got.value.documents[0] : undefined;
    if (!doc || line.currency !== doc.currency) return [];
    const paid = fromMajor(line.amount, line.currency);
    const total = fromMajor(doc.total, doc.currency);
    if (paid === null || total === null) return [];
    const expected = doc.type === 'supplier_credit' ? total : -total;
    const difference = paid - expected;
    const words = `${amountText(Math.abs(difference) / 10 ** minorDigits(doc.currency), doc.currency)} ${doc.currency}`;
    return allowedDifferences(difference, expected, doc.currency).map((kind) => ({
      kind,
      words: `Book the ${words} difference as ${kind === 'fee' ? 'a bank fee' : 'rounding'} and match`,
    }));
  }
}

/** The page's fields of a line banking.transactions answers (it answers more: the account, the status, the running balance). */
function lineOf(t: ReconcileLine): ReconcileLine {
  const suggestion = t.suggestion ?? null;
  return {
    id: t.id,
    date: t.date,
    description: t.description,
    amount: t.amount,
    currency: t.currency,
    reconciledIn: t.reconciledIn,
    suggestedMatch: t.suggestedMatch,
    suggestion,
    linked: t.linked
      ? {
          documentId: t.linked.documentId,
          number: t.linked.number,
          type: t.linked.type,
          supplier: t.linked.supplier,
          total: t.linked.total,
          currency: t.linked.currency,
        }
      : null,
  };
}

/** A refusal in words, with what to do on this page. */
function refusalWords(answer: Extract<FormAnswer<unknown>, { ok: false }>): string {
  const message = answer.message.replace(/\s+$/, '');
  switch (answer.code) {
    case 'match_amounts_differ':
      return (
        `The amounts differ: ${message.replace(/\. Match the right lines, or name it with difference: .*$/, '.')} Choose another document with ` +
        `Change, book the difference below when it is a fee or a rounding, or mark the line reconciled elsewhere if it was settled another way.`
      );
    case 'already_matched':
      return (
        `Already matched or reconciled: ${message}. The page now shows each line as it is; undo a match (Undo, under Reconciled) before matching ` +
        `its lines again.`
      );
    case 'role_not_allowed':
      return `Not allowed: ${message}. An admin can change this under Role permissions.`;
    case 'accounting_refused':
      return `The books refused it: ${message} Fix it in the accounting system, then try again.`;
    case 'not_found':
      return `${message}. The page now shows the lines and documents as they are.`;
    default:
      return answer.errors.length ? answer.errors.map((e) => `${e.parameter === '(input)' ? '' : `${e.parameter}: `}${e.message}`).join('; ') : message;
  }
}
