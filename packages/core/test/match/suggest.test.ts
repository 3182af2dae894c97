import { expect } from 'chai';
import { compileValueSet } from '../../src/match/compile-value-set.js';
import { REFUND_CODES } from './refund-codes.js';

describe('suggest', () => {
  const refunds = compileValueSet(REFUND_CODES);

  it('puts the member a value stands for first', () => {
    expect(
      ['damaged', 'Not-As-Described', 'charged twice', 'DAMAGD', 'CUSTOMER_UNHAPPY'].map((v) =>
        refunds.suggest(v, 3),
      ),
    ).to.deep.equal([['DAMAGED'], ['NOT_AS_DESCRIBED'], ['DUPLICATE_CHARGE'], ['DAMAGED'], []]);
  });

  it('orders by distance, then member order, and stops at the limit', () => {
    const set = compileValueSet(
      ['code-12', 'code-10', 'code-11', 'code-1x1', 'CODE-2'].map((value) => ({ value })),
    );
    // 'code 1' is one edit from code-10, code-11, code-12 and CODE-2; code-1x1,
    // two edits away, is out of reach for a 6-character value.
    expect([set.suggest('code-1', 10), set.suggest('code-1', 2)]).to.deep.equal([
      ['CODE-2', 'code-10', 'code-11', 'code-12'],
      ['CODE-2', 'code-10'],
    ]);
  });

  it('returns nothing for a limit below one or not a number, and floors fractions', () => {
    expect(
      [0, -1, NaN, 1.9, Infinity].map((limit) => refunds.suggest('DAMAGD', limit)),
    ).to.deep.equal([[], [], [], ['DAMAGED'], ['DAMAGED']]);
  });
});
