import type { Kysely } from 'kysely';
import type { DialectCapabilities } from '../dialect.js';

/**
 * The document loop (issue 42): documents published to the books, bank lines matched to them, and
 * the service's suggestions.
 *
 * documents: a publish is recorded as an intent before the accounting system is called
 * (publish_state 'pending', publish_key: the key every try of it is sent under, the vendors'
 * idempotency key and the mark its record carries), so a publish whose outcome was unknown is looked
 * up before it is tried again and never makes a second transaction; then 'published' with the
 * system's document id and link. paid_from is the bank or card account (ledger account id) a
 * receipt was paid from; exchange_rate the home units per unit of a foreign document's currency.
 *
 * bank_matches: one row per match (banking.match): the lines matched, the document, what a bill's
 * payment wrote in the books (payment_id) and the bill's amount due before it, so banking.unmatch
 * restores every figure; an explicit difference (fee or rounding) and the account it went to.
 *
 * bank_transactions: the match a line belongs to, and the service's suggestion for a line still to
 * reconcile (the candidate, its score out of 100 and the reasons in words).
 */
export async function up(db: Kysely<any>, _dialect: DialectCapabilities): Promise<void> {
  for (const column of ['publish_state', 'publish_key', 'publish_started_at', 'accounting_document_id', 'accounting_link', 'paid_from', 'exchange_rate']) {
    await db.schema.alterTable('documents').addColumn(column, 'text').execute();
  }
  await db.schema.createIndex('documents_publish_key').on('documents').columns(['organisation_id', 'publish_key']).unique().execute();

  await db.schema
    .createTable('bank_matches')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('organisation_id', 'text', (c) => c.notNull().references('organisations.id').onDelete('cascade'))
    .addColumn('bank_account_id', 'text', (c) => c.notNull())
    .addColumn('document_id', 'text', (c) => c.notNull())
    // document: the lines are the document's own spend or refund; payment: they pay a bill or claim
    .addColumn('kind', 'text', (c) => c.notNull())
    // minor units of the bank account's currency: the lines' sum, and the difference posted as a fee or rounding
    .addColumn('amount', 'bigint', (c) => c.notNull())
    .addColumn('difference', 'bigint', (c) => c.notNull())
    .addColumn('difference_kind', 'text')
    .addColumn('difference_account_id', 'text')
    // what the match wrote in the books: the payment (and fee) transaction, or the vendor's payment id
    .addColumn('payment_id', 'text')
    .addColumn('payment_link', 'text')
    .addColumn('payment_key', 'text')
    // the bill's amount due (home minor units) before the payment, restored by banking.unmatch
    .addColumn('bill_id', 'text')
    .addColumn('bill_amount_due_before', 'bigint')
    .addColumn('created_by', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('bank_matches_document').on('bank_matches').columns(['organisation_id', 'document_id']).execute();

  await db.schema.alterTable('bank_transactions').addColumn('match_id', 'text').execute();
  await db.schema.alterTable('bank_transactions').addColumn('suggested_document_id', 'text').execute();
  await db.schema.alterTable('bank_transactions').addColumn('suggestion_score', 'integer').execute();
  await db.schema.alterTable('bank_transactions').addColumn('suggestion_reasons', 'text').execute();
  await db.schema.createIndex('bank_transactions_match').on('bank_transactions').columns(['organisation_id', 'match_id']).execute();
}
