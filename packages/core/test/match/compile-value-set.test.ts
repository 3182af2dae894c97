import { expect } from 'chai';
import { compileValueSet, leadingMembers } from '../../src/match/compile-value-set.js';
import { REFUND_CODES } from './refund-codes.js';

describe('compileValueSet', () => {
  it('lists distinct members in code-unit order', () => {
    const set = compileValueSet([
      { value: 'b' },
      { value: 'B' },
      { value: 'a' },
      { value: 'b' },
      { value: '\u00E9' },
      { value: '\uD83D\uDE00' },
      { value: '\uFF41' },
    ]);
    expect({ size: set.size, members: set.members() }).to.deep.equal({
      size: 6,
      members: ['B', 'a', 'b', '\u00E9', '\uD83D\uDE00', '\uFF41'],
    });
  });

  it('tests membership by exact string equality', () => {
    const set = compileValueSet(REFUND_CODES);
    expect(
      ['LATE', 'late', ' LATE', 'Charged twice', 'DAMAGED'].map((v) => set.has(v)),
    ).to.deep.equal([true, false, false, false, true]);
  });

  it('merges the aliases of a repeated value', () => {
    const set = compileValueSet([
      { value: 'DUPLICATE_CHARGE', aliases: ['Charged twice'] },
      { value: 'DUPLICATE_CHARGE', aliases: ['Double charge'] },
    ]);
    expect([set.classify('charged twice'), set.classify('double-charge')]).to.deep.equal([
      { shape: 'alias', canonical: 'DUPLICATE_CHARGE' },
      { shape: 'alias', canonical: 'DUPLICATE_CHARGE' },
    ]);
  });

  it('is immutable', () => {
    const set = compileValueSet(REFUND_CODES);
    expect(Object.isFrozen(set)).to.be.true;
    expect(Object.isFrozen(set.members())).to.be.true;
  });

  it('compiles an empty set that matches nothing', () => {
    const set = compileValueSet([]);
    expect({
      size: set.size,
      members: set.members(),
      has: set.has(''),
      classify: set.classify('LATE'),
      suggest: set.suggest('LATE', 5),
    }).to.deep.equal({
      size: 0,
      members: [],
      has: false,
      classify: { shape: 'invented' },
      suggest: [],
    });
  });

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
});
