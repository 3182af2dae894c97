import { expect } from 'chai';
import fc from 'fast-check';
import { createNearMissIndex } from '../../src/match/near-miss-index.js';
import {
  MAX_FILED_LENGTH,
  neighbourhood,
  oneEditIndexInSlices,
  type OneEditIndex,
} from '../../src/match/one-edit-index.js';
import { PackedStrings } from '../../src/match/packed-strings.js';
import { Budget, runWhole } from '../../src/match/slices.js';
import { osaDistance } from './reference.js';

/** The one-edit index of `members` (member numbers as given), filed shortest first. */
function indexOf(members: readonly string[], entryBudget?: number): OneEditIndex {
  const packed = PackedStrings.of(members);
  const memberOf = Uint32Array.from(
    members.map((_, i) => i).sort((a, b) => members[a]!.length - members[b]!.length || a - b),
  );
  const lengths = Uint32Array.from(memberOf, (m) => members[m]!.length);
  return runWhole(
    oneEditIndexInSlices(packed, memberOf, lengths, new Budget(Infinity), entryBudget),
  );
}

/** The members `index` offers for `query`, ascending, or undefined when it declines. */
function candidatesOf(
  index: OneEditIndex,
  members: readonly string[],
  query: string,
): number[] | undefined {
  const out = new Uint32Array(members.length);
  const seen = new Uint8Array(members.length);
  // Code units, not code points: the index works on UTF-16.
  const units = new Uint16Array(query.length);
  for (let i = 0; i < query.length; i++) units[i] = query.charCodeAt(i);
  const count = index.candidates(units, query.length, out, seen);
  expect(
    [...seen].every((x) => x === 0),
    'seen left all zero',
  ).to.be.true;
  if (count < 0) return undefined;
  const offered = [...out.subarray(0, count)];
  expect(new Set(offered).size, 'each member once').to.equal(count);
  return offered.sort((a, b) => a - b);
}

/** Members within one edit of `query`, by scanning. */
function withinOne(members: readonly string[], query: string): number[] {
  return members.flatMap((m, i) => (osaDistance(query, m) <= 1 ? [i] : []));
}

// Few letters, so runs, swaps and shared neighbourhoods are common; and
// code units that are not letters at all.
const text = fc.oneof(
  fc.string({ unit: fc.constantFrom('a', 'b', 'c'), maxLength: 12 }),
  fc.string({ unit: fc.constantFrom('x', '\u0000', '\uFFFF', '\uD800', '\u00E9'), maxLength: 8 }),
  fc.string({ unit: fc.constantFrom(...'ab01 '.split('')), minLength: 10, maxLength: 70 }),
);
/** One random edit of `m`: substitute, insert, delete, or swap neighbours. */
const oneEdit = (m: string) =>
  fc
    .tuple(fc.nat({ max: m.length }), fc.constantFrom('a', 'b', 'z'), fc.nat({ max: 3 }))
    .map(([at, c, kind]) => {
      if (kind === 0) return m.slice(0, at) + c + m.slice(at + 1);
      if (kind === 1) return m.slice(0, at) + c + m.slice(at);
      if (kind === 2) return m.slice(0, at) + m.slice(at + 1);
      return at + 1 < m.length ? m.slice(0, at) + m[at + 1]! + m[at]! + m.slice(at + 2) : m;
    });
const setAndQuery = fc
  .uniqueArray(text, { minLength: 1, maxLength: 25 })
  .chain((members) =>
    fc.tuple(fc.constant(members), fc.oneof(text, fc.constantFrom(...members).chain(oneEdit))),
  );

describe('one-edit index', () => {
  it('offers every member within one edit of a query it answers', () => {
    fc.assert(
      fc.property(setAndQuery, ([members, query]) => {
        const index = indexOf(members);
        if (query.length > index.reach) return;
        const offered = candidatesOf(index, members, query);
        expect(offered).to.not.equal(undefined);
        expect(offered).to.include.members(withinOne(members, query));
      }),
      { numRuns: 3000 },
    );
  });

  it('hashes each deletion as the hash of the string it leaves, runs once', () => {
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom('a', 'b', '\uD800'), maxLength: 20 }), (s) => {
        const hashOf = (t: string): number => {
          const keys = new Int32Array(t.length + 2);
          neighbourhood(
            Uint16Array.from(t, (c) => c.charCodeAt(0)),
            0,
            t.length,
            keys,
            new Int32Array(t.length + 2),
          );
          return keys[0]!;
        };
        const keys = new Int32Array(s.length + 2);
        const count = neighbourhood(
          Uint16Array.from(s, (c) => c.charCodeAt(0)),
          0,
          s.length,
          keys,
          new Int32Array(s.length + 2),
        );
        const deletions = new Set<string>();
        for (let i = 0; i < s.length; i++) deletions.add(s.slice(0, i) + s.slice(i + 1));
        expect(count).to.equal(1 + deletions.size);
        expect(new Set([...keys.subarray(0, count)])).to.deep.equal(
          new Set([hashOf(s), ...[...deletions].map(hashOf)]),
        );
      }),
    );
  });

  it('files whole lengths within its entry budget and answers only below them', () => {
    // Lengths 3, 4, 5: 4 + 5 + 6 entries with no runs.
    const members = ['abc', 'abd', 'abcd', 'abce', 'abcde'];
    expect(indexOf(members, 8).reach).to.equal(2); // lengths 3 only (8 entries)
    expect(indexOf(members, 17).reach).to.equal(2); // length 4 would need 18
    expect(indexOf(members, 18).reach).to.equal(3);
    expect(indexOf(members, 7).reach).to.equal(-1); // not even length 3
    expect(indexOf(members).reach).to.equal(MAX_FILED_LENGTH + 1); // all of them
    // Below its reach, the partial index is still complete.
    const partial = indexOf(members, 18);
    expect(candidatesOf(partial, members, 'abc')).to.include.members([0, 1, 2, 3]);
  });

  it('leaves members longer than its longest filed length to the trigram search', () => {
    const long = 'a'.repeat(MAX_FILED_LENGTH + 1);
    expect(indexOf(['abc', long]).reach).to.equal(2);
    // Within one edit of a 65-character query, through the trigram lists.
    const index = createNearMissIndex(PackedStrings.of(['abc', long]));
    expect(index.nearest(`${'a'.repeat(MAX_FILED_LENGTH)}b`)).to.deep.equal({
      member: 1,
      distance: 1,
    });
  });

  it('declines a query whose lookup would scan an overfull bucket, and the search still answers', () => {
    // 600 members that all leave `qq` with their first character deleted.
    const members = Array.from({ length: 600 }, (_, i) => `${String.fromCharCode(0x4e00 + i)}qq`);
    const index = indexOf(members);
    expect(candidatesOf(index, members, 'zqq')).to.equal(undefined);
    const near = createNearMissIndex(PackedStrings.of(members));
    expect(near.nearest('zqq')).to.deep.equal({ member: 0, distance: 1 });
    expect(near.within('zqq')).to.have.length(600);
  });
});
