/**
 * `ledgerline import bank` leaves the imported lines' suggested matches written: a line paying a
 * published bill is flagged with it once the command has run, on a SQLite file as an operator runs it.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { importCommand } from '../../src/cli/import.js';
import { addDays, todayIn } from '../../src/domain/dates.js';
import { provisionOrganisation } from '../../src/provision.js';
import { openStore } from '../../src/store/db.js';
import { nowIso } from '../../src/store/ids.js';
import { migrate } from '../../src/store/migrate.js';
import { captureOutput } from '../helpers/cli.js';

const dir = mkdtempSync(path.join(tmpdir(), 'ledgerline-suggest-'));
const saved = { sqlite: process.env.LEDGERLINE_SQLITE_PATH, url: process.env.DATABASE_URL };
// the command scores the lines of the last 24 months before the organisation's real today
const today = todayIn('Europe/Berlin');

describe('ledgerline import bank suggests matches', () => {
  before(async () => {
    process.env.LEDGERLINE_SQLITE_PATH = path.join(dir, 'cli.sqlite');
    process.env.DATABASE_URL = '';
    const store = openStore({ sqlitePath: process.env.LEDGERLINE_SQLITE_PATH });
    await migrate(store);
    await provisionOrganisation(store.db, { id: 'org_sg', name: 'Suggest GmbH', homeCurrency: 'EUR', timeZone: 'Europe/Berlin', fyStartMonth: 1 });
    await store.db
      .insertInto('documents')
      .values({
        id: 'doc_sg_bill',
        organisation_id: 'org_sg',
        number: 'RE-2026-0815',
        type: 'bill',
        supplier: 'Müller Bürobedarf GmbH',
        date: addDays(today, -30),
        due_date: addDays(today, -5),
        currency: 'EUR',
        subtotal: 10_000,
        tax: 1_900,
        total: 11_900,
        accounting_transaction_id: null,
        published_at: nowIso(),
        publish_state: 'published',
        created_at: nowIso(),
        created_by: null,
        updated_at: null,
      })
      .execute();
    await store.close();
  });
  after(() => {
    if (saved.sqlite === undefined) delete process.env.LEDGERLINE_SQLITE_PATH;
    else process.env.LEDGERLINE_SQLITE_PATH = saved.sqlite;
    if (saved.url === undefined) delete process.env.DATABASE_URL;
    else process.env.DATABASE_URL = saved.url;
    rmSync(dir, { recursive: true, force: true });
  });

  it('flags the line that pays the published bill after the command has imported it', async () => {
    const file = path.join(dir, 'giro.csv');
    writeFileSync(
      file,
      [
        'Date,Description,Amount',
        `${addDays(today, -4)},SEPA UEBERWEISUNG MUELLER BUROBEDARF RE-2026-0815,-119.00`,
        `${addDays(today, -3)},KARTENZAHLUNG REWE,-23.40`,
      ].join('\n'),
    );
    const { code, err } = await captureOutput(() =>
      importCommand(['bank', '--org', 'org_sg', '--create-account', '--name', 'Giro', '--type', 'bank', '--currency', 'EUR', '--json', file]),
    );
    assert.equal(code, 0, err);
    assert.doesNotMatch(err, /not refreshed/);
    const store = openStore({ sqlitePath: process.env.LEDGERLINE_SQLITE_PATH! });
    try {
      const rows = await store.db
        .selectFrom('bank_transactions')
        .select(['description', 'suggested_match', 'suggested_document_id'])
        .where('organisation_id', '=', 'org_sg')
        .orderBy('date')
        .execute();
      assert.deepEqual(
        rows.map((r) => [r.description, Number(r.suggested_match), r.suggested_document_id]),
        [
          ['SEPA UEBERWEISUNG MUELLER BUROBEDARF RE-2026-0815', 1, 'doc_sg_bill'],
          ['KARTENZAHLUNG REWE', 0, null],
        ],
      );
    } finally {
      await store.close();
    }
  });
});
