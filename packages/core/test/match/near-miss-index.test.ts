import { expect } from 'chai';
import fc from 'fast-check';
import { ChunkSelection } from '../../src/match/chunk-selection.js';
import { createNearMissIndex, type NearMatch } from '../../src/match/near-miss-index.js';
import { PackedStrings } from '../../src/match/packed-strings.js';
import { maxEdits } from '../../src/match/thresholds.js';
import { osaDistance } from './reference.js';

/** Every member within reach, by scanning: the index must find exactly these. */
function scan(members: readonly string[], query: string): NearMatch[] {
  return members
    .map((m, member) => ({
      member,
      distance: osaDistance(query, m),
      limit: maxEdits(Math.min(query.length, m.length)),
    }))
    .filter((x) => x.distance <= x.limit)
    .map(({ member, distance }) => ({ member, distance }))
    .sort((x, y) => x.distance - y.distance || x.member - y.member);
}

// Repetitive strings (few distinct trigrams, many repeated), sentinel-like
// code units, and lengths on both sides of every threshold.
const text = fc.oneof(
  fc.string({ unit: fc.constantFrom('a', 'b', ' '), maxLength: 40 }),
  fc.string({
    unit: fc.constantFrom('x', 'y', '\u0000', '\uFFFF', '\uD800', '\u00E9'),
    maxLength: 20,
  }),
  fc.string({
    unit: fc.constantFrom(...'abcdefghij0123456789'.split('')),
    minLength: 14,
    maxLength: 26,
  }),
);
const near = (members: string[]) =>
  fc.oneof(
    text,
    fc
      .constantFrom(...members)
      .chain((m) =>
        fc
          .tuple(fc.nat({ max: m.length }), fc.nat({ max: 3 }), text)
          .map(([at, cut, insert]) => m.slice(0, at) + insert.slice(0, 2) + m.slice(at + cut)),
      ),
  );

describe('near-miss index', () => {
  for (const oneEdit of [true, false]) {
    it(`finds exactly the members a scan finds, nearest and all (one-edit index ${oneEdit ? 'on' : 'off'})`, () => {
      fc.assert(
        fc.property(
          fc
            .uniqueArray(text, { minLength: 1, maxLength: 30 })
            .chain((members) => fc.tuple(fc.constant(members), near(members))),
          ([members, query]) => {
            const index = createNearMissIndex(PackedStrings.of(members), { oneEdit });
            const expected = scan(members, query);
            expect(index.within(query)).to.deep.equal(expected);
            expect(index.nearest(query)).to.deep.equal(expected[0]);
            // With `enough`, a prefix of the full answer, complete up to its last distance.
            const some = index.within(query, 2);
            expect(some).to.deep.equal(expected.slice(0, some.length));
            if (some.length > 0) {
              const last = some[some.length - 1]!.distance;
              expect(some.length).to.equal(expected.filter((x) => x.distance <= last).length);
            }
          },
        ),
        { numRuns: 3000 },
      );
    });
  }

  it('finds nothing in an empty index', () => {
    const index = createNearMissIndex(PackedStrings.of([]));
    expect([index.within('abc'), index.nearest('abc')]).to.deep.equal([[], undefined]);
  });
});

describe('chunk selection', () => {
  it('chooses at least k + 1 trigrams, none touching, and asks for m - k of them', () => {
    fc.assert(
      fc.property(
        fc.array(fc.nat({ max: 5000 }), { minLength: 3, maxLength: 60 }),
        fc.nat({ max: 3 }),
        (raw, k) => {
          const grams = raw.length;
          const edits = Math.min(k, maxEdits(grams - 2));
          const chunks = new ChunkSelection();
          expect(chunks.choose(Uint32Array.from(raw), grams, edits)).to.be.true;
          const positions = [...chunks.positions.subarray(0, chunks.count)];
          expect(chunks.count).to.be.at.least(edits + 1);
          expect(chunks.bound).to.equal(chunks.count - edits);
          for (let i = 1; i < positions.length; i++)
            expect(positions[i]! - positions[i - 1]!).to.be.at.least(4);
          expect(positions.every((p) => p >= 0 && p < grams)).to.be.true;
        },
      ),
      { numRuns: 2000 },
    );
  });
});
