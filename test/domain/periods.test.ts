import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { addMonths, parseDate, todayIn } from '../../src/domain/dates.js';
import { comparisonDates, comparisonPeriods, customPeriod, financialYearStart, resolvePreset } from '../../src/domain/periods.js';

const range = (p: { from: string; to: string }) => `${p.from}..${p.to}`;

describe('calendar dates', () => {
  it('parses only real calendar dates', () => {
    assert.ok(parseDate('2024-02-29'));
    assert.equal(parseDate('2025-02-29'), null);
    assert.equal(parseDate('2026-13-01'), null);
    assert.equal(parseDate('2026-1-01'), null);
    assert.equal(parseDate('2026-04-31'), null);
  });

  it('shifts months keeping month ends at month ends and clamping other days', () => {
    assert.equal(addMonths('2026-01-31', 1), '2026-02-28');
    assert.equal(addMonths('2026-01-30', 1), '2026-02-28');
    assert.equal(addMonths('2026-02-28', 1), '2026-03-31');
    assert.equal(addMonths('2024-02-29', -12), '2023-02-28');
    assert.equal(addMonths('2025-02-28', -12), '2024-02-29');
    assert.equal(addMonths('2026-03-15', -15), '2024-12-15');
  });

  it("takes today in the organisation's own time zone", () => {
    const instant = new Date('2026-11-21T12:30:00Z');
    assert.equal(todayIn('Europe/London', instant), '2026-11-21');
    assert.equal(todayIn('Pacific/Auckland', instant), '2026-11-22');
    assert.equal(todayIn('America/Los_Angeles', new Date('2026-11-21T03:00:00Z')), '2026-11-20');
  });
});

describe('period presets', () => {
  const april = { today: '2026-11-21', fyStartMonth: 4 };
  it('follows a financial year starting in April', () => {
    assert.equal(range(resolvePreset('this_month', april)), '2026-11-01..2026-11-30');
    assert.equal(range(resolvePreset('last_month', april)), '2026-10-01..2026-10-31');
    assert.equal(range(resolvePreset('this_quarter', april)), '2026-10-01..2026-12-31');
    assert.equal(range(resolvePreset('last_quarter', april)), '2026-07-01..2026-09-30');
    assert.equal(range(resolvePreset('ytd', april)), '2026-04-01..2026-11-21');
    assert.equal(range(resolvePreset('last_year', april)), '2025-04-01..2026-03-31');
    assert.equal(range(resolvePreset('last_three_months', april)), '2026-08-22..2026-11-21');
    assert.equal(resolvePreset('this_quarter', april).label, 'Q3 FY 2026/27');
    assert.equal(resolvePreset('last_year', april).label, 'FY 2025/26');
    assert.equal(resolvePreset('this_month', april).label, 'Nov 2026');
  });

  it('crosses the calendar year inside a financial year', () => {
    const jan = { today: '2026-01-15', fyStartMonth: 4 };
    assert.equal(range(resolvePreset('ytd', jan)), '2025-04-01..2026-01-15');
    assert.equal(range(resolvePreset('this_quarter', jan)), '2026-01-01..2026-03-31');
    assert.equal(range(resolvePreset('last_quarter', jan)), '2025-10-01..2025-12-31');
    assert.equal(range(resolvePreset('last_year', jan)), '2024-04-01..2025-03-31');
    assert.equal(range(resolvePreset('last_month', jan)), '2025-12-01..2025-12-31');
  });

  it('follows calendar and July financial years', () => {
    assert.equal(range(resolvePreset('ytd', { today: '2026-11-21', fyStartMonth: 1 })), '2026-01-01..2026-11-21');
    assert.equal(resolvePreset('last_year', { today: '2026-11-21', fyStartMonth: 1 }).label, 'FY 2025');
    const july = { today: '2026-11-21', fyStartMonth: 7 };
    assert.equal(range(resolvePreset('this_quarter', july)), '2026-10-01..2026-12-31');
    assert.equal(range(resolvePreset('last_year', july)), '2025-07-01..2026-06-30');
    assert.equal(financialYearStart('2026-06-30', 7), '2025-07-01');
    assert.equal(financialYearStart('2026-07-01', 7), '2026-07-01');
  });

  it('the last three months from a month end and from a leap day', () => {
    assert.equal(range(resolvePreset('last_three_months', { today: '2026-05-31', fyStartMonth: 1 })), '2026-03-01..2026-05-31');
    assert.equal(range(resolvePreset('last_three_months', { today: '2024-02-29', fyStartMonth: 1 })), '2023-12-01..2024-02-29');
  });
});

describe('comparison periods', () => {
  it('by month, month-end aligned, current first', () => {
    const feb = customPeriod('2024-02-01', '2024-02-29', 1);
    assert.deepEqual(comparisonPeriods(feb, 'month', 2, 1).map(range), ['2024-02-01..2024-02-29', '2024-01-01..2024-01-31', '2023-12-01..2023-12-31']);
    const toMarch31 = customPeriod('2026-03-10', '2026-03-31', 1);
    assert.deepEqual(comparisonPeriods(toMarch31, 'month', 1, 1).map(range)[1], '2026-02-10..2026-02-28');
  });

  it('by year, leap days falling back to 28 February', () => {
    const feb = customPeriod('2024-02-01', '2024-02-29', 1);
    assert.deepEqual(comparisonPeriods(feb, 'year', 2, 1).map(range), ['2024-02-01..2024-02-29', '2023-02-01..2023-02-28', '2022-02-01..2022-02-28']);
    const feb25 = customPeriod('2025-02-01', '2025-02-28', 1);
    assert.equal(range(comparisonPeriods(feb25, 'year', 1, 1)[1]!), '2024-02-01..2024-02-29');
  });

  it('balance dates: the month ends before, or the same date a year back', () => {
    assert.deepEqual(comparisonDates('2026-11-21', 'month', 3), ['2026-11-21', '2026-10-31', '2026-09-30', '2026-08-31']);
    assert.deepEqual(comparisonDates('2024-03-31', 'month', 1), ['2024-03-31', '2024-02-29']);
    assert.deepEqual(comparisonDates('2024-02-29', 'year', 2), ['2024-02-29', '2023-02-28', '2022-02-28']);
    assert.deepEqual(comparisonDates('2025-02-28', 'year', 1), ['2025-02-28', '2024-02-29']);
    assert.equal(comparisonDates('2026-11-21', 'month', 12).length, 13);
  });
});
