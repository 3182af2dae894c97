import { expect } from 'chai';
import type * as AiModule from 'ai';
import type * as ZodModule from 'zod';
import { ManualClock } from '@argcheck/testing/clock';
import { REFUND_ARGUMENTS, REFUNDS, refundSources } from '../../helpers/fixtures.js';
import { spans } from '../../helpers/spans.js';
import type { Spans } from '../../helpers/spans.js';
import { harness } from '../../helpers/telemetry.js';
import type { Harness } from '../../helpers/telemetry.js';
import { NODE_22_REASON, skipBelowNode22 } from '../helpers/node-version.js';
import { refundModel } from '../helpers/refund-model.js';

/**
 * A stand-in for a GenAI telemetry integration (`@ai-sdk/otel` is not a
 * dependency here): through the SDK's own `telemetry.integrations` hook it
 * runs each tool in an `execute_tool <tool>` span of the real SDK tracer.
 */
function executeToolSpans(s: Spans) {
  return {
    executeTool({ toolCall, execute }: { toolCall: { toolName: string }; execute: () => unknown }) {
      return s.tracer.startActiveSpan(`execute_tool ${toolCall.toolName}`, async (span) => {
        try {
          return await execute();
        } finally {
          span.end();
        }
      });
    },
  };
}

describe(`AI SDK — spanOutcome on the execute_tool span (${NODE_22_REASON})`, function () {
  let ai: typeof AiModule;
  let z: typeof ZodModule.z;
  let h: Harness;
  let s: Spans;

  before(async function () {
    skipBelowNode22(this, 'ai');
    ai = await import('ai');
    ({ z } = await import('zod'));
  });
  afterEach(async () => {
    await h?.close();
    await s?.close();
  });

  it('the outcome lands on the tool’s own span, checked before it started; no span of argcheck’s', async () => {
    s = await spans();
    h = harness({
      valueSets: refundSources(),
      checkedArguments: REFUND_ARGUMENTS,
      clock: new ManualClock(),
      mode: 'reject',
      spanOutcome: true,
    });
    await h.inst.ready();
    const tools = h.inst.wrapAiSdkTools({
      refund_order: ai.tool({
        inputSchema: z.object({ order_id: z.string(), reason_code: z.string() }),
        execute: () => Promise.resolve('refunded'),
      }),
    });
    const generateText = ai.generateText as (options: object) => Promise<unknown>;
    for (const code of ['damaged', 'CUSTOMER_UNHAPPY']) {
      const { model } = await refundModel(code);
      await generateText({
        model,
        tools,
        stopWhen: ai.isStepCount(2),
        prompt: 'refund',
        telemetry: { isEnabled: true, integrations: [executeToolSpans(s)] },
      });
    }
    const event = (extra: Record<string, string>) => ({
      name: 'tool_argument_value_check',
      attributes: { tool: 'refund_order', argument: 'reason_code', set: REFUNDS, ...extra },
    });
    expect(s.finished()).to.deep.equal([
      {
        name: 'execute_tool refund_order',
        attributes: {},
        events: [event({ in_set: 'false', in_set_normalised: 'true', shape: 'case' })],
      },
      {
        name: 'execute_tool refund_order',
        attributes: { 'error.type': 'tool_argument_rejected' },
        events: [event({ in_set: 'false', in_set_normalised: 'false', shape: 'invented' })],
      },
    ]);
  });
});
