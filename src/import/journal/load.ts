/**
 * A journal file into an organisation's builtin ledger, as one database transaction: read and
 * settle the file (nothing touched yet), then under the organisation's row lock resolve its
 * accounts and contacts, leave out the transactions already there, and write the rest through the
 * ledger's own writer, which keeps the stored monthly totals. Any refusal rolls everything back,
 * so a refused file leaves the books exactly as they were. A transaction's id is a hash of what it
 * says (with its occurrence in the file), so importing a file again adds nothing.
 */
import { createHash } from 'node:crypto';
import type { Transaction } from 'kysely';
import { LedgerWriter } from '../../accounting/builtin/writer.js';
import { ACCOUNT_TYPES, type AccountType, type Contact, type TransactionType } from '../../accounting/types.js';
import { chunks } from '../../store/chunks.js';
import type { Store } from '../../store/db.js';
import { lockOrganisation } from '../../store/organisations.js';
import { inWriteTurn, WRITER_WAIT_MS, WriterBusy } from '../../store/write-turn.js';
import type { Database, OrganisationRow } from '../../store/schema.js';
import { ImportRefusal, Problems } from '../refusal.js';
import type { DeclaredAccount, JournalFormat, ParsedJournal } from './entries.js';
import { journalFormatOf, parseJournal, refuseBinary } from './journal-file.js';
import { hasCounterparty, inferTransactionType, isClosingEntry } from './infer-type.js';
import { ChartIndex, inferAccountType, normaliseAccountName } from './resolve.js';
import { settleJournal, type SettledEntry } from './settle.js';

/** Journals are larger than statements: a year of a busy business's books. */
export const JOURNAL_MAX_BYTES = 100 * 1024 * 1024;

export interface JournalImportRequest {
  organisation: Pick<OrganisationRow, 'id' | 'name' | 'home_currency' | 'accounting_system'>;
  fileName: string;
  bytes: Uint8Array;
  format?: JournalFormat;
  /** create accounts the chart has not; without it they refuse the file */
  allowNewAccounts?: boolean;
  /** check and report, write nothing */
  dryRun?: boolean;
  /**
   * SQLite: how long to wait for another process's write (another import) before refusing with
   * `busy`; default write-turn.ts WRITER_WAIT_MS. Imports in one process, and on PostgreSQL, queue without limit.
   */
  waitMs?: number;
  /** called once if the file has to wait for another process's write */
  onWait?: () => void;
  /** more to write in the import's own transaction, once the file is in (its audit entry): it commits with the file or not at all */
  alsoWrite?: (trx: Transaction<Database>, report: JournalImportReport) => Promise<void>;
}

export interface JournalImportReport {
  file: string;
  format: JournalFormat;
  dryRun: boolean;
  /** transactions in the file */
  transactions: number;
  /** of those, written now (or, with a dry run, to be written) */
  new: number;
  alreadyPresent: number;
  /** closing entries not written: Ledgerline closes each financial year itself (a note names them) */
  closingLeftOut: number;
  /** ledger lines written */
  lines: number;
  period: { from: string; to: string } | null;
  accountsCreated: string[];
  contactsCreated: string[];
  notes: string[];
}

/** What the audit log keeps of an import: the file and its counts, never its contents. */
export function auditDetail(report: JournalImportReport): Record<string, unknown> {
  return {
    file: report.file,
    format: report.format,
    new: report.new,
    alreadyPresent: report.alreadyPresent,
    lines: report.lines,
    accountsCreated: report.accountsCreated.length,
  };
}

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

class DryRunDone extends Error {
  constructor(readonly report: JournalImportReport) {
    super('dry run');
  }
}

