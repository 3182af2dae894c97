import { expect } from 'chai';
import { FakeClock } from '../../helpers/fake-clock.js';
import { REFUND_ARGUMENTS, refundSources } from '../../helpers/fixtures.js';
import { harness } from '../../helpers/telemetry.js';
import type { Harness } from '../../helpers/telemetry.js';
import { countersOf, expectedCounters } from '../refund-scenario.js';
import { freshAgentsCjs } from './load.js';

describe('OpenAI Agents SDK — arguments that are not JSON', function () {
  this.timeout(20_000);

  let h: Harness;
  afterEach(() => h.close());

  it('no finding and no throw: the call proceeds and the SDK answers its own parse error', async () => {
    h = harness({
      valueSets: refundSources(),
      checkedArguments: REFUND_ARGUMENTS,
      mode: 'reject',
      clock: new FakeClock(),
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
        testing.functionCall('refund_order', '{"order_id": "o-1", "reason_code": ', {
          callId: 'c',
        }),
      ],
      [testing.assistantMessage('done')],
    ]);
    const result = await agents.run(new agents.Agent({ name: 'a', model, tools: [refund] }), 'go');
    expect(result.finalOutput).to.equal('done');
    expect(ran).to.equal(false);
    expect(countersOf(await h.collect())).to.deep.equal({
      ...expectedCounters('observe'),
      tool_argument_value_check: [],
      tool_argument_mismatch: [],
    });
  });
});
