import { expect } from 'chai';
import { ManualClock } from '@argcheck/testing/clock';
import { METRIC_TOOL_ARGUMENT_CHECK_UNAVAILABLE } from '../../../src/semconv.js';
import { reason, REFUND_ARGUMENTS, refundSeries, refundSources } from '../../helpers/fixtures.js';
import { harness } from '../../helpers/telemetry.js';
import { pointsOf } from '@argcheck/testing/metrics';
import type { Harness } from '../../helpers/telemetry.js';
import { countersOf, expectedCounters } from '../refund-scenario.js';
import { freshAgentsCjs } from './load.js';

describe('OpenAI Agents SDK — arguments that are not a JSON object', function () {
  this.timeout(20_000);

  let h: Harness;
  afterEach(() => h.close());

  // Text that is not JSON at all never reaches invokeFunctionTool: the runner answers its parse error first.
  it('a JSON array: counted as unavailable (unreadable), never rejected; the call proceeds and the SDK answers its own parse error', async () => {
    h = harness({
      valueSets: refundSources(),
      checkedArguments: REFUND_ARGUMENTS,
      mode: 'reject',
      clock: new ManualClock(),
    });
    await h.inst.ready();
    const { agents, testing, z } = freshAgentsCjs();
    agents.setTracingDisabled(true);
    let ran = false;
    const refund = agents.tool({
      name: 'refund_order',
      description: 'Refund an order',
      parameters: z.object({ order_id: z.string(), reason_code: z.string() }),
      execute: () => {
        ran = true;
        return Promise.resolve('refunded');
      },
    });
    const model = new testing.ScriptedModel([
      [
        testing.functionCall('refund_order', '["o-1", "DAMAGED"]', {
          callId: 'c',
        }),
      ],
      [testing.assistantMessage('done')],
    ]);
    const result = await agents.run(new agents.Agent({ name: 'a', model, tools: [refund] }), 'go');
    expect(result.finalOutput).to.equal('done');
    expect(ran).to.equal(false);
    const collected = await h.collect();
    expect(countersOf(collected)).to.deep.equal({
      ...expectedCounters('observe'),
      tool_argument_value_check: [],
      tool_argument_mismatch: [],
    });
    expect(pointsOf(collected, METRIC_TOOL_ARGUMENT_CHECK_UNAVAILABLE)).to.deep.equal([
      { attributes: refundSeries(reason('unreadable')), value: 1 },
    ]);
  });
});
