import { expect } from 'chai';
import { createAggregator } from '../../src/report/aggregate.js';
import type { CheckRecord } from '../../src/report/check-record.js';

const base = { tool: 'refund_order', argument: 'reason_code', set: 'refunds.reason_codes' };

function record(
  value: string | undefined,
  inSet: boolean | undefined,
  shape?: string,
): CheckRecord {
  const normalised =
    inSet === undefined ? undefined : inSet || shape === 'case' || shape === 'format';
  return { ...base, value, inSet, inSetNormalised: normalised, shape };
}

describe('createAggregator', () => {
  const options = { maxDistinctValues: 3, maxSeries: 2, maxValueLength: 5 };

  it('computes rates, the formatting tax and a shape partition summing to 1', () => {
    const aggregator = createAggregator(options);
    for (let i = 0; i < 16; i += 1) aggregator.add(record('LATE', true));
    aggregator.add(record('late', false, 'case'));
    aggregator.add(record('DAMAGD', false, 'near_miss'));
    aggregator.add(record('OOPS', false, 'invented'));
    aggregator.add(record('OOPS', false, 'invented'));
    aggregator.add(record('LATE', undefined));
    const [summary] = aggregator.summarise(10);
    expect(summary).to.deep.include({
      records: 20,
      unchecked: 1,
      outOfSet: 4,
      outOfSetNormalised: 3,
      outOfSetRate: 0.2,
      normalisedRate: 0.15,
      formattingTax: 0.05,
    });
    expect(summary?.shapes).to.deep.equal([
      { shape: 'case', count: 1, shareOfMismatches: 0.25, shareOfCalls: 0.05 },
      { shape: 'near_miss', count: 1, shareOfMismatches: 0.25, shareOfCalls: 0.05 },
      { shape: 'invented', count: 2, shareOfMismatches: 0.5, shareOfCalls: 0.1 },
    ]);
    const shares = summary?.shapes.reduce((sum, s) => sum + s.shareOfMismatches, 0);
    expect(shares).to.equal(1);
  });

  it('keeps at most maxDistinctValues values, truncated, and counts the rest as other', () => {
    const aggregator = createAggregator(options);
    for (const value of ['AAAAAAAA', 'AAAAAB', 'B', 'B', 'C', 'D', 'E', 'B']) {
      aggregator.add(record(value, false, 'invented'));
    }
    aggregator.add(record(undefined, true));
    const [summary] = aggregator.summarise(2);
    expect(summary).to.deep.include({
      distinctValues: 3,
      values: [
        { value: 'AAAAA', count: 2, inSetCount: 0, shape: 'invented' },
        { value: 'B', count: 3, inSetCount: 0, shape: 'invented' },
      ].sort((a, b) => b.count - a.count),
      valuesNotShown: 1,
      valuesOverCap: 2,
      valuesNotCaptured: 1,
    });
  });

  it('counts records of series beyond maxSeries without keeping them', () => {
    const aggregator = createAggregator(options);
    for (const tool of ['c', 'a', 'b', 'a']) aggregator.add({ ...record('X', true), tool });
    expect(aggregator.summarise(1).map((s) => [s.tool, s.records])).to.deep.equal([
      ['a', 2],
      ['c', 1],
    ]);
    expect(aggregator.recordsOverSeriesCap).to.equal(1);
  });

  it('keeps 16 shape names per series and counts mismatches of later ones as other', () => {
    const aggregator = createAggregator(options);
    for (let i = 0; i < 20; i += 1) aggregator.add(record('X', false, `shape_${i}`));
    aggregator.add(record('X', false, 'shape_0'));
    const [summary] = aggregator.summarise(1);
    const shapes = summary?.shapes.map((s) => [s.shape, s.count]);
    expect(shapes).to.deep.equal(
      [
        ...Array.from({ length: 16 }, (_, i) => [`shape_${i}`, i === 0 ? 2 : 1]).sort(([a], [b]) =>
          String(a) < String(b) ? -1 : 1,
        ),
        ['other', 4],
      ].sort(([a], [b]) => (String(a) < String(b) ? -1 : 1)),
    );
    expect(summary?.values).to.deep.equal([
      { value: 'X', count: 21, inSetCount: 0, shape: 'shape_0' },
    ]);
  });
});
