/**
 * Statement upload for admins: the same importer as `ledgerline import bank`, with its summary.
 * Multipart parsing is registered for this route only, so no other form accepts a large body, and
 * the body is read only after the session, origin, role and CSRF token are checked (orgRouter.upload).
 */
import multipart, { type Multipart } from '@fastify/multipart';
import { auditAs } from './audit.js';
import type { FastifyInstance } from 'fastify';
import { bookAccountChoices, type BookAccountChoice } from '../../accounting/bank-links.js';
import { isValidDate } from '../../domain/dates.js';
import { formatMoney, fromMajor, isCurrencyCode } from '../../domain/money.js';
import { importStatement, type ImportReport, type NewBankAccount } from '../../import/importer.js';
import { basisWords, incompleteWords } from '../../operations/banking/balance-words.js';
import { refreshAfterImport } from '../../operations/banking/suggestions.js';
import { ImportRefusal } from '../../import/refusal.js';
import { DEFAULT_MAX_BYTES } from '../../import/parse.js';
import { getOrganisation } from '../../store/organisations.js';
import { listBankAccounts } from '../../store/bank-accounts.js';
import { bankImportPage, type ImportResultView } from '../pages/org-bank-import.js';
import { sendPage } from '../respond.js';
import type { WebContext } from '../web-context.js';
import { registerBankAccountRoutes } from './org-bank-account-routes.js';
import { orgRouter } from './org-routing.js';

export function registerBankImportRoutes(app: FastifyInstance, w: WebContext): void {
  const store = w.service.store;
  // each account's page and its imports' removal: plain forms, outside the multipart scope below
  registerBankAccountRoutes(app, w);
  app.register(async (scoped) => {
    await scoped.register(multipart, {
      // the form has 12 fields (a new account's, its books' account and opening balance among them)
      limits: { fileSize: DEFAULT_MAX_BYTES, files: 1, fields: 16, fieldSize: 4096 },
      throwFileSizeLimit: true,
    });
    const r = orgRouter(scoped, w);
    const accounts = async (organisationId: string) =>
      (await listBankAccounts(store.db, organisationId, null)).map((a) => ({ id: a.id, name: a.name, number: a.number, currency: a.currency }));
    const home = async (organisationId: string) => (await getOrganisation(store.db, organisationId))?.home_currency ?? '';
    // the books' bank and card accounts a new account may mirror (none when the books cannot be read)
    const books = async (organisationId: string) => bookAccountChoices(store.db, (await getOrganisation(store.db, organisationId))!);
    const form = async (organisationId: string) => ({ currency: await home(organisationId), bookAccounts: await books(organisationId) });

    r.page('/bank-import', async (a, _p, _request, reply) =>
      sendPage(reply, bankImportPage(a.viewer, a.org, await accounts(a.org.id), {}, await form(a.org.id))),
    );

    r.upload('/bank-import', async (a, _p, request, reply) => {
      const { form: fields_, file } = await readUpload(a.parts);
      const list = await accounts(a.org.id);
      const fields = await form(a.org.id);
      const again = (error: string, status = 400) => sendPage(reply, bankImportPage(a.viewer, a.org, list, { error }, fields), status);
      const creating = fields_.account === 'new' ? newAccountFrom(fields_, fields.bookAccounts) : null;
      if (typeof creating === 'string') return again(creating);
      const existing = creating ? undefined : (await listBankAccounts(store.db, a.org.id, null)).find((x) => x.id === fields_.account);
      if (!creating && !existing) return again('Pick one of the organisation’s accounts, or “A new account…”.');
      if (creating && list.some((x) => x.name.trim().toLowerCase() === creating.name.toLowerCase()))
        return again(`There is already an account named “${creating.name}”: pick it from the list.`);
      const account = existing ?? { create: creating! };
      if (!file?.data || file.data.length === 0) return again('Choose a statement file to upload.');
      const dryRun = fields_.dry_run === '1';
      try {
        const organisation = (await getOrganisation(store.db, a.org.id))!;
        const report = await importStatement(store, {
          organisation,
          account,
          fileName: file.fileName || 'uploaded statement',
          bytes: file.data,
          options: {
            dryRun,
            ...(fields_.refuse_unbalanced === '1' ? { refuseUnbalanced: true } : {}),
            ...(fields_.rate?.trim() ? { rate: fields_.rate.trim() } : {}),
            importedBy: { userId: a.session.user.id, via: 'page' },
            // in the import's transaction: written after, it would wait behind the next import
            alsoWrite: (trx, written) =>
              auditAs(trx, a, 'bank_statement.imported', written.account.id, {
                account: written.account.name,
                file: file.fileName || 'uploaded statement',
                format: written.format,
                new: written.new,
                alreadyPresent: written.alreadyPresent,
                ...(written.created ? { created: true } : {}),
                ...(written.importId ? { importId: written.importId } : {}),
              }),
          },
        });
        // after the commit, not in the import's transaction: the new lines' suggested matches (banking/suggestions.ts)
        if (!dryRun && report.new > 0) {
          const refreshed = await refreshAfterImport(store.db, organisation, report.account.id, {
            settings: w.service.env.accountingConnections,
            timeoutMs: w.service.env.accountingTimeoutMs,
            today: w.service.env.today,
          });
          if (refreshed instanceof Error) request.log.warn({ err: refreshed, organisationId: a.org.id }, 'suggested matches not refreshed after an import');
        }
        const result = resultView(report, dryRun);
        return sendPage(reply, bankImportPage(a.viewer, a.org, report.account.created && !dryRun ? await accounts(a.org.id) : list, { result }, fields));
      } catch (error) {
        // busy: nothing wrong with the file, another process (another import) kept the database's writer
        if (error instanceof ImportRefusal && error.code === 'busy') {
          reply.header('retry-after', '60');
          return again(`Nothing was imported: ${error.message}.`, 503);
        }
        return again(`Nothing was imported: ${(error as Error).message}`, 422);
      }
    });
  });
}

