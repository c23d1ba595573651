import { sql, type Kysely } from 'kysely';
import type { DialectCapabilities } from '../dialect.js';

/** The first schema: organisations and people, the builtin ledger, and the service's own data. */
export async function up(db: Kysely<any>, dialect: DialectCapabilities): Promise<void> {
  await db.schema
    .createTable('organisations')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('home_currency', 'text', (c) => c.notNull())
    .addColumn('time_zone', 'text', (c) => c.notNull())
    .addColumn('fy_start_month', 'integer', (c) => c.notNull())
    .addColumn('accounting_system', 'text', (c) => c.notNull())
    .addColumn('accounting_config', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('users')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('email', 'text', (c) => c.notNull().unique())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('password_hash', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('memberships')
    .addColumn('organisation_id', 'text', (c) => c.notNull().references('organisations.id').onDelete('cascade'))
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('role', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('memberships_pk', ['organisation_id', 'user_id'])
    .execute();
  await db.schema.createIndex('memberships_user').on('memberships').columns(['user_id']).execute();

  await db.schema
    .createTable('operation_roles')
    .addColumn('organisation_id', 'text', (c) => c.notNull().references('organisations.id').onDelete('cascade'))
    .addColumn('operation', 'text', (c) => c.notNull())
    .addColumn('role', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('operation_roles_pk', ['organisation_id', 'operation', 'role'])
    .execute();

  // builtin accounting system
  await db.schema
    .createTable('acct_accounts')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('organisation_id', 'text', (c) => c.notNull().references('organisations.id').onDelete('cascade'))
    .addColumn('parent_id', 'text')
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('full_name', 'text', (c) => c.notNull())
    .addColumn('number', 'text')
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('classification', 'text', (c) => c.notNull())
    .addColumn('active', 'integer', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('acct_accounts_org').on('acct_accounts').columns(['organisation_id', 'full_name']).unique().execute();

  await db.schema
    .createTable('acct_contacts')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('organisation_id', 'text', (c) => c.notNull().references('organisations.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('acct_contacts_org').on('acct_contacts').columns(['organisation_id', 'kind', 'name']).execute();

  await db.schema
    .createTable('acct_transactions')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('organisation_id', 'text', (c) => c.notNull().references('organisations.id').onDelete('cascade'))
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('number', 'text')
    .addColumn('date', 'text', (c) => c.notNull())
    .addColumn('contact_id', 'text')
    .addColumn('description', 'text', (c) => c.notNull())
    .addColumn('currency', 'text', (c) => c.notNull())
    .addColumn('exchange_rate', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('acct_transactions_org_date').on('acct_transactions').columns(['organisation_id', 'date']).execute();

  await db.schema
    .createTable('acct_lines')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('organisation_id', 'text', (c) => c.notNull())
    .addColumn('transaction_id', 'text', (c) => c.notNull().references('acct_transactions.id').onDelete('cascade'))
    .addColumn('line_no', 'integer', (c) => c.notNull())
    .addColumn('account_id', 'text', (c) => c.notNull())
    .addColumn('date', 'text', (c) => c.notNull())
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('contact_id', 'text')
    .addColumn('description', 'text', (c) => c.notNull())
    .addColumn('amount', 'bigint', (c) => c.notNull())
    .addColumn('amount_in_currency', 'bigint', (c) => c.notNull())
    .addColumn('currency', 'text', (c) => c.notNull())
    .execute();
  // ledger reads: one account (and its children) over a date range, totals without touching the table
  await db.schema.createIndex('acct_lines_account_date').on('acct_lines').columns(['organisation_id', 'account_id', 'date', 'type', 'amount']).execute();
  // reports over a partial month: every account's lines between two dates
  await db.schema.createIndex('acct_lines_date').on('acct_lines').columns(['organisation_id', 'date', 'account_id', 'amount']).execute();
  await db.schema.createIndex('acct_lines_transaction').on('acct_lines').columns(['transaction_id']).execute();

  await db.schema
    .createTable('acct_month_totals')
    .addColumn('organisation_id', 'text', (c) => c.notNull())
    .addColumn('account_id', 'text', (c) => c.notNull())
    .addColumn('month', 'text', (c) => c.notNull())
    .addColumn('amount', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('acct_month_totals_pk', ['organisation_id', 'account_id', 'month'])
    .execute();

  // documents
  await db.schema
    .createTable('documents')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('organisation_id', 'text', (c) => c.notNull().references('organisations.id').onDelete('cascade'))
    .addColumn('number', 'text', (c) => c.notNull())
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('supplier', 'text', (c) => c.notNull())
    .addColumn('date', 'text', (c) => c.notNull())
    .addColumn('due_date', 'text')
    .addColumn('currency', 'text', (c) => c.notNull())
    .addColumn('subtotal', 'bigint', (c) => c.notNull())
    .addColumn('tax', 'bigint', (c) => c.notNull())
    .addColumn('total', 'bigint', (c) => c.notNull())
    .addColumn('accounting_transaction_id', 'text')
    .addColumn('published_at', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('documents_org_txn').on('documents').columns(['organisation_id', 'accounting_transaction_id']).execute();

  await db.schema
    .createTable('document_coded_lines')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('document_id', 'text', (c) => c.notNull().references('documents.id').onDelete('cascade'))
    .addColumn('organisation_id', 'text', (c) => c.notNull())
    .addColumn('line_no', 'integer', (c) => c.notNull())
    .addColumn('description', 'text', (c) => c.notNull())
    .addColumn('account_id', 'text')
    .addColumn('account_name', 'text')
    .addColumn('tax_code_id', 'text')
    .addColumn('class', 'text')
    .addColumn('customer', 'text')
    .addColumn('quantity', 'text', (c) => c.notNull())
    .addColumn('subtotal', 'bigint', (c) => c.notNull())
    .addColumn('tax', 'bigint', (c) => c.notNull())
    .addColumn('total', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('document_coded_lines_doc').on('document_coded_lines').columns(['document_id', 'line_no']).execute();

  await db.schema
    .createTable('document_invoice_lines')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('document_id', 'text', (c) => c.notNull().references('documents.id').onDelete('cascade'))
    .addColumn('organisation_id', 'text', (c) => c.notNull())
    .addColumn('line_no', 'integer', (c) => c.notNull())
    .addColumn('description', 'text', (c) => c.notNull())
    .addColumn('product_code', 'text')
    .addColumn('unit', 'text')
    .addColumn('quantity', 'text', (c) => c.notNull())
    .addColumn('unit_price', 'bigint', (c) => c.notNull())
    .addColumn('tax', 'bigint', (c) => c.notNull())
    .addColumn('amount', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('document_invoice_lines_doc').on('document_invoice_lines').columns(['document_id', 'line_no']).execute();

  await db.schema
    .createTable('document_files')
    .addColumn('document_id', 'text', (c) => c.primaryKey().references('documents.id').onDelete('cascade'))
    .addColumn('organisation_id', 'text', (c) => c.notNull())
    .addColumn('file_name', 'text', (c) => c.notNull())
    .addColumn('content_type', 'text', (c) => c.notNull())
    .addColumn('size', 'integer', (c) => c.notNull())
    .addColumn('data', sql.raw(dialect.binaryType), (c) => c.notNull())
    .execute();

  // banking
  await db.schema
    .createTable('bank_accounts')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('organisation_id', 'text', (c) => c.notNull().references('organisations.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('number', 'text', (c) => c.notNull())
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('bank', 'text', (c) => c.notNull())
    .addColumn('currency', 'text', (c) => c.notNull())
    .addColumn('is_default', 'integer', (c) => c.notNull())
    .addColumn('ledger_account_id', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('bank_accounts_org').on('bank_accounts').columns(['organisation_id']).execute();

  await db.schema
    .createTable('bank_account_holders')
    .addColumn('bank_account_id', 'text', (c) => c.notNull().references('bank_accounts.id').onDelete('cascade'))
    .addColumn('organisation_id', 'text', (c) => c.notNull())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addPrimaryKeyConstraint('bank_account_holders_pk', ['bank_account_id', 'user_id'])
    .execute();

  await db.schema
    .createTable('bank_transactions')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('organisation_id', 'text', (c) => c.notNull())
    .addColumn('bank_account_id', 'text', (c) => c.notNull().references('bank_accounts.id').onDelete('cascade'))
    .addColumn('date', 'text', (c) => c.notNull())
    .addColumn('description', 'text', (c) => c.notNull())
    .addColumn('amount', 'bigint', (c) => c.notNull())
    .addColumn('home_amount', 'bigint', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('reconciled_in', 'text')
    .addColumn('suggested_match', 'integer', (c) => c.notNull())
    .addColumn('document_id', 'text')
    .addColumn('source', 'text', (c) => c.notNull())
    .addColumn('external_id', 'text')
    .addColumn('fingerprint', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('bank_transactions_account_date').on('bank_transactions').columns(['organisation_id', 'bank_account_id', 'date', 'id']).execute();
  await db.schema.createIndex('bank_transactions_fingerprint').on('bank_transactions').columns(['bank_account_id', 'fingerprint']).unique().execute();

  // bills to pay
  await db.schema
    .createTable('bills')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('organisation_id', 'text', (c) => c.notNull().references('organisations.id').onDelete('cascade'))
    .addColumn('document_id', 'text')
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('supplier', 'text', (c) => c.notNull())
    .addColumn('invoice_number', 'text', (c) => c.notNull())
    .addColumn('date', 'text', (c) => c.notNull())
    .addColumn('due_date', 'text', (c) => c.notNull())
    .addColumn('scheduled_date', 'text')
    .addColumn('tags', 'text', (c) => c.notNull())
    .addColumn('currency', 'text', (c) => c.notNull())
    .addColumn('original_amount', 'bigint', (c) => c.notNull())
    .addColumn('amount_due', 'bigint', (c) => c.notNull())
    .addColumn('latest_note', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('bills_org_due').on('bills').columns(['organisation_id', 'due_date']).execute();

  await db.schema
    .createTable('bill_filters')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('organisation_id', 'text', (c) => c.notNull().references('organisations.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('description', 'text', (c) => c.notNull())
    .addColumn('criteria', 'text', (c) => c.notNull())
    .addColumn('position', 'integer', (c) => c.notNull())
    .execute();
}
