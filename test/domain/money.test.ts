import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { convert, formatMoney, fromMajor, minorDigits, toMajor } from '../../src/domain/money.js';

describe('money', () => {
  it("knows each currency's minor units", () => {
    assert.equal(minorDigits('GBP'), 2);
    assert.equal(minorDigits('JPY'), 0);
    assert.equal(minorDigits('KWD'), 3);
    assert.equal(minorDigits('HUF'), 2, 'ISO 4217, not the display rounding of CLDR');
    assert.equal(minorDigits('IQD'), 3);
  });

  it('converts minor units to numbers and back exactly', () => {
    assert.equal(toMajor(1_234_567, 'GBP'), 12_345.67);
    assert.equal(toMajor(-5, 'GBP'), -0.05);
    assert.equal(toMajor(1500, 'JPY'), 1500);
    assert.equal(fromMajor('12345.67', 'GBP'), 1_234_567);
    assert.equal(fromMajor(0.1, 'GBP'), 10);
    assert.equal(fromMajor('12.345', 'GBP'), null);
    assert.equal(fromMajor(0.1 + 0.2, 'GBP'), null, 'a float sum with binary noise is refused, not rounded');
    assert.equal(fromMajor('1e3', 'GBP'), null);
    assert.equal(fromMajor('12.5', 'JPY'), null);
    fc.assert(fc.property(fc.integer({ min: -1e13, max: 1e13 }), (minor) => fromMajor(toMajor(minor, 'GBP'), 'GBP') === minor));
  });

  it('converts currencies at decimal rates, rounding half away from zero', () => {
    assert.equal(convert(12_000, 'USD', '0.8', 'GBP'), 9_600);
    assert.equal(convert(1, 'USD', '0.5', 'GBP'), 1);
    assert.equal(convert(-1, 'USD', '0.5', 'GBP'), -1);
    assert.equal(convert(10_000, 'JPY', '0.0052', 'GBP'), 5_200);
    assert.equal(convert(100, 'GBP', '190.25', 'JPY'), 190);
  });

  it('formats for people', () => {
    assert.equal(formatMoney(-123_456_789, 'GBP'), '-1,234,567.89 GBP');
    assert.equal(formatMoney(5, 'JPY'), '5 JPY');
  });
});