/** The rest of the form: its fields, and the file with its name (for the summary). */
export async function readUpload(
  parts: AsyncIterableIterator<Multipart>,
): Promise<{ form: Record<string, string>; file?: { fileName: string; data: Buffer } }> {
  const form: Record<string, string> = {};
  let file: { fileName: string; data: Buffer } | undefined;
  for await (const part of parts) {
    if (part.type === 'file') file = { fileName: part.filename, data: await part.toBuffer() };
    else if (typeof part.value === 'string') form[part.fieldname] = part.value;
  }
  return file ? { form, file } : { form };
}

/** What the page shows of an import's report. */
function resultView(report: ImportReport, dryRun: boolean): ImportResultView {
  const currency = report.account.currency;
  const money = (minor: number | null) => (minor === null ? '—' : formatMoney(minor, currency));
  return {
    file: report.file,
    dryRun,
    format: report.format,
    account: report.account.name,
    accountId: report.account.created && dryRun ? null : report.account.id,
    new: report.new,
    alreadyPresent: report.alreadyPresent,
    matched: report.matched,
    skipped: report.skipped.map((s) => ({ where: s.where, reason: s.reason })),
    statements: report.statements.map((s) => ({
      where: s.where,
      opening: money(s.balances.statementOpening),
      closing: money(s.balances.statementClosing),
      computedClosing: money(s.balances.computedClosing),
      difference: s.balances.difference ? money(s.balances.difference) : null,
      available: s.balances.available === null ? null : money(s.balances.available),
    })),
    balance: money(report.accountBalance),
    balanceWords: basisWords(report.balanceState, currency),
    incomplete: incompleteWords(report.balanceState, currency),
    notes: report.notes,
  };
}

/** The new account the form describes (its books' account and opening balance too), or what is missing from it. */
function newAccountFrom(form: Record<string, string>, bookAccounts: BookAccountChoice[]): NewBankAccount | string {
  const name = (form.new_name ?? '').trim();
  const currency = (form.new_currency ?? '').trim().toUpperCase();
  const type = form.new_type;
  if (!name) return 'Give the new account a name.';
  if (type !== 'bank' && type !== 'credit_card') return 'Choose whether the new account is a bank account or a credit card.';
  if (!isCurrencyCode(currency)) return `“${currency}” is not a currency code (ISO 4217, such as GBP or EUR).`;
  const number = (form.new_number ?? '').trim();
  const account: NewBankAccount = { name, type, currency, ...(number ? { number } : {}) };
  // 'auto' (the default): the books' account of the same number or name, found when the account is created
  const ledger = (form.new_ledger ?? 'auto').trim();
  if (ledger && ledger !== 'auto') {
    if (!bookAccounts.some((b) => b.accountId === ledger)) return 'Choose one of the books’ accounts listed, or none.';
    account.ledgerAccountId = ledger;
  }
  const openingText = (form.new_opening ?? '').trim();
  const openingDate = (form.new_opening_date ?? '').trim();
  if (openingText || openingDate) {
    const amount = /^-?\d+(\.\d+)?$/.test(openingText) ? fromMajor(openingText, currency) : null;
    if (amount === null) return `“${openingText}” is not an amount in ${currency} (such as 1250.00 or -30.50).`;
    if (!isValidDate(openingDate)) return 'Give the opening balance’s date as yyyy-MM-dd.';
    account.openingBalance = { amount, date: openingDate };
  }
  return account;
}
