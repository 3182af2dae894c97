import { expect } from 'chai';
import { compileValueSet } from '../../src/match/compile-value-set.js';
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
});
