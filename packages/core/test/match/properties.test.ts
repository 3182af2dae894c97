import { expect } from 'chai';
import fc from 'fast-check';
import { compileValueSet } from '../../src/match/compile-value-set.js';
import { caseFold, normalise } from '../../src/match/normalise.js';
import type { ValueSetEntry } from '../../src/types.js';
import { anyString, idLike, variantOf } from './arbitraries.js';
import { reference } from './reference.js';

const SHAPES = ['case', 'format', 'alias', 'near_miss', 'invented'];

// Members short enough to collide and long enough to reach 2 and 3 edits.
const member = fc.oneof(
  idLike,
  fc.string({
    unit: fc.constantFrom('a', 'b', 'c', 'A', '-', '_', '1'),
    minLength: 6,
    maxLength: 22,
  }),
);
const entries: fc.Arbitrary<ValueSetEntry[]> = fc
  .uniqueArray(
    fc.tuple(member, fc.option(fc.array(member, { maxLength: 2 }), { nil: undefined })),
    {
      maxLength: 14,
      selector: ([value]) => value,
    },
  )
  .map((list) => list.map(([value, aliases]) => (aliases ? { value, aliases } : { value })));

/** A set, and a value that is often (but not always) a variant of one of its members. */
const setAndValue = entries.chain((list) =>
  fc.tuple(
    fc.constant(list),
    list.length === 0
      ? anyString
      : fc.oneof(anyString, fc.constantFrom(...list.map((e) => e.value)).chain(variantOf)),
  ),
);

describe('properties of a compiled set', () => {
  it('classifies every non-member exactly as the naive scan of the contract does', () => {
    fc.assert(
      fc.property(setAndValue, ([list, value]) => {
        const set = compileValueSet(list);
        if (set.has(value)) return;
        const shape = set.classify(value);
        expect(shape).to.deep.equal(reference(list).classify(value));
        expect(SHAPES).to.include(shape.shape);
        if (shape.shape === 'invented') expect(shape).to.deep.equal({ shape: 'invented' });
        else expect(set.has(shape.canonical!)).to.be.true;
      }),
      { numRuns: 3000 },
    );
  });

  it('never throws, whatever the string', () => {
    const set = compileValueSet([
      { value: 'NOT_AS_DESCRIBED' },
      { value: 'LATE', aliases: ['Delayed'] },
    ]);
    fc.assert(
      fc.property(anyString, fc.integer({ min: -2, max: 8 }), (value, limit) => {
        expect(SHAPES).to.include(set.classify(value).shape);
        set.suggest(value, limit);
      }),
      { numRuns: 3000 },
    );
  });

  it('classifies a case variant of a member as case, unless another member folds alike', () => {
    // Precisely: for a member m and a non-member v with caseFold(v) = caseFold(m),
    // v is { case, m } when m is the only member with that fold; otherwise v is
    // { format, x } when x is the only member normalising like v, and otherwise
    // the first (code-unit order) of the members normalising like v, at
    // distance 0, as a near miss.
    const flips = fc.array(fc.boolean(), { minLength: 24, maxLength: 24 });
    fc.assert(
      fc.property(entries, fc.nat(), flips, (list, pick, flip) => {
        if (list.length === 0) return;
        const set = compileValueSet(list.map(({ value }) => ({ value })));
        const m = list[pick % list.length]!.value;
        const v = [...m]
          .map((c, i) => (flip[i % flip.length] ? c.toUpperCase() : c.toLowerCase()))
          .join('');
        if (set.has(v) || caseFold(v) !== caseFold(m)) return;
        const members = set.members();
        const sameFold = members.filter((x) => caseFold(x) === caseFold(v));
        const sameForm = members.filter((x) => normalise(x) === normalise(v));
        const expected =
          sameFold.length === 1
            ? { shape: 'case', canonical: m }
            : sameForm.length === 1
              ? { shape: 'format', canonical: sameForm[0] }
              : { shape: 'near_miss', canonical: sameForm[0] };
        expect(set.classify(v)).to.deep.equal(expected);
      }),
      { numRuns: 3000 },
    );
  });

  it('suggests members only, at most `limit`, closest first, led by the implied member', () => {
    fc.assert(
      fc.property(setAndValue, fc.integer({ min: -1, max: 6 }), ([list, value], limit) => {
        const set = compileValueSet(list);
        const suggestions = set.suggest(value, limit);
        expect(suggestions).to.deep.equal(reference(list).suggest(value, limit));
        expect(suggestions.length).to.be.at.most(Math.max(0, limit));
        expect(new Set(suggestions).size).to.equal(suggestions.length);
        for (const s of suggestions) expect(set.has(s)).to.be.true;
        const { canonical } = set.classify(value);
        if (canonical !== undefined && limit >= 1) expect(suggestions[0]).to.equal(canonical);
      }),
      { numRuns: 2000 },
    );
  });
});
