/**
 * Attribution through the Claude Agent SDK (the real SDK and binary, a
 * scripted model): the query's model, the provider its binary is configured
 * for, the main-thread agent, the in-process tool's definition; the session
 * id as the conversation on sampled log records.
 */
import { expect } from 'chai';
import { ManualClock } from '@argcheck/testing/clock';
import { pointsOf } from '@argcheck/testing/metrics';
import {
  ATTR_COVERAGE,
  ATTR_GEN_AI_AGENT_NAME,
  ATTR_GEN_AI_CONVERSATION_ID,
  ATTR_GEN_AI_TOOL_CALL_ID,
  ATTR_GEN_AI_PROVIDER_NAME,
  ATTR_GEN_AI_REQUEST_MODEL,
  ATTR_INTEGRATION,
  ATTR_TOOL,
  ATTR_TOOL_DEFINITION,
  ATTR_VALUE,
  ATTR_VALUE_TRUNCATED,
  EVENT_TOOL_ARGUMENT_VALUE_CHECK,
  METRIC_TOOL_ARGUMENT_CALL,
  METRIC_TOOL_ARGUMENT_VALUE_CHECK,
} from '../../src/semconv.js';
import { REFUND_ARGUMENTS, inSet, refundSeries, refundSources } from '../helpers/fixtures.js';
import { harness } from '../helpers/telemetry.js';
import type { Harness } from '../helpers/telemetry.js';
import {
  drain,
  MODEL,
  offline,
  requireSdk,
  skipWithoutSdk,
  unlessSdk,
  zod,
} from '../frameworks/claude-agent/helpers/sdk.js';

describe(`attribution through the Claude Agent SDK (auto-patched)${unlessSdk()}`, function () {
  this.timeout(60_000);
  let h: Harness | undefined;
  before(function () {
    skipWithoutSdk(this);
  });
  afterEach(async () => {
    await h?.close();
    h = undefined;
  });

  it('names the query’s model, the provider and the agent, the tool’s definition, and the session as the conversation', async () => {
    h = harness({
      valueSets: refundSources(),
      checkedArguments: REFUND_ARGUMENTS,
      clock: new ManualClock(),
      logSampleRatio: 1,
      random: () => 0,
      attribution: {},
    });
    await h.inst.ready();
    const sdk = requireSdk();
    const z = zod();
    const shop = sdk.createSdkMcpServer({
      name: 'shop',
      tools: [
        sdk.tool(
          'refund_order',
          'Refund an order',
          { order_id: z.string(), reason_code: z.string() },
          () => Promise.resolve({ content: [{ type: 'text', text: 'refunded' }] }),
        ),
      ],
    });
    const run = await offline([
      {
        toolUses: [
          {
            id: 'call-1',
            name: 'mcp__shop__refund_order',
            input: { order_id: 'o-1', reason_code: 'LATE' },
          },
        ],
      },
      { text: 'done' },
    ]);
    let session: string | undefined;
    try {
      const messages = await drain(
        sdk.query({
          prompt: 'Refund o-1.',
          options: run.options({
            mcpServers: { shop },
            allowedTools: ['mcp__shop__refund_order'],
            agent: 'refunds',
            agents: { refunds: { description: 'Refunds orders', prompt: 'Refund orders.' } },
          }),
        }),
      );
      session = (messages[0] as { session_id?: string }).session_id;
      expect(session).to.be.a('string');
    } finally {
      await run.close();
    }
    const collected = await h.collect();
    const calls = pointsOf(collected, METRIC_TOOL_ARGUMENT_CALL);
    const definition = calls[0]?.attributes[ATTR_TOOL_DEFINITION];
    expect(definition).to.match(/^[0-9a-f]{12}$/);
    const by = {
      [ATTR_GEN_AI_REQUEST_MODEL]: MODEL,
      [ATTR_GEN_AI_PROVIDER_NAME]: 'anthropic',
      [ATTR_GEN_AI_AGENT_NAME]: 'refunds',
      [ATTR_TOOL_DEFINITION]: definition as string,
    };
    expect(calls).to.deep.equal([
      {
        attributes: {
          [ATTR_TOOL]: 'refund_order',
          [ATTR_INTEGRATION]: 'claude_agent',
          [ATTR_COVERAGE]: 'checked',
          ...by,
        },
        value: 1,
      },
    ]);
    expect(pointsOf(collected, METRIC_TOOL_ARGUMENT_VALUE_CHECK)).to.deep.equal([
      { attributes: refundSeries({ ...by, ...inSet(true, true) }), value: 1 },
    ]);
    const checks = h.records().filter((r) => r.eventName === EVENT_TOOL_ARGUMENT_VALUE_CHECK);
    expect(checks.map((r) => r.attributes)).to.deep.equal([
      {
        ...refundSeries({ ...by, ...inSet(true, true) }),
        [ATTR_VALUE]: 'LATE',
        [ATTR_VALUE_TRUNCATED]: 'false',
        [ATTR_GEN_AI_CONVERSATION_ID]: session,
        [ATTR_GEN_AI_TOOL_CALL_ID]: 'call-1',
      },
    ]);
  });
});
