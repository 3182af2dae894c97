import { createRequire } from 'node:module';
import { expect } from 'chai';
import { isWrapped } from '@opentelemetry/instrumentation';
import type * as AiModule from 'ai';
import type * as ZodModule from 'zod';
import { METRIC_TOOL_ARGUMENT_VALUE_CHECK } from '../../../src/semconv.js';
import { ManualClock } from '@argcheck/testing/clock';
import { inSet, REFUND_ARGUMENTS, refundSeries, refundSources } from '../../helpers/fixtures.js';
import { harness } from '../../helpers/telemetry.js';
import { pointsOf } from '@argcheck/testing/metrics';
import type { Harness } from '../../helpers/telemetry.js';
import { NODE_22_REASON, skipBelowNode22 } from '../helpers/node-version.js';
import { refundModel, toolResultSeen } from '../helpers/refund-model.js';

const require = createRequire(import.meta.url);

describe(`AI SDK — required from CommonJS (${NODE_22_REASON})`, function () {
  let h: Harness;
  before(function () {
    skipBelowNode22(this, 'ai');
  });
  afterEach(() => h?.close());

  it('the require hook hands back a patched copy of the namespace, whose exports cannot be redefined', async () => {
    h = harness({
      valueSets: refundSources(),
      checkedArguments: REFUND_ARGUMENTS,
      clock: new ManualClock(),
      logSampleRatio: 0,
      mode: 'reject',
    });
    await h.inst.ready();
    const ai = require('ai') as typeof AiModule;
    const { z } = require('zod') as typeof ZodModule;
    expect(isWrapped(ai.generateText)).to.equal(true);
    expect(Object.prototype.toString.call(ai)).to.equal('[object Module]');
    const received: unknown[] = [];
    const tools = {
      refund_order: ai.tool({
        inputSchema: z.object({ order_id: z.string(), reason_code: z.string() }),
        execute: (input: unknown) => {
          received.push(input);
          return Promise.resolve('refunded');
        },
      }),
    };
    const { model, prompts } = await refundModel('CUSTOMER_UNHAPPY');
    await (ai.generateText as (options: object) => Promise<unknown>)({
      model,
      tools,
      stopWhen: ai.isStepCount(2),
      prompt: 'refund',
    });
    expect(received).to.deep.equal([]);
    expect((toolResultSeen(prompts) as { value: string }).value).to.include('must be one of');
    expect(pointsOf(await h.collect(), METRIC_TOOL_ARGUMENT_VALUE_CHECK)).to.deep.equal([
      { attributes: refundSeries(inSet(false, false)), value: 1 },
    ]);
  });
});
