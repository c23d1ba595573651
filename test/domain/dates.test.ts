/**
 * `yyyy-MM-dd` as the service reads it (domain/dates.ts): four, two and two ASCII digits between
 * hyphens, a real calendar day, nothing before or after.
 */
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { addDays, daysInMonth, endOfMonth, isValidDate, parseDate } from '../../src/domain/dates.js';

it('reads a calendar date into its parts', () => {
  assert.deepEqual(parseDate('2025-03-09'), { year: 2025, month: 3, day: 9 });
  assert.deepEqual(parseDate('0001-01-01'), { year: 1, month: 1, day: 1 });
  assert.deepEqual(parseDate('9999-12-31'), { year: 9999, month: 12, day: 31 });
  assert.deepEqual(parseDate('2024-02-29'), { year: 2024, month: 2, day: 29 });
  assert.deepEqual(parseDate('2000-02-29'), { year: 2000, month: 2, day: 29 });
});

it('refuses anything that is not one real yyyy-MM-dd day', () => {
  for (const text of [
    '2025-02-29', // not a leap year
    '1900-02-29', // a century not divisible by 400
    '2025-04-31',
    '2025-13-01',
    '2025-00-10',
    '2025-01-00',
    '2025-01-32',
    '0000-01-01',
    '2025-2-01',
    '2025-02-1',
    ' 2025-02-01',
    '2025-02-01 ',
    '2025-02-01\n',
    '2025/02/01',
    '2025-0a-01',
    '+025-01-01',
    '1e10-01-01',
    '２０２５-01-01', // full-width digits: ten characters, none of them ASCII digits
    '2025-01-01T00:00:00Z',
    '',
  ])
    assert.equal(parseDate(text), null, JSON.stringify(text));
  assert.equal(isValidDate('2025-02-28'), true);
  assert.equal(isValidDate('2025-02-29'), false);
});

it('steps through months of every length', () => {
  assert.deepEqual(
    Array.from({ length: 12 }, (_, m) => daysInMonth(2024, m + 1)),
    [31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31],
  );
  assert.equal(daysInMonth(2023, 2), 28);
  assert.equal(endOfMonth('2023-02-10'), '2023-02-28');
  assert.equal(addDays('2024-02-28', 1), '2024-02-29');
  assert.equal(addDays('2024-12-31', 1), '2025-01-01');
  assert.equal(addDays('2025-03-01', -1), '2025-02-28');
});
