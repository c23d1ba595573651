/** Supplier names that hold commas stay usable (issue 15 item 4): whole, in a JSON array, or among other names. */
import assert from 'node:assert/strict';
import { it } from 'node:test';
import type { Contact } from '../../src/accounting/types.js';
import { resolveSuppliers } from '../../src/operations/ledger/suppliers.js';
import { OperationError } from '../../src/operations/errors.js';

const contacts: Contact[] = [
  { id: 'con_sj', name: 'Smith, Jones & Co', kind: 'supplier' },
  { id: 'con_acme', name: 'Acme', kind: 'supplier' },
  { id: 'con_acme_inc', name: 'Acme, Inc.', kind: 'supplier' },
  { id: 'con_paper', name: 'Paper Co', kind: 'supplier' },
];
const ids = (text: string) => resolveSuppliers(contacts, text).map((c) => c.id);

it('a whole name with commas, as typed, in any case and spacing', () => {
  assert.deepEqual(ids('Smith, Jones & Co'), ['con_sj']);
  assert.deepEqual(ids('smith,jones & co'), ['con_sj']);
  assert.deepEqual(ids('Acme, Inc.'), ['con_acme_inc'], 'the whole name wins over Acme plus a supplier called Inc.');
});

it('several names: commas split only where no name holds them', () => {
  assert.deepEqual(ids('Acme, Paper Co'), ['con_acme', 'con_paper']);
  assert.deepEqual(ids('Paper Co, Smith, Jones & Co, Acme'), ['con_paper', 'con_sj', 'con_acme']);
  assert.deepEqual(ids('Acme, Inc., Paper Co'), ['con_acme_inc', 'con_paper']);
  assert.deepEqual(ids('con_paper,con_acme'), ['con_paper', 'con_acme']);
});

it('a JSON array of names or ids, each taken whole', () => {
  assert.deepEqual(ids('["Smith, Jones & Co", "con_paper"]'), ['con_sj', 'con_paper']);
  assert.throws(
    () => ids('["Acme", 3]'),
    (e: unknown) => e instanceof OperationError && e.code === 'invalid_request' && /JSON array of names or ids/.test(e.message),
  );
  assert.throws(
    () => ids('[not json'),
    (e: unknown) => e instanceof OperationError && e.code === 'invalid_request',
  );
});

it('an unknown name is not found, with candidates', () => {
  assert.throws(
    () => ids('Acme, Smiht, Jones & Co'),
    (e: unknown) => e instanceof OperationError && e.code === 'supplier_not_found' && /No supplier "Smiht"/.test(e.message),
  );
});
