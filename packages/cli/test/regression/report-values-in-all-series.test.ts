import { expect } from 'chai';
import { createAggregator } from '../../src/report/aggregate.js';
import { recordFigure } from '@argcheck/testing/figures';

describe('regression: argcheck report kept up to 10,000 values in each of 1,000 series', () => {
  it('keeps at most 100,000 distinct values across all series and counts the rest as other', () => {
    // The command line's caps. Under them alone, 1,000 series of 1,000 distinct
    // 256-character values took 481 MB, and the caps allowed ten times as many.
    const aggregator = createAggregator({
      maxDistinctValues: 10_000,
      maxSeries: 1_000,
      maxValueLength: 256,
    });
    for (let v = 0; v < 101; v += 1) {
      for (let s = 0; s < 1_000; s += 1) {
        aggregator.add({
          tool: `tool_${s}`,
          argument: 'reason_code',
          set: 'refunds.reason_codes',
          inSet: false,
          inSetNormalised: false,
          shape: 'invented',
          value: `INVENTED_${s}_${v}`,
        });
      }
    }
    const series = aggregator.summarise(0);
    const total = (field: 'distinctValues' | 'valuesOverCap' | 'records'): number =>
      series.reduce((sum, a) => sum + a[field], 0);
    expect([
      series.length,
      total('records'),
      total('distinctValues'),
      total('valuesOverCap'),
    ]).to.deep.equal([1_000, 101_000, 100_000, 1_000]);
    const n = (field: 'distinctValues' | 'valuesOverCap' | 'records') =>
      total(field).toLocaleString('en-US');
    recordFigure(
      'report-values-cap',
      `${series.length.toLocaleString('en-US')} series × 101 distinct values: ${n('distinctValues')} kept, ${n('valuesOverCap')} counted \`other\`, ${n('records')} records counted`,
    );
  });
});