export async function importJournal(store: Pick<Store, 'db' | 'dialect'>, request: JournalImportRequest): Promise<JournalImportReport> {
  const org = request.organisation;
  if (org.accounting_system !== 'builtin') {
    throw new ImportRefusal('bad_options', `${org.name} keeps its books in ${org.accounting_system}; journals load only into Ledgerline's own ledger`);
  }
  if (request.bytes.byteLength > JOURNAL_MAX_BYTES) {
    throw new ImportRefusal(
      'too_large',
      `the file is ${request.bytes.byteLength} bytes, over the journal limit of ${JOURNAL_MAX_BYTES} bytes; split it by year`,
    );
  }
  // a page's upload loads in the server: the event loop turns between the long steps of a large file
  refuseBinary(request.fileName, request.bytes);
  const journal = parseJournal(request.bytes, request.format ?? journalFormatOf(request.fileName, request.bytes));
  await nextTurn();
  const entries = settleJournal(journal, org.home_currency);
  await nextTurn();
  const ids = contentIds(org.id, entries);
  await nextTurn();
  try {
    // the organisation's row lock is also the first write, which takes SQLite's write lock: there
    // the import waits its turn behind another process's import (write-turn.ts)
    return await inWriteTurn(
      store.db,
      (trx) => lockOrganisation(trx, org.id),
      async (trx) => {
        const report = await writeEntries(trx, store, request, journal, entries, ids);
        if (request.dryRun) throw new DryRunDone(report);
        await request.alsoWrite?.(trx, report);
        return report;
      },
      { waitMs: request.waitMs ?? WRITER_WAIT_MS, ...(request.onWait ? { onWait: request.onWait } : {}) },
    );
  } catch (error) {
    if (error instanceof DryRunDone) return error.report;
    if (error instanceof WriterBusy) throw new ImportRefusal('busy', error.message);
    throw error;
  }
}

/**
 * The type a transaction is written with (the file's, else told from its postings: infer-type.ts)
 * and its contact (the file's, else, for a transaction with a counterparty, hledger's payee).
 */
const postingTypes = (e: SettledEntry, accounts: ResolvedAccounts) =>
  e.postings.map((p) => ({ accountType: accounts.types.get(normaliseAccountName(p.account))!, amount: p.amount }));

function typeAndContact(
  e: SettledEntry,
  accounts: ResolvedAccounts,
  format: JournalFormat,
): { type: TransactionType; contact: string | null; customer: boolean } {
  const postings = postingTypes(e, accounts);
  // hledger's code is the cheque number; a CSV's number column groups its rows (a cheque says Type Check)
  const type = e.type ?? inferTransactionType(postings, format === 'journal' ? e.number : null, e.description);
  const contact = e.contact ?? (e.payee !== null && hasCounterparty(type) ? e.payee : null);
  // a new contact is a customer when it is invoiced, pays a receivable, or pays in for a sale (a deposit to income)
  const customer =
    type === 'invoice' ||
    (type !== 'bill' && type !== 'supplier_credit' && postings.some((p) => p.accountType === 'Accounts Receivable')) ||
    (type === 'deposit' && postings.some((p) => ACCOUNT_TYPES[p.accountType] === 'Revenue'));
  return { type, contact, customer };
}

/** A transaction's id says what the file says: the type and contact as written (null type: journal), so ids never change with the rules that fill them in. */
function contentIds(organisationId: string, entries: SettledEntry[]): string[] {
  const seen = new Map<string, number>();
  return entries.map((e) => {
    const content = JSON.stringify([
      organisationId,
      e.date,
      e.number,
      e.type ?? 'journal',
      e.contact,
      e.description,
      // a posting's own date only where it has one, so the ids of books without posting dates are as they were
      e.postings.map((p) => [normaliseAccountName(p.account), p.currency, p.amountInCurrency, p.amount, p.description, ...(p.date !== e.date ? [p.date] : [])]),
    ]);
    const occurrence = seen.get(content) ?? 0;
    seen.set(content, occurrence + 1);
    return `jnl_${createHash('sha256').update(`${content}#${occurrence}`).digest('hex').slice(0, 32)}`;
  });
}

