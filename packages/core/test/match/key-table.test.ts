import { expect } from 'chai';
import fc from 'fast-check';
import { KeyTable } from '../../src/match/key-table.js';
import { AMBIGUOUS } from '../../src/match/match-tables.js';
import { PackedStrings } from '../../src/match/packed-strings.js';
import { anyString } from './arbitraries.js';

/** A table over `keys` with every member claimed in order, the way compiling does it. */
function tableOver(keys: readonly string[], tagged?: boolean): KeyTable {
  const table = new KeyTable(PackedStrings.of(keys), tagged);
  table.zero(0, table.size);
  for (let member = 0; member < keys.length; member++) table.claim(member);
  return table;
}

describe('KeyTable', () => {
  it('finds the one member of a key, and nothing for a key no member has', () => {
    const table = tableOver(['late', 'damaged', 'other']);
    expect(['late', 'damaged', 'other'].map((k) => table.get(k))).to.deep.equal([0, 1, 2]);
    expect(table.get('missing')).to.equal(undefined);
    expect(table.get('')).to.equal(undefined);
    expect(table.claimants('late')).to.equal(undefined);
    expect([0, 1, 2].map((m) => table.isShared(m))).to.deep.equal([false, false, false]);
  });

  it('answers AMBIGUOUS for a key two or more members claim, and lists them in order', () => {
    const table = tableOver(['late', 'x', 'late', 'y', 'late']);
    expect(table.get('late')).to.equal(AMBIGUOUS);
    expect([0, 1, 2, 3, 4].map((m) => table.isShared(m))).to.deep.equal([
      true,
      false,
      true,
      false,
      true,
    ]);
    expect(table.claimants('late')).to.deep.equal([0, 2, 4]);
    expect([table.get('x'), table.get('y')]).to.deep.equal([1, 3]);
  });

  it('is sized at least twice the members, in powers of two', () => {
    expect(new KeyTable(PackedStrings.of([])).size).to.equal(16);
    expect(new KeyTable(PackedStrings.of(Array.from({ length: 8 }, String))).size).to.equal(16);
    expect(new KeyTable(PackedStrings.of(Array.from({ length: 9 }, String))).size).to.equal(32);
    expect(new KeyTable(PackedStrings.of(Array.from({ length: 100_000 }, String))).size).to.equal(
      262_144,
    );
  });

  for (const tagged of [true, false]) {
    it(`agrees with a Map on any keys, duplicates and prototype names included (${tagged ? 'hash bits in slots' : 'member numbers only'})`, () => {
      const keys = fc.array(fc.oneof(anyString, fc.constantFrom('__proto__', 'constructor', '')), {
        maxLength: 200,
      });
      fc.assert(
        fc.property(keys, anyString, (list, probe) => {
          const table = tableOver(list, tagged);
          const claims = new Map<string, number[]>();
          list.forEach((key, member) => claims.set(key, [...(claims.get(key) ?? []), member]));
          for (const key of [...list, probe]) {
            const members = claims.get(key);
            const expected =
              members === undefined ? undefined : members.length > 1 ? AMBIGUOUS : members[0];
            expect(table.get(key)).to.equal(expected);
            expect(table.claimants(key)).to.deep.equal(
              members !== undefined && members.length > 1 ? members : undefined,
            );
            for (const member of members ?? []) {
              expect(table.isShared(member)).to.equal(members!.length > 1);
            }
          }
        }),
        { numRuns: 500 },
      );
    });
  }
});
