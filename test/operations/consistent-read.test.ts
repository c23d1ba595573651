/**
 * Statements that must agree, read without a transaction while the organisation's data version
 * stands (operations/consistent-read.ts, the bank page's reads): read once outside a transaction
 * when nothing was written meanwhile; read again in a read-only snapshot when a write committed
 * between the version the call read and the end of its statements; always in a snapshot for a call
 * without a version (a change's reads, a replica's).
 */
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { sql, type Kysely } from 'kysely';
import type { OperationContext } from '../../src/operations/context.js';
import { consistentRead } from '../../src/operations/consistent-read.js';
import { provisionOrganisation } from '../../src/provision.js';
import type { Database } from '../../src/store/schema.js';
import { describeEachDialect } from '../helpers/store.js';

const ORG = 'org_consistent_read';

describeEachDialect(
  'consistentRead',
  (store) => {
    const contextAtVersion = async (): Promise<OperationContext> => {
      const row = await store().db.selectFrom('organisations').select('data_version').where('id', '=', ORG).executeTakeFirstOrThrow();
      return { db: store().db, organisation: { id: ORG }, dataVersion: String(row.data_version) } as unknown as OperationContext;
    };
    const contacts = async (db: Kysely<Database>) =>
      Number((await sql<{ n: number }>`select count(*) as n from acct_contacts where organisation_id = ${ORG}`.execute(db)).rows[0]!.n);
    let next = 0;
    const addContact = () =>
      store()
        .db.insertInto('acct_contacts')
        .values({ id: `ct_consistent_${next++}`, organisation_id: ORG, name: `Contact ${next}`, kind: 'supplier' })
        .execute();

    it('reads once, outside any transaction, when nothing was written meanwhile', async () => {
      const reads: boolean[] = [];
      const answer = await consistentRead(await contextAtVersion(), async (db) => {
        reads.push(db.isTransaction);
        return contacts(db);
      });
      assert.deepEqual(reads, [false]);
      assert.equal(answer, await contacts(store().db));
    });

    it('reads again in a read-only snapshot when a write committed between the version read and the end of the reads', async () => {
      const ctx = await contextAtVersion();
      const before = await contacts(store().db);
      const reads: boolean[] = [];
      const answer = await consistentRead(ctx, async (db) => {
        reads.push(db.isTransaction);
        const seen = await contacts(db);
        // an import committing while the first reads run
        if (reads.length === 1) await addContact();
        return seen;
      });
      assert.deepEqual(reads, [false, true]);
      assert.equal(answer, before + 1, 'the answer is the snapshot read after the write, not the first one');
    });

    it('reads in a snapshot when the call has no version to compare with (a change, a replica)', async () => {
      const reads: boolean[] = [];
      await consistentRead({ ...(await contextAtVersion()), dataVersion: undefined }, async (db) => {
        reads.push(db.isTransaction);
        return contacts(db);
      });
      assert.deepEqual(reads, [true]);
    });
  },
  async (s) => {
    await provisionOrganisation(s.db, { id: ORG, name: 'Consistent Read Ltd', homeCurrency: 'GBP', timeZone: 'Europe/London', fyStartMonth: 1 });
  },
);
