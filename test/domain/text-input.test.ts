/** Text inputs (query strings, CLI name=value) converted to what each schema declares, read through zod's public classes. */
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { z } from 'zod';
import { coerceTextInput, effectOf, scalarKind } from '../../src/operations/operation.js';
import { OPERATIONS } from '../../src/operations/index.js';

it('numbers, booleans and texts under optional, default, nullable and pipe wrappers', () => {
  const schema = z.object({
    n: z.int().min(1).optional(),
    d: z.number().default(2),
    b: z.boolean().default(false),
    s: z.enum(['a', 'b']).optional(),
    p: z.string().transform((v) => v.toUpperCase()),
    arr: z.array(z.string()).optional(),
    x: z.int().nullable(),
  });
  assert.deepEqual(coerceTextInput(schema, { n: '12', d: '-1.5', b: 'TRUE', s: 'a', p: 'q', arr: 'x', x: '0', empty: '' }), {
    n: 12,
    d: -1.5,
    b: true,
    s: 'a',
    p: 'q',
    arr: 'x',
    x: 0,
    empty: '',
  });
  // what does not convert is passed on as sent, so validation names it; an empty known value is absent
  assert.deepEqual(coerceTextInput(schema, { n: 'twelve', b: 'yes', d: '' }), { n: 'twelve', b: 'yes' });
  assert.equal(scalarKind(z.array(z.int())), 'other');
});

it("every operation's parameters: the kind agrees with the JSON Schema the transports publish", () => {
  const kindOf: Record<string, string> = { integer: 'number', number: 'number', boolean: 'boolean', string: 'string' };
  let checked = 0;
  // a create or an update takes a JSON body, never text (query strings are for reads and deletes)
  for (const op of OPERATIONS.filter((o) => ['read', 'delete'].includes(effectOf(o)))) {
    const properties = (z.toJSONSchema(op.input, { io: 'input' }) as { properties?: Record<string, { type?: string }> }).properties ?? {};
    for (const [name, field] of Object.entries(op.input.shape as Record<string, z.ZodType>)) {
      const type = properties[name]?.type;
      assert.equal(scalarKind(field), (type && kindOf[type]) ?? 'other', `${op.name}.${name} (${type})`);
      checked++;
    }
  }
  assert.ok(checked > 20, `${checked} parameters`);
});
