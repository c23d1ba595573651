/** Saved Bills to Pay filters as data the organisation's admins manage: create, change (rename, criteria), delete. */
import { z } from 'zod';
import { billCriteriaSchema, parseBillCriteria } from '../domain/bill-criteria.js';
import { billFilterNamed, deleteBillFilter, getBillFilter, insertBillFilter, updateBillFilter } from '../store/bill-filter-writes.js';
import { auditChange } from './changes.js';
import type { OperationContext } from './context.js';
import { OperationError } from './errors.js';
import { changeOf, defineOperation } from './operation.js';

const ADMINS = ['super_admin', 'admin'] as const;

const name = z
  .string()
  .trim()
  .min(1, { message: 'must not be empty' })
  .max(100, { message: 'must be at most 100 characters' })
  .describe('shown in Bills to Pay and matched by bills.list_to_pay filter=');
const description = z.string().trim().max(500, { message: 'must be at most 500 characters' }).describe('what the filter is for');
const criteria = billCriteriaSchema.describe(
  'what it selects; every key optional, all given must match: kinds (bill, expense_claim), tagsAny, suppliers, dueWithinDays, overdue, scheduled, ' +
    'foreignCurrency, minAmountDue (home-currency minor units). {} matches every outstanding bill',
);

const savedFilterSchema = z.object({ id: z.string(), name: z.string(), description: z.string(), criteria: billCriteriaSchema });

async function answerFilter(ctx: OperationContext, id: string): Promise<z.infer<typeof savedFilterSchema>> {
  const row = await getBillFilter(ctx.db, ctx.organisation.id, id);
  if (!row) throw new Error(`saved filter ${id} vanished while it was being answered`);
  return { id: row.id, name: row.name, description: row.description, criteria: parseBillCriteria(row.criteria) };
}

async function requireFreeName(ctx: OperationContext, wanted: string, exceptId?: string): Promise<void> {
  const other = await billFilterNamed(ctx.db, ctx.organisation.id, wanted, exceptId);
  if (other)
    throw new OperationError('already_exists', `a saved filter is already called "${other.name}" (${other.id}); names are unique in any case`, [
      { parameter: 'name', message: 'is taken' },
    ]);
}

async function existingFilter(ctx: OperationContext, id: string) {
  const row = await getBillFilter(ctx.db, ctx.organisation.id, id);
  if (!row) throw new OperationError('not_found', `no saved filter ${id} in this organisation (bills.list_saved_filters lists them)`);
  return row;
}

export const billsCreateSavedFilter = defineOperation({
  kind: 'organisation',
  name: 'bills.create_saved_filter',
  tool: 'bills_create_saved_filter',
  title: 'Save a Bills to Pay filter',
  summary: 'Saves a named Bills to Pay filter for the organisation.',
  description:
    'Saves a Bills to Pay filter with a name (unique in any case), a description and its criteria; it is listed last by bills.list_saved_filters. ' +
    'Answers the saved filter.',
  input: z.object({ name, description: description.default(''), criteria: criteria.default({}) }).strict(),
  output: z.object({ filter: savedFilterSchema }),
  ...changeOf('create', ADMINS),
  async run(ctx, input) {
    await requireFreeName(ctx, input.name);
    const id = await insertBillFilter(ctx.db, ctx.organisation.id, input);
    await auditChange(ctx, 'bill_filter.created', id, { name: input.name });
    return { filter: await answerFilter(ctx, id) };
  },
});

export const billsUpdateSavedFilter = defineOperation({
  kind: 'organisation',
  name: 'bills.update_saved_filter',
  tool: 'bills_update_saved_filter',
  title: 'Change a saved Bills to Pay filter',
  summary: 'Renames a saved filter or changes its description or criteria.',
  description:
    'Changes the saved filter with the given id: send name, description and/or criteria (criteria replace the stored ones whole). Answers the filter as saved.',
  input: z
    .object({
      id: z.string().trim().min(1).max(200).describe('the filter to change'),
      name: name.optional(),
      description: description.optional(),
      criteria: criteria.optional(),
    })
    .strict(),
  output: z.object({ filter: savedFilterSchema }),
  ...changeOf('update', ADMINS),
  async run(ctx, input) {
    const row = await existingFilter(ctx, input.id);
    const { id, ...changes } = input;
    const fields = Object.keys(changes).filter((k) => changes[k as keyof typeof changes] !== undefined);
    if (fields.length === 0)
      throw new OperationError('invalid_request', 'name at least one field to change', [
        { parameter: '(input)', message: 'no field to change: name, description or criteria' },
      ]);
    if (changes.name !== undefined) await requireFreeName(ctx, changes.name, id);
    await updateBillFilter(ctx.db, ctx.organisation.id, id, changes);
    await auditChange(ctx, 'bill_filter.updated', id, {
      name: changes.name ?? row.name,
      ...(changes.name && changes.name !== row.name ? { from: row.name } : {}),
      fields,
    });
    return { filter: await answerFilter(ctx, id) };
  },
});

export const billsDeleteSavedFilter = defineOperation({
  kind: 'organisation',
  name: 'bills.delete_saved_filter',
  tool: 'bills_delete_saved_filter',
  title: 'Delete a saved Bills to Pay filter',
  summary: 'Deletes a saved Bills to Pay filter (the bills stay).',
  description: 'Deletes the saved filter with the given id; the bills it matched are not touched.',
  input: z.object({ id: z.string().trim().min(1, { message: 'is required: the filter id' }).max(200).describe('the filter to delete') }).strict(),
  output: z.object({ deleted: z.string() }),
  ...changeOf('delete', ADMINS),
  async run(ctx, input) {
    const row = await existingFilter(ctx, input.id);
    await deleteBillFilter(ctx.db, ctx.organisation.id, row.id);
    await auditChange(ctx, 'bill_filter.deleted', row.id, { name: row.name });
    return { deleted: row.id };
  },
});
