import { expect } from 'chai';
import { ManualClock } from '@argcheck/testing/clock';
import { pointsOf } from '@argcheck/testing/metrics';
import { METRIC_TOOL_ARGUMENT_VALUE_CHECK } from '../../src/semconv.js';
import { REFUND_ARGUMENTS, inSet, refundSeries, refundSources } from '../helpers/fixtures.js';
import { harness } from '../helpers/telemetry.js';
import type { Harness } from '../helpers/telemetry.js';
import { freshAgentsCjs } from '../frameworks/openai-agents/load.js';

describe('attribution through the OpenAI Agents SDK (CommonJS, auto-patched)', function () {
  this.timeout(20_000);
  let h: Harness;
  afterEach(() => h.close());

  it('names each run’s model (the agent’s, else the runner’s) and the agent', async () => {
    h = harness({
      valueSets: refundSources(),
      checkedArguments: REFUND_ARGUMENTS,
      clock: new ManualClock(),
      logSampleRatio: 0,
      attribution: { toolDefinition: false },
    });
    await h.inst.ready();
    const { agents, testing, z } = freshAgentsCjs();
    agents.setTracingDisabled(true);
    const refund = agents.tool({
      name: 'refund_order',
      description: 'Refund an order',
      parameters: z.object({ order_id: z.string(), reason_code: z.string() }),
      execute: () => Promise.resolve('refunded'),
    });
    const scripted = (code: string) =>
      new testing.ScriptedModel([
        [
          testing.functionCall(
            'refund_order',
            { order_id: 'o-1', reason_code: code },
            { callId: 'c-1' },
          ),
        ],
        [testing.assistantMessage('done')],
      ]);
    const runWith = async (agentModel: string | undefined, runnerModel: string, code: string) => {
      const model = scripted(code);
      const runner = new agents.Runner({
        model: runnerModel,
        modelProvider: { getModel: () => Promise.resolve(model) },
      });
      const agent = new agents.Agent({
        name: 'refunds',
        ...(agentModel === undefined ? {} : { model: agentModel }),
        tools: [refund],
      });
      await runner.run(agent, 'refund');
    };
    await runWith('gpt-agent', 'gpt-runner', 'LATE');
    await runWith(undefined, 'gpt-runner', 'CUSTOMER_UNHAPPY');
    await runWith(undefined, 'gpt-runner', 'DAMAGED');
    const by = (model: string) => ({
      'gen_ai.request.model': model,
      'gen_ai.agent.name': 'refunds',
    });
    const points = pointsOf(await h.collect(), METRIC_TOOL_ARGUMENT_VALUE_CHECK).sort((a, b) =>
      JSON.stringify(a.attributes).localeCompare(JSON.stringify(b.attributes)),
    );
    expect(points).to.deep.equal([
      { attributes: refundSeries({ ...by('gpt-agent'), ...inSet(true, true) }), value: 1 },
      { attributes: refundSeries({ ...by('gpt-runner'), ...inSet(false, false) }), value: 1 },
      { attributes: refundSeries({ ...by('gpt-runner'), ...inSet(true, true) }), value: 1 },
    ]);
  });
});
