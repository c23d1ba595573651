/**
 * Books upload for admins: the same loader as `ledgerline import ledger`. Multipart parsing is
 * registered for this route only, and the body is read only after the session, origin, role and
 * CSRF token are checked (orgRouter.upload).
 */
import multipart from '@fastify/multipart';
import { auditAs } from './audit.js';
import type { FastifyInstance } from 'fastify';
import { auditDetail, importJournal, JOURNAL_MAX_BYTES } from '../../import/journal/load.js';
import { ImportRefusal } from '../../import/refusal.js';
import { getOrganisation } from '../../store/organisations.js';
import { ledgerImportPage } from '../pages/org-ledger-import.js';
import { sendPage } from '../respond.js';
import type { WebContext } from '../web-context.js';
import { noticeFrom, orgRouter } from './org-routing.js';
import { readUpload } from './org-bank-import-routes.js';

export function registerLedgerImportRoutes(app: FastifyInstance, w: WebContext): void {
  const store = w.service.store;
  app.register(async (scoped) => {
    await scoped.register(multipart, { limits: { fileSize: JOURNAL_MAX_BYTES, files: 1, fields: 10, fieldSize: 4096 }, throwFileSizeLimit: true });
    const r = orgRouter(scoped, w);
    const organisation = async (id: string) => (await getOrganisation(store.db, id))!;
    const view = (row: Awaited<ReturnType<typeof organisation>>) => ({ id: row.id, name: row.name, accountingSystem: row.accounting_system });

    r.page('/ledger-import', async (a, _p, request, reply) => {
      const org = await organisation(a.org.id);
      // the page /orgs/new leads to: the organisation exists, its books are still to load
      const notices = {
        created:
          `Organisation created: ${org.name}, with you as its super admin. Its books are empty: load them below, then import its statements on ` +
          `Bank statements.`,
      };
      return sendPage(reply, ledgerImportPage(a.viewer, view(org), noticeFrom(request, notices)));
    });

    r.upload('/ledger-import', async (a, _p, _request, reply) => {
      const { form, file } = await readUpload(a.parts);
      const org = await organisation(a.org.id);
      if (!file?.data || file.data.length === 0)
        return sendPage(reply, ledgerImportPage(a.viewer, view(org), { error: 'Choose a journal or CSV file to upload.' }), 400);
      const dryRun = form.dry_run === '1';
      try {
        const report = await importJournal(store, {
          organisation: org,
          fileName: file.fileName || 'uploaded journal',
          bytes: file.data,
          allowNewAccounts: form.allow_new_accounts === '1',
          dryRun,
          // in the import's transaction: written after, it would wait behind the next import
          alsoWrite: (trx, written) => (written.new > 0 ? auditAs(trx, a, 'ledger_journal.imported', org.id, auditDetail(written)) : Promise.resolve()),
        });
        return sendPage(reply, ledgerImportPage(a.viewer, view(org), { result: report }));
      } catch (error) {
        if (!(error instanceof ImportRefusal)) throw error;
        if (error.code === 'busy') {
          // nothing wrong with the file: another process (another import) kept the database's writer
          reply.header('retry-after', '60');
          return sendPage(reply, ledgerImportPage(a.viewer, view(org), { error: `Nothing was loaded: ${error.message}.` }), 503);
        }
        const summary = error.message.split(': ')[0];
        return sendPage(
          reply,
          ledgerImportPage(a.viewer, view(org), {
            error: `Nothing was loaded: ${summary}.`,
            problems: error.problems.length ? error.problems : [{ where: file.fileName, message: error.message }],
          }),
          422,
        );
      }
    });
  });
}
