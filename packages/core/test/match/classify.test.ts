import { expect } from 'chai';
import { compileValueSet } from '../../src/match/compile-value-set.js';
import { REFUND_CODES } from './refund-codes.js';

describe('classify: mismatch shapes on refund reason codes', () => {
  const set = compileValueSet(REFUND_CODES);
  const cases: [string, object][] = [
    ['damaged', { shape: 'case', canonical: 'DAMAGED' }],
    ['Not_As_Described', { shape: 'case', canonical: 'NOT_AS_DESCRIBED' }],
    ['Not-As-Described', { shape: 'format', canonical: 'NOT_AS_DESCRIBED' }],
    ['not as described', { shape: 'format', canonical: 'NOT_AS_DESCRIBED' }],
    ['NOT.AS.DESCRIBED', { shape: 'format', canonical: 'NOT_AS_DESCRIBED' }],
    [' LATE ', { shape: 'format', canonical: 'LATE' }],
    ['"LATE"', { shape: 'format', canonical: 'LATE' }],
    ["'late'", { shape: 'format', canonical: 'LATE' }],
    ['\u201CLate.\u201D', { shape: 'format', canonical: 'LATE' }],
    ['`wrong item`', { shape: 'format', canonical: 'WRONG_ITEM' }],
    ['\uFF2C\uFF21\uFF34\uFF25', { shape: 'format', canonical: 'LATE' }], // full-width LATE
    ['charged twice', { shape: 'alias', canonical: 'DUPLICATE_CHARGE' }],
    ['Charged twice', { shape: 'alias', canonical: 'DUPLICATE_CHARGE' }],
    ['CHARGED-TWICE', { shape: 'alias', canonical: 'DUPLICATE_CHARGE' }],
    ['DAMAGD', { shape: 'near_miss', canonical: 'DAMAGED' }],
    ['NOT_AS_DESCRIBD', { shape: 'near_miss', canonical: 'NOT_AS_DESCRIBED' }],
    ['WRONG_ITME', { shape: 'near_miss', canonical: 'WRONG_ITEM' }],
    ['duplicate charges', { shape: 'near_miss', canonical: 'DUPLICATE_CHARGE' }],
    ['OTHR', { shape: 'near_miss', canonical: 'OTHER' }],
    ['LAT', { shape: 'near_miss', canonical: 'LATE' }],
    ['CUSTOMER_UNHAPPY', { shape: 'invented' }],
    ['REFUND', { shape: 'invented' }],
    ['LA', { shape: 'invented' }], // two characters must match exactly
    ['', { shape: 'invented' }],
  ];
  for (const [value, expected] of cases) {
    it(`${JSON.stringify(value)} → ${JSON.stringify(expected)}`, () => {
      expect(set.classify(value)).to.deep.equal(expected);
    });
  }

  it('answers a member with itself rather than a neighbour', () => {
    expect(set.classify('LATE')).to.deep.equal({ shape: 'case', canonical: 'LATE' });
  });

  it('treats a value just past the length bound as invented, unexamined', () => {
    // Longest member or alias: NOT_AS_DESCRIBED, 16 characters → bound 4 × 16 + 64 = 128.
    expect(set.classify(' '.repeat(124) + 'LATE')).to.deep.equal({
      shape: 'format',
      canonical: 'LATE',
    });
    expect(set.classify(' '.repeat(125) + 'LATE')).to.deep.equal({ shape: 'invented' });
  });
});
