import { expect } from 'chai';
import { httpValueSet, type CheckMode } from '@argcheck/core';
import { METRIC_TOOL_ARGUMENT_CHECK_UNAVAILABLE } from '../../src/semconv.js';
import { ManualClock } from '@argcheck/testing/clock';
import { recordFigure } from '@argcheck/testing/figures';
import { pointsOf } from '@argcheck/testing/metrics';
import { HttpOwner } from '@argcheck/testing/owners';
import { reason, REFUND_ARGUMENTS, refundSeries, REFUNDS } from '../helpers/fixtures.js';
import { harness } from '../helpers/telemetry.js';

// An owner that refuses connections from the start (a real closed port on
// loopback): the instrumentation has no set to check against, in any mode.
describe('an owner unreachable from the start', () => {
  it('lets every call through untouched, in every mode, and counts each check unavailable', async () => {
    const gone = await new HttpOwner().start();
    const url = gone.url('/refunds');
    await gone.close();
    const modes: CheckMode[] = ['observe', 'normalise', 'reject'];
    // A case variant and an invented value: what normalise and reject would act on.
    const inputs = Array.from({ length: 1_000 }, (_, i) => ({
      reason_code: i % 2 ? 'late' : 'CUSTOMER_UNHAPPY',
    }));
    let changed = 0;
    let unavailable = 0;
    for (const mode of modes) {
      const h = harness({
        valueSets: { [REFUNDS]: httpValueSet(url) },
        checkedArguments: REFUND_ARGUMENTS,
        mode,
        clock: new ManualClock(),
      });
      try {
        await h.inst.ready();
        for (const args of inputs) {
          const outcome = h.inst.check('refund_order', args);
          if (outcome.action !== 'call' || outcome.args !== args) changed += 1;
        }
        const points = pointsOf(await h.collect(), METRIC_TOOL_ARGUMENT_CHECK_UNAVAILABLE);
        expect(points, mode).to.deep.equal([
          { attributes: refundSeries(reason('fetch_failed')), value: inputs.length },
        ]);
        unavailable += points.reduce((n, p) => n + Number(p.value), 0);
      } finally {
        await h.close();
      }
    }
    expect(changed).to.equal(0);
    const n = (inputs.length * modes.length).toLocaleString('en-US');
    recordFigure(
      'owner-unreachable',
      `${changed} of ${n} calls changed (${modes.join(', ')}; case variants and invented values); ${unavailable.toLocaleString('en-US')} counted \`unavailable\` (\`fetch_failed\`)`,
    );
  });
});