async function writeEntries(
  trx: Transaction<Database>,
  store: Pick<Store, 'dialect'>,
  request: JournalImportRequest,
  journal: ParsedJournal,
  entries: SettledEntry[],
  ids: string[],
): Promise<JournalImportReport> {
  const org = request.organisation;
  const present = await presentIds(trx, store.dialect.maxParameters, org.id, ids);
  const fresh = entries.map((e, i) => ({ e, id: ids[i]! })).filter(({ id }) => !present.has(id));
  const writer = new LedgerWriter(trx, store.dialect, org.id, org.home_currency);
  const accounts = await resolveAccounts(
    trx,
    writer,
    org.id,
    journal.accounts,
    fresh.map((f) => f.e),
    request.allowNewAccounts ?? false,
  );
  // closing entries are left out: Ledgerline closes each financial year itself (infer-type.ts isClosingEntry)
  const closing = fresh.filter(({ e }) => isClosingEntry(postingTypes(e, accounts), e.description, e.closing));
  const typed = fresh.filter((f) => !closing.includes(f)).map(({ e, id }) => ({ e, id, ...typeAndContact(e, accounts, journal.format) }));
  const { contactIds, created: contactsCreated } = await resolveContacts(trx, writer, org.id, typed);
  const batch = writer.batch();
  let lines = 0;
  for (const [n, { e, id, type, contact }] of typed.entries()) {
    if (n % 5000 === 4999) await nextTurn();
    batch.add({
      id,
      type,
      date: e.date,
      number: e.number,
      contactId: contact === null ? null : contactIds.get(contact.toLowerCase())!,
      description: e.description,
      currency: e.currency,
      exchangeRate: e.exchangeRate,
      lines: e.postings.map((p) => ({
        accountId: accounts.ids.get(normaliseAccountName(p.account))!,
        amount: p.amount,
        amountInCurrency: p.amountInCurrency,
        ...(p.description ? { description: p.description } : {}),
        // each line on its own date (hledger's posting date): never moved to the transaction's
        ...(p.date !== e.date ? { date: p.date } : {}),
      })),
    });
    lines += e.postings.length;
  }
  await batch.writeIn(trx);
  const dates = entries.flatMap((e) => [e.date, ...e.postings.map((p) => p.date)]).sort();
  const notes = [...journal.notes];
  if (closing.length)
    notes.push(
      `${closing.length} closing entr${closing.length === 1 ? 'y' : 'ies'} left out (${closing
        .slice(0, 3)
        .map(({ e }) => `${e.where}, ${e.date} "${e.description}"`)
        .join('; ')}${closing.length > 3 ? '; …' : ''}): ` +
        'Ledgerline closes each financial year itself, carrying its profit to retained earnings on the balance sheet, so the profit and loss keeps the ' +
        "year's income and expenses. Tag one `closing: no` to load it.",
    );
  if (accounts.notCreated.length)
    notes.push(
      `${accounts.notCreated.length} account(s) the file declares with no postings are not in the chart and were not created (new accounts not ` +
        `allowed): ${accounts.notCreated.slice(0, 5).join(', ')}${accounts.notCreated.length > 5 ? ', …' : ''}.`,
    );
  const dated = entries.filter((e) => e.postings.some((p) => p.date !== e.date));
  if (dated.length)
    notes.push(
      `${dated.length} transaction(s) have postings dated apart from the transaction (${dated
        .slice(0, 3)
        .map((e) => e.where)
        .join(
          ', ',
        )}${dated.length > 3 ? ', …' : ''}): each posting is on its own date, as hledger books it, so on the days between a transaction's date and its ` +
        `postings' dates its lines do not balance yet, as in hledger.`,
    );
  return {
    file: request.fileName,
    format: journal.format,
    dryRun: request.dryRun ?? false,
    transactions: entries.length,
    new: typed.length,
    alreadyPresent: entries.length - fresh.length,
    closingLeftOut: closing.length,
    lines,
    period: dates.length ? { from: dates[0]!, to: dates[dates.length - 1]! } : null,
    accountsCreated: accounts.created,
    contactsCreated,
    notes,
  };
}

async function presentIds(trx: Transaction<Database>, maxParameters: number, organisationId: string, ids: string[]): Promise<Set<string>> {
  const present = new Set<string>();
  for (const chunk of chunks(ids, maxParameters - 1)) {
    const rows = await trx.selectFrom('acct_transactions').select('id').where('organisation_id', '=', organisationId).where('id', 'in', chunk).execute();
    for (const r of rows) present.add(r.id);
  }
  return present;
}

interface ResolvedAccounts {
  /** by the name in the file (normalised) */
  ids: Map<string, string>;
  types: Map<string, AccountType>;
  created: string[];
  /** accounts the file declares with no postings that the chart has not, left out without new accounts allowed */
  notCreated: string[];
}

