import { expect } from 'chai';
import { compileValueSet } from '../../src/match/compile-value-set.js';
import { MAX_EDITS } from '../../src/match/thresholds.js';
import type { ValueSet } from '../../src/types.js';
import { realisticIds, seededRandom, typo } from './realistic-ids.js';
import { boundedDistance } from './packed.js';
import { type Reference, reference } from './reference.js';

describe('a 100,000-member catalogue', function () {
  // Compiling and scanning 100,000 members in the reference takes seconds,
  // and over a minute on a machine busy with other work.
  this.timeout(600_000);
  const ids = realisticIds(100_000, 3);
  let set: ValueSet;
  let naive: Reference;
  before(() => {
    const entries = ids.map((value) => ({ value }));
    set = compileValueSet(entries);
    // The reference's distance is the bounded one, itself tested against the full matrix.
    naive = reference(entries, (a, b) => boundedDistance(a, b, MAX_EDITS));
  });

  const random = seededRandom(17);
  const pick = () => ids[Math.floor(random() * ids.length)]!;
  const queries = [
    ...Array.from({ length: 40 }, () => typo(pick(), random)),
    ...Array.from({ length: 30 }, () => typo(typo(pick(), random), random)),
    ...Array.from({ length: 30 }, () => typo(typo(typo(pick(), random), random), random)),
    ...Array.from({ length: 15 }, () => pick().replace(/[0-9]+$/, '')),
    ...Array.from({ length: 15 }, () => pick().replace(/[0-9]+$/, '123456789')),
    ...Array.from({ length: 10 }, () => pick().toLowerCase().replace(/[-_.]/g, ' ')),
    'CMP-Brake-Caliper',
    'CUSTOMER_UNHAPPY',
    '',
  ];

  it('has the members, in code-unit order', () => {
    expect(set.size).to.equal(100_000);
    expect(set.members()).to.deep.equal([...ids].sort());
  });

  it('classifies typos and inventions exactly as a scan of every member does', () => {
    const actual = queries.map((q) => [q, set.classify(q)]);
    const expected = queries.map((q) => [q, set.has(q) ? set.classify(q) : naive.classify(q)]);
    expect(actual).to.deep.equal(expected);
    // The sample really exercises the near-miss index.
    const shapes = new Set(actual.map(([, c]) => (c as { shape: string }).shape));
    expect([...shapes].sort()).to.include.members(['invented', 'near_miss']);
  });

  it('suggests the closest members exactly as a scan of every member does', () => {
    const sample = queries.filter((_, i) => i % 3 === 0);
    expect(sample.map((q) => set.suggest(q, 5))).to.deep.equal(
      sample.map((q) => naive.suggest(q, 5)),
    );
  });
});
