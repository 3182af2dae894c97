// Defect: the sets derived from a framework tool's schema followed
// `mcp.deriveValueSets`, not `frameworks.deriveValueSets`: turning derivation
// off for MCP catalogs turned it off for every framework tool too.
import { expect } from 'chai';
import { METRIC_TOOL_ARGUMENT_VALUE_CHECK } from '../../src/semconv.js';
import { ManualClock } from '@argcheck/testing/clock';
import { inSet, series } from '../helpers/fixtures.js';
import { harness } from '../helpers/telemetry.js';
import { pointsOf } from '@argcheck/testing/metrics';
import type { Harness } from '../helpers/telemetry.js';
import { freshLangChainCjs } from '../frameworks/langchain/load.js';

describe('regression: framework-derived sets follow frameworks.deriveValueSets, not mcp.deriveValueSets', function () {
  this.timeout(20_000);

  let h: Harness;
  afterEach(() => h.close());

  async function callWithEnumSchema(config: { mcp?: object; frameworks?: object }) {
    h = harness({ clock: new ManualClock(), ...config });
    const m = freshLangChainCjs();
    const refund = m.tools.tool(() => Promise.resolve('refunded'), {
      name: 'refund_order',
      description: 'Refund an order',
      schema: m.z.object({ reason_code: m.z.enum(['DAMAGED', 'LATE']) }),
    });
    await refund.invoke({ reason_code: 'DAMAGED' });
    return pointsOf(await h.collect(), METRIC_TOOL_ARGUMENT_VALUE_CHECK);
  }

  it('mcp.deriveValueSets: false leaves framework tools checked against their enums', async () => {
    expect(
      await callWithEnumSchema({ mcp: { enabled: false, deriveValueSets: false } }),
    ).to.deep.equal([
      {
        attributes: series(
          'refund_order',
          'reason_code',
          'langchain:refund_order.reason_code',
          inSet(true, true),
        ),
        value: 1,
      },
    ]);
  });

  it('frameworks.deriveValueSets: false turns them off', async () => {
    expect(await callWithEnumSchema({ frameworks: { deriveValueSets: false } })).to.deep.equal([]);
  });
});
