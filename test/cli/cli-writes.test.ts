/**
 * `ledgerline call` for changes on a SQLite file: a bill created from a JSON body (--input) with its
 * file (--file), changed with name=value pairs, refused with the field named, and audited as the
 * operator's change at the command line.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { callCommand, callHelp } from '../../src/cli/call.js';
import { UsageError } from '../../src/cli/io.js';
import { provisionOrganisation } from '../../src/provision.js';
import { listAudit } from '../../src/store/audit-log.js';
import { openStore } from '../../src/store/db.js';
import { migrate } from '../../src/store/migrate.js';
import { auditActor } from '../../src/web/words.js';
import { captureStdout } from '../helpers/cli.js';

const dir = mkdtempSync(path.join(tmpdir(), 'ledgerline-cli-writes-'));
const saved = { sqlite: process.env.LEDGERLINE_SQLITE_PATH, url: process.env.DATABASE_URL };
const run = (args: string[]) => captureStdout(() => callCommand(args));
const PDF = Buffer.from('%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n');

describe('ledgerline call: documents and saved filters', () => {
  before(async () => {
    process.env.LEDGERLINE_SQLITE_PATH = path.join(dir, 'cli.sqlite');
    process.env.DATABASE_URL = '';
    const store = openStore({ sqlitePath: process.env.LEDGERLINE_SQLITE_PATH });
    await migrate(store);
    await provisionOrganisation(store.db, { id: 'org_cw', name: 'Corner Workshop', homeCurrency: 'EUR', timeZone: 'Europe/Dublin', fyStartMonth: 1 });
    await store.close();
    writeFileSync(
      path.join(dir, 'bill.json'),
      JSON.stringify({ type: 'bill', number: 'B-7', supplier: 'Timber Ltd', date: '2026-11-20', currency: 'EUR', subtotal: 100, tax: 23, total: 123 }),
    );
    writeFileSync(path.join(dir, 'b-7.pdf'), PDF);
    writeFileSync(path.join(dir, 'broken.json'), '{"type": "bill",');
  });
  after(() => {
    process.env.LEDGERLINE_SQLITE_PATH = saved.sqlite;
    process.env.DATABASE_URL = saved.url;
    rmSync(dir, { recursive: true, force: true });
  });

  it('creates a bill from --input with --file, changes it with name=value, and the audit log names the command line', async () => {
    const created = await run([
      'documents.create',
      '--org',
      'Corner Workshop',
      '--input',
      path.join(dir, 'bill.json'),
      '--file',
      path.join(dir, 'b-7.pdf'),
      'dueDate=2026-12-20',
    ]);
    assert.equal(created.code, 0, created.out);
    const answer = JSON.parse(created.out);
    assert.deepEqual([answer.document.number, answer.document.total, answer.document.dueDate, answer.bill.amountDue], ['B-7', 123, '2026-12-20', 123]);
    assert.ok(answer.document.link);
    const changed = await run(['documents.update', '--org', 'org_cw', `id=${answer.document.id}`, 'note=Pay on Friday', 'scheduledDate=2026-11-27']);
    assert.equal(changed.code, 0, changed.out);
    assert.deepEqual([JSON.parse(changed.out).bill.note, JSON.parse(changed.out).bill.scheduledDate], ['Pay on Friday', '2026-11-27']);
    const filter = await run(['bills.create_saved_filter', '--org', 'org_cw', 'name=Scheduled']);
    assert.equal(filter.code, 0, filter.out);

    const store = openStore({ sqlitePath: process.env.LEDGERLINE_SQLITE_PATH! });
    try {
      const entries = await listAudit(store.db, 'org_cw', { limit: 10 });
      assert.deepEqual(entries.map((e) => e.action).sort(), ['bill_filter.created', 'document.created', 'document.updated']);
      for (const e of entries) assert.equal(auditActor({ ...e, actor_name: null, actor_email: null }, JSON.parse(e.detail)), 'Operator (command line)');
    } finally {
      await store.close();
    }
  });

  it('names a bad field, and refuses what cannot be read with one line', async () => {
    await assert.rejects(
      run(['documents.create', '--org', 'org_cw', '--input', path.join(dir, 'bill.json'), 'total=124']),
      (e: any) => e.code === 'invalid_request' && e.errors[0].parameter === 'total',
    );
    await assert.rejects(
      run(['documents.create', '--org', 'org_cw', '--input', path.join(dir, 'broken.json')]),
      (e: any) => e instanceof UsageError && /is not JSON/.test(e.message),
    );
    await assert.rejects(
      run(['documents.create', '--org', 'org_cw', '--input', path.join(dir, 'missing.json')]),
      (e: any) => e instanceof UsageError && /cannot read/.test(e.message),
    );
    await assert.rejects(run(['accounts.list', '--org', 'org_cw', '--input', path.join(dir, 'bill.json')]), UsageError);
    assert.match(callHelp(['documents.create']), /--input FILE\|-; a document file with --file PATH/);
  });

  it('publishes from the command line, or says every field that is missing', async () => {
    const created = JSON.parse((await run(['documents.create', '--org', 'org_cw', '--input', path.join(dir, 'bill.json'), 'number=B-8'])).out);
    await assert.rejects(
      run(['documents.publish', '--org', 'org_cw', `id=${created.document.id}`]),
      (e: any) =>
        e.code === 'document_incomplete' &&
        e.errors.map((x: any) => x.parameter).includes('codedLines') &&
        e.errors.map((x: any) => x.parameter).includes('createContact'),
    );
    assert.match(callHelp(['documents.publish']), /createContact/);
  });
});