/** Every account the new transactions name, by its name in the file; creates the missing ones when allowed. */
async function resolveAccounts(
  trx: Transaction<Database>,
  writer: LedgerWriter,
  organisationId: string,
  declaredList: DeclaredAccount[],
  entries: SettledEntry[],
  allowNew: boolean,
): Promise<ResolvedAccounts> {
  const rows = await trx.selectFrom('acct_accounts').select(['id', 'full_name', 'number', 'type']).where('organisation_id', '=', organisationId).execute();
  const chart = new ChartIndex(rows.map((r) => ({ id: r.id, fullName: r.full_name, number: r.number })));
  const typeOf = new Map(rows.map((r) => [r.id, r.type as AccountType]));
  const declared = new Map(declaredList.map((d) => [normaliseAccountName(d.name).toLowerCase(), d]));
  const ids = new Map<string, string>();
  const types = new Map<string, AccountType>();
  const created: string[] = [];
  const problems = new Problems();
  const firstUse = new Map<string, string>();
  for (const e of entries)
    for (const p of e.postings) if (!firstUse.has(normaliseAccountName(p.account))) firstUse.set(normaliseAccountName(p.account), p.where);

  for (const [name, where] of firstUse) {
    const found = chart.find(name);
    if (found) {
      ids.set(name, found.id);
      types.set(name, typeOf.get(found.id)!);
      continue;
    }
    if (!allowNew) {
      problems.add(where, `no account "${name}" in the chart of accounts (import with new accounts allowed to create it)`);
      continue;
    }
    const made = await createWithParents(writer, chart, declared, name, created, where, problems);
    if (made) {
      ids.set(name, made.id);
      types.set(name, made.type);
    }
  }
  // accounts the file declares (hledger's account directive) are part of its chart, postings or not
  const notCreated: string[] = [];
  for (const d of declaredList) {
    const name = normaliseAccountName(d.name);
    if (firstUse.has(name) || chart.find(name)) continue;
    if (allowNew) await createWithParents(writer, chart, declared, name, created, d.where, problems);
    else notCreated.push(name);
  }
  if (problems.list.length) {
    throw ImportRefusal.of(
      allowNew ? 'malformed' : 'unknown_account',
      allowNew ? 'accounts cannot be created' : 'the journal names accounts the books have not',
      problems.list,
    );
  }
  return { ids, types, created, notCreated };
}

async function createWithParents(
  writer: LedgerWriter,
  chart: ChartIndex,
  declared: ReadonlyMap<string, DeclaredAccount>,
  fullName: string,
  created: string[],
  where: string,
  problems: Problems,
): Promise<{ id: string; type: AccountType } | null> {
  const parts = fullName.split(':');
  let parentId: string | null = null;
  let parentType: AccountType | null = null;
  for (let depth = 1; depth <= parts.length; depth++) {
    const name = parts.slice(0, depth).join(':');
    const existing = chart.find(name);
    if (existing) {
      parentId = existing.id;
      parentType = null;
      continue;
    }
    const type = inferAccountType(name, declared);
    if (!type) {
      problems.add(
        where,
        `cannot tell what kind of account "${name}" is; name it under Assets, Liabilities, Equity, Income or Expenses, or declare it (account ${name}  ` +
          `; type: A|L|E|R|X|C)`,
      );
      return null;
    }
    if (!parts[depth - 1]) {
      problems.add(where, `"${fullName}" has an empty part`);
      return null;
    }
    const row = await writer.createAccount({ name: parts[depth - 1]!, type, parentId });
    chart.add({ id: row.id, fullName: row.full_name, number: null });
    created.push(row.full_name);
    parentId = row.id;
    parentType = type;
  }
  return parentId === null ? null : { id: parentId, type: parentType! };
}

async function resolveContacts(
  trx: Transaction<Database>,
  writer: LedgerWriter,
  organisationId: string,
  entries: { contact: string | null; customer: boolean }[],
): Promise<{ contactIds: Map<string, string>; created: string[] }> {
  const rows = await trx.selectFrom('acct_contacts').select(['id', 'name']).where('organisation_id', '=', organisationId).execute();
  const contactIds = new Map(rows.map((r) => [r.name.toLowerCase(), r.id]));
  const created: string[] = [];
  for (const e of entries) {
    if (e.contact === null || contactIds.has(e.contact.toLowerCase())) continue;
    const kind: Contact['kind'] = e.customer ? 'customer' : 'supplier';
    const row = await writer.createContact(e.contact, kind);
    contactIds.set(e.contact.toLowerCase(), row.id);
    created.push(e.contact);
  }
  return { contactIds, created };
}
