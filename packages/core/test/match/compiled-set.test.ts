import { expect } from 'chai';
import fc from 'fast-check';
import { compileValueSet } from '../../src/match/compile-value-set.js';
import { leadingMembers } from '../../src/match/compiled-set.js';
import { anyString, variantOf } from './arbitraries.js';
import { realisticIds } from './realistic-ids.js';
import { REFUND_CODES } from './refund-codes.js';

describe('a set larger than the members it keeps as strings (4,096)', () => {
  // Distinct ids in an order that is not code-unit order, with repeats.
  const ids = Array.from({ length: 10_000 }, (_, i) => `id-${(i * 7919) % 10_000}`);
  const set = compileValueSet([...ids, ...ids.slice(0, 100)].map((value) => ({ value })));
  const sorted = [...new Set(ids)].sort();

  it('answers has() exactly, for every member and for strings that are not', () => {
    // Twice over: the recent members kept as strings fill up and start over many times.
    for (let pass = 0; pass < 2; pass++) {
      expect(ids.filter((id) => !set.has(id))).to.deep.equal([]);
      expect(
        ['id-10000', 'ID-1', 'id-1 ', '', '__proto__', 'constructor'].map((v) => set.has(v)),
      ).to.deep.equal([false, false, false, false, false, false]);
    }
  });

  it('lists its members once each, in code-unit order, the same array every time', () => {
    expect(set.size).to.equal(10_000);
    expect(set.members()).to.deep.equal(sorted);
    expect(set.members()).to.equal(set.members());
    expect(Object.isFrozen(set.members())).to.be.true;
  });

  it('gives its first members without listing the others', () => {
    expect(leadingMembers(set, 3)).to.deep.equal(sorted.slice(0, 3));
    const small = compileValueSet(REFUND_CODES);
    expect(leadingMembers(small, 2)).to.deep.equal(small.members().slice(0, 2));
  });
});

describe('a compiled set: recent mismatches', () => {
  const ids = realisticIds(5_000, 11);
  const entries = ids.map((value) => ({ value }));
  const set = compileValueSet(entries);
  // Drawn from a pool larger than the mismatches a set keeps, with repeats,
  // so answers come both from the kept ones and from classifying anew.
  const pool = fc.array(
    fc.oneof(fc.constantFrom(...ids.slice(0, 40)).chain(variantOf), anyString),
    {
      minLength: 100,
      maxLength: 100,
    },
  );

  it('answers a repeated value as it answered it the first time, frozen', () => {
    fc.assert(
      fc.property(pool, fc.array(fc.nat({ max: 99 }), { maxLength: 400 }), (values, picks) => {
        // A set compiled alike, asked each value once: the answers to match.
        const fresh = compileValueSet(entries);
        const expected = new Map(values.map((v) => [v, fresh.classify(v)]));
        for (const i of picks) {
          const answer = set.classify(values[i]!);
          expect(answer).to.deep.equal(expected.get(values[i]!));
          expect(Object.isFrozen(answer)).to.equal(true);
        }
      }),
      { numRuns: 40 },
    );
  });
});
