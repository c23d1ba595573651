/**
 * The mirror's ledger: a vendor's transactions written into the builtin ledger's tables (acct_*)
 * of the organisation, so the same indexed statements and stored totals answer its ledger lines
 * and reports however many lines it has. Ids are the vendor's prefixed with `<organisation id>:`
 * (the tables' ids are global, and one vendor company may be connected to two organisations);
 * mirrored.ts takes the prefix off again.
 *
 * A transaction is always written whole: when the vendor changes or deletes it, its lines are taken
 * off the stored totals and deleted, and its new lines written and added, in one database
 * transaction.
 */
import { sql, type Kysely, type Transaction } from 'kysely';
import { chunks } from '../../store/chunks.js';
import type { DialectCapabilities } from '../../store/dialect.js';
import type { AcctLineRow, AcctTransactionRow, Database } from '../../store/schema.js';
import { addLineAggregates } from '../builtin/line-aggregates.js';
import { removeTransactions } from '../builtin/remove-transactions.js';
import { insertChunked } from '../builtin/writer.js';
import type { Contact, LedgerLine } from '../types.js';

type Db = Kysely<Database> | Transaction<Database>;

export const mirrorId = (organisationId: string, id: string) => `${organisationId}:${id}`;

/**
 * Deletes everything the mirror wrote for the organisation (its prefixed rows and the totals of its
 * prefixed accounts), leaving any rows of the organisation's own builtin ledger as they are: the
 * organisation was connected to another company, or disconnected.
 */
export async function clearMirroredLedger(db: Kysely<Database>, organisationId: string): Promise<void> {
  const prefix = `${mirrorId(organisationId, '')}%`;
  await db.transaction().execute(async (trx) => {
    const adb = trx;
    await trx.deleteFrom('acct_lines').where('organisation_id', '=', organisationId).where('transaction_id', 'like', prefix).execute();
    await trx.deleteFrom('acct_transactions').where('organisation_id', '=', organisationId).where('id', 'like', prefix).execute();
    await trx.deleteFrom('acct_contacts').where('organisation_id', '=', organisationId).where('id', 'like', prefix).execute();
    await trx.deleteFrom('acct_month_totals').where('organisation_id', '=', organisationId).where('account_id', 'like', prefix).execute();
    await adb.deleteFrom('acct_day_totals').where('organisation_id', '=', organisationId).where('account_id', 'like', prefix).execute();
    await adb.deleteFrom('acct_month_line_totals').where('organisation_id', '=', organisationId).where('account_id', 'like', prefix).execute();
    await adb.deleteFrom('acct_day_line_totals').where('organisation_id', '=', organisationId).where('account_id', 'like', prefix).execute();
  });
}

/** The vendor's contacts, as lines name them (acct_contacts), replacing earlier copies. */
export async function putContacts(db: Db, dialect: DialectCapabilities, organisationId: string, contacts: Contact[]): Promise<void> {
  const rows = contacts.map((c) => ({ id: mirrorId(organisationId, c.id), organisation_id: organisationId, name: c.name, kind: c.kind }));
  for (const chunk of chunks(rows, Math.floor(dialect.maxParameters / 4))) {
    await db
      .insertInto('acct_contacts')
      .values(chunk)
      .onConflict((oc) => oc.column('id').doUpdateSet({ name: sql`excluded.name`, kind: sql`excluded.kind` }))
      .execute();
  }
}

/**
 * Replaces the transactions with these ids (the vendor's) by the given lines, grouped by their
 * transactionId; an id with no lines is deleted. Lines must balance per transaction as the vendor
 * posted them; each line keeps its own date.
 */
export async function replaceTransactions(
  db: Kysely<Database>,
  dialect: DialectCapabilities,
  organisationId: string,
  ids: readonly string[],
  lines: readonly LedgerLine[],
): Promise<void> {
  if (ids.length === 0 && lines.length === 0) return;
  const wanted = new Set(ids);
  for (const l of lines) wanted.add(l.transactionId);
  const prefixed = [...wanted].map((id) => mirrorId(organisationId, id));
  const createdAt = new Date().toISOString();
  await db.transaction().execute(async (trx) => {
    await removeTransactions(trx, dialect, organisationId, prefixed);
    const transactions = new Map<string, AcctTransactionRow & { link: string | null; document_id: string | null }>();
    const rows: AcctLineRow[] = [];
    for (const l of lines) {
      const id = mirrorId(organisationId, l.transactionId);
      const contactId = l.contactId === null ? null : mirrorId(organisationId, l.contactId);
      const known = transactions.get(id);
      if (!known) {
        transactions.set(id, {
          id,
          organisation_id: organisationId,
          type: l.type,
          number: l.number,
          date: l.date,
          contact_id: contactId,
          description: l.description,
          currency: l.currency,
          exchange_rate: '1',
          created_at: createdAt,
          link: l.link,
          document_id: l.documentId ?? null,
        });
      } else if (l.date < known.date) known.date = l.date;
      rows.push({
        id: `${id}.${l.lineNo}`,
        organisation_id: organisationId,
        transaction_id: id,
        line_no: l.lineNo,
        account_id: mirrorId(organisationId, l.accountId),
        date: l.date,
        type: l.type,
        contact_id: contactId,
        description: l.description,
        amount: l.amount,
        amount_in_currency: l.amountInCurrency,
        currency: l.currency,
      });
    }
    await insertChunked(trx, 'acct_transactions', [...transactions.values()], dialect);
    await insertChunked(trx, 'acct_lines', rows, dialect);
    await addLineAggregates(trx, dialect, rows);
  });
}
