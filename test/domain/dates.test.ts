/**
 * `yyyy-MM-dd` as the service reads it (domain/dates.ts): four, two and two ASCII digits between
 * hyphens, a real calendar day, nothing before or after.
 */
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { addDays, daysBetween, daysInMonth, endOfMonth, isValidDate, parseDate } from '../../src/domain/dates.js';

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

it('counts days as the calendar does, every day from 1600 to 2400, and in the first century', () => {
  // each step of a day from 1600-01-01 lands on the next calendar day, as Date counts them
  let date = '1600-01-01';
  for (let t = Date.UTC(1600, 0, 1); t <= Date.UTC(2400, 11, 31); t += 86_400_000) {
    const d = new Date(t);
    const expected = `${d.getUTCFullYear()}-${String(d.getUTCMonth() + 1).padStart(2, '0')}-${String(d.getUTCDate()).padStart(2, '0')}`;
    assert.equal(date, expected);
    date = addDays(date, 1);
  }
  // Date.UTC reads years 0-99 as 1900-1999: these are the calendar's own
  assert.equal(addDays('0001-01-01', 365), '0002-01-01');
  assert.equal(addDays('0004-02-28', 1), '0004-02-29');
  assert.equal(addDays('0100-02-28', 1), '0100-03-01');
  assert.equal(addDays('9999-12-31', -365), '9998-12-31');
  assert.equal(daysBetween('0001-01-01', '9999-12-31'), 3_652_058);
  assert.equal(daysBetween('2024-03-01', '2024-02-28'), -2);
});
