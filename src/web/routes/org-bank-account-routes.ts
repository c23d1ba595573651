/**
 * A bank account's page under Bank statements, and taking an import back (issue 40 item 4): the
 * figures are banking.accounts' answer for the signed-in admin (operation-for-page.ts), the imports
 * the account's batches; removing one asks first, then takes it out whole with its audit entry in
 * one transaction (import/remove-import.ts), or says why not.
 */
import { auditAs } from './audit.js';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { removeStatementImport } from '../../import/remove-import.js';
import { ImportRefusal } from '../../import/refusal.js';
import { bankingAccounts } from '../../operations/banking-accounts.js';
import { getBankImport, listBankImports } from '../../store/bank-imports.js';
import { html } from '../html.js';
import { operationForPage } from '../operation-for-page.js';
import { confirmPage, messagePage } from '../pages/chrome.js';
import { bankAccountPage } from '../pages/org-bank-account.js';
import { seeOther, sendPage } from '../respond.js';
import type { WebContext } from '../web-context.js';
import { notFoundPage, type OrgAccess } from './guards.js';
import { NOTICES } from '../notices.js';
import { noticeFrom, orgRouter } from './org-routing.js';

export function registerBankAccountRoutes(app: FastifyInstance, w: WebContext): void {
  const db = w.service.db;
  const r = orgRouter(app, w);
  const listPage = (a: OrgAccess) => `/orgs/${a.org.id}/bank-import`;

  async function render(a: OrgAccess, accountId: string, reply: FastifyReply, options: { notice?: string; error?: string } = {}, status = 200) {
    const person = { userId: a.session.user.id, email: a.session.user.email, role: a.role };
    const answer = await operationForPage(w, person, a.org.id, bankingAccounts, {});
    const account = answer.ok ? answer.value.accounts.find((x) => x.id === accountId) : undefined;
    if (!answer.ok) return sendPage(reply, bankAccountPageUnavailable(a, answer.message), 502);
    if (!account) return notFoundPage(reply, a.viewer, 'That bank account', listPage(a));
    return sendPage(reply, bankAccountPage(a.viewer, a.org, account, await listBankImports(db, a.org.id, accountId), options), status);
  }

  function bankAccountPageUnavailable(a: OrgAccess, message: string): string {
    return messagePage('Bank account not shown', message, { href: listPage(a), label: 'Back to Bank statements' }, a.viewer);
  }

  r.page('/bank-import/accounts/:accountId', async (a, p, request, reply) => render(a, p.accountId!, reply, noticeFrom(request, NOTICES.bankAccount)));

  r.page('/bank-import/imports/:importId/remove', async (a, p, _request, reply) => {
    const batch = await getBankImport(db, a.org.id, p.importId!);
    if (!batch) return notFoundPage(reply, a.viewer, 'That import', listPage(a));
    return sendPage(
      reply,
      confirmPage(a.viewer, {
        title: `Remove the import of ${batch.file_name}?`,
        explanation: html`<p>Its ${batch.lines} ${batch.lines === 1 ? 'line' : 'lines'} and its statements' balances are taken out of the account, and
          every balance is as it was before it. Importing the file again brings them back.</p>`,
        action: `/orgs/${a.org.id}/bank-import/imports/${batch.id}/remove`,
        button: 'Remove import',
        back: `${listPage(a)}/accounts/${batch.bank_account_id}`,
      }),
    );
  });

  r.action('/bank-import/imports/:importId/remove', async (a, p, _request, reply) => {
    const batch = await getBankImport(db, a.org.id, p.importId!);
    if (!batch) return notFoundPage(reply, a.viewer, 'That import', listPage(a));
    try {
      await removeStatementImport(w.service.store, a.org.id, batch.id, {
        audit: (trx, removed) =>
          auditAs(trx, a, 'bank_import.removed', removed.row.bank_account_id, {
            importId: removed.row.id,
            file: removed.row.file_name,
            format: removed.row.format,
            lines: removed.lines,
            statements: removed.statements,
          }),
      });
    } catch (error) {
      if (!(error instanceof ImportRefusal)) throw error;
      if (error.code === 'busy') reply.header('retry-after', '60');
      return render(a, batch.bank_account_id, reply, { error: `Nothing was removed: ${error.message}.` }, error.code === 'busy' ? 503 : 409);
    }
    return seeOther(reply, `${listPage(a)}/accounts/${batch.bank_account_id}?done=removed`);
  });
}
