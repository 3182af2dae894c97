import { expect } from 'chai';
import { compileValueSet } from '../../src/match/compile-value-set.js';
import type { ValueSetEntry } from '../../src/types.js';

/** Compile `entries`, returning the set and every onCollision call. */
function compile(entries: readonly ValueSetEntry[]) {
  const calls: [readonly string[], string][] = [];
  const set = compileValueSet(entries, {
    onCollision: (members, normalised) => calls.push([members, normalised]),
  });
  return { set, calls };
}

describe('normalisation collisions', () => {
  it('reports members that differ only in case, and matches neither by format', () => {
    const { set, calls } = compile([{ value: 'late' }, { value: 'LATE' }, { value: 'DAMAGED' }]);
    expect(calls).to.deep.equal([[['LATE', 'late'], 'late']]);
    // Neither `case` (two members fold alike) nor `format`: the closest, at
    // distance 0, in member order.
    expect([set.classify('Late'), set.classify(' late '), set.classify('"LATE"')]).to.deep.equal([
      { shape: 'near_miss', canonical: 'LATE' },
      { shape: 'near_miss', canonical: 'LATE' },
      { shape: 'near_miss', canonical: 'LATE' },
    ]);
    expect(set.classify('damaged')).to.deep.equal({ shape: 'case', canonical: 'DAMAGED' });
  });

  it('reports members that differ in separators; a pure case variant still matches by case', () => {
    const { set, calls } = compile([{ value: 'NOT_AS_DESCRIBED' }, { value: 'not-as-described' }]);
    expect(calls).to.deep.equal([[['NOT_AS_DESCRIBED', 'not-as-described'], 'not as described']]);
    expect([
      set.classify('Not As Described'),
      set.classify('not_as_described'),
      set.classify('NOT-AS-DESCRIBED'),
    ]).to.deep.equal([
      { shape: 'near_miss', canonical: 'NOT_AS_DESCRIBED' },
      { shape: 'case', canonical: 'NOT_AS_DESCRIBED' },
      { shape: 'case', canonical: 'not-as-described' },
    ]);
  });

  it('reports a group of three once', () => {
    const { calls } = compile([
      { value: 'a-b' },
      { value: 'A_B' },
      { value: 'a.b' },
      { value: 'c' },
    ]);
    expect(calls).to.deep.equal([[['A_B', 'a-b', 'a.b'], 'a b']]);
  });

  it('reports an alias two members claim, and matches neither by alias', () => {
    const { set, calls } = compile([
      { value: 'LATE', aliases: ['Late delivery'] },
      { value: 'DELAYED', aliases: ['late-delivery'] },
    ]);
    expect(calls).to.deep.equal([[['DELAYED', 'LATE'], 'late delivery']]);
    expect(set.classify('late delivery')).to.deep.equal({ shape: 'invented' });
  });

  it('reports an alias spelled like another member; the member keeps its matches', () => {
    const { set, calls } = compile([
      { value: 'LATE' },
      { value: 'DELAYED', aliases: ['late', 'Running late'] },
    ]);
    expect(calls).to.deep.equal([[['DELAYED', 'LATE'], 'late']]);
    expect([
      set.classify('late'),
      set.classify('Late.'),
      set.classify('running late'),
    ]).to.deep.equal([
      { shape: 'case', canonical: 'LATE' },
      { shape: 'format', canonical: 'LATE' },
      { shape: 'alias', canonical: 'DELAYED' },
    ]);
  });

  it('does not report an alias that merely restates its own member', () => {
    const { set, calls } = compile([{ value: 'DAMAGED', aliases: ['Damaged', 'damaged.'] }]);
    expect(calls).to.deep.equal([]);
    expect(set.classify('damaged')).to.deep.equal({ shape: 'case', canonical: 'DAMAGED' });
  });

  it('compiles even when the listener throws', () => {
    const set = compileValueSet([{ value: 'late' }, { value: 'LATE' }], {
      onCollision: () => {
        throw new Error('listener bug');
      },
    });
    expect(set.members()).to.deep.equal(['LATE', 'late']);
  });
});
