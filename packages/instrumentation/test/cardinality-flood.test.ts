import { expect } from 'chai';
import { ATTR_VALUE, INSTRUMENT_ATTRIBUTES } from '../src/semconv.js';
import { ManualClock } from '@argcheck/testing/clock';
import { REFUND_ARGUMENTS, refundSources } from './helpers/fixtures.js';
import { seededRandom } from '@argcheck/testing/random';
import { harness } from './helpers/telemetry.js';
import type { Collected } from '@argcheck/testing/metrics';
import { recordFigure } from '@argcheck/testing/figures';

const seriesCounts = (collected: Collected): Record<string, number> =>
  Object.fromEntries(
    Object.keys(INSTRUMENT_ATTRIBUTES).map((name) => [name, collected.points[name]?.length ?? 0]),
  );

describe('cardinality flood', function () {
  // 100,000 checks through the real checker and SDK: seconds on a slow machine, not milliseconds.
  this.timeout(30_000);

  it('100,000 distinct invented values add no series; values appear only in sampled log records', async () => {
    const h = harness({
      valueSets: refundSources(),
      checkedArguments: REFUND_ARGUMENTS,
      clock: new ManualClock(),
      random: seededRandom(11),
    });
    try {
      await h.inst.ready();
      h.inst.check('refund_order', { reason_code: 'INVENTED_WARMUP' });
      const before = await h.collect();

      const flood = (i: number): string => `INVENTED_${i.toString(36)}_${'x'.repeat(i % 7)}`;
      for (let i = 0; i < 100_000; i++) {
        // Model-written tool and argument names, too: neither may become a series.
        h.inst.check('refund_order', { reason_code: flood(i), [flood(i)]: flood(i) });
        if (i % 1_000 === 0) h.inst.check(flood(i), { reason_code: flood(i) });
      }
      const after = await h.collect();

      expect(seriesCounts(after)).to.deep.equal(seriesCounts(before));
      const metricText = JSON.stringify(after.points);
      expect(metricText).not.to.match(/INVENTED_[0-9a-z]+_/);

      const values = h.records().map((r) => r.attributes[ATTR_VALUE]);
      expect(values.length).to.be.within(2_000 - 5 * 45, 2_000 + 5 * 45);
      expect(values.every((v) => typeof v === 'string' && v.startsWith('INVENTED_'))).to.equal(
        true,
      );
      const added =
        Object.values(seriesCounts(after)).reduce((a, b) => a + b, 0) -
        Object.values(seriesCounts(before)).reduce((a, b) => a + b, 0);
      recordFigure(
        'cardinality-flood',
        `${added} series added by 100,000 distinct invented values, as many model-written argument names and 100 tool names; the values only in ${values.length.toLocaleString('en-US')} sampled log records (1 in 50 is 2,000)`,
      );
    } finally {
      await h.close();
    }
  });
});
