import { expect } from 'chai';
import fc from 'fast-check';
import { signatureDistance } from '../../src/match/char-signature.js';
import { boundedDistance, signatureOf } from './packed.js';
import { osaDistance } from './reference.js';

const small = fc.string({ unit: fc.constantFrom('a', 'b', 'c', 'd'), maxLength: 10 });
const pairs = fc.oneof(
  fc.tuple(small, small),
  // A string and an edited copy: the interesting, near cases.
  fc
    .tuple(small, fc.nat(), fc.nat({ max: 3 }), small)
    .map(([s, at, cut, insert]): [string, string] => {
      const i = s.length === 0 ? 0 : at % s.length;
      return [s, s.slice(0, i) + insert.slice(0, 2) + s.slice(i + cut)];
    }),
);

describe('boundedOsaDistance', () => {
  it('counts a swap of neighbours as one edit, not inside the swapped pair', () => {
    expect(
      [
        ['DAMAGED', 'DAMAGD'],
        ['WRONG_ITEM', 'WRONG_ITME'],
        ['ab', 'ba'],
        ['ca', 'abc'], // 3 under OSA (2 under unrestricted Damerau)
        ['', 'abc'],
        ['same', 'same'],
      ].map(([a, b]) => boundedDistance(a!, b!, 5)),
    ).to.deep.equal([1, 1, 1, 3, 3, 0]);
  });

  it('answers bound + 1 for anything farther than the bound', () => {
    expect([
      boundedDistance('kitten', 'sitting', 2),
      boundedDistance('abcdef', 'ab', 3),
    ]).to.deep.equal([3, 4]);
  });

  it('agrees with the full matrix within the bound', () => {
    fc.assert(
      fc.property(pairs, fc.nat({ max: 5 }), ([a, b], bound) => {
        const exact = osaDistance(a, b);
        expect(boundedDistance(a, b, bound)).to.equal(exact <= bound ? exact : bound + 1);
      }),
      { numRuns: 20000 },
    );
  });
});

describe('character signatures', () => {
  it('are never more than two per edit apart', () => {
    const text = fc.string({
      unit: fc.constantFrom(...'ab09 z\u00E9\uD800'.split('')),
      maxLength: 12,
    });
    fc.assert(
      fc.property(text, text, (a, b) => {
        const sigs = new Int32Array(4);
        signatureOf(a, sigs, 0);
        signatureOf(b, sigs, 2);
        expect(signatureDistance(sigs, 0, sigs, 2)).to.be.at.most(2 * osaDistance(a, b));
      }),
      { numRuns: 20000 },
    );
  });
});
