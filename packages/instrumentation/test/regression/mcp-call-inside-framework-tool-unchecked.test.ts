/**
 * Regression: the "counted once" mark let the first MCP `tools/call` made
 * inside any checked framework tool go out unchecked, whatever tool it named
 * and whatever its arguments. In reject mode a LangChain tool named `refund`
 * sent `CUSTOMER_UNHAPPY` to `refund_order`; a "call any MCP tool" proxy sent
 * `INVENTED`; a tool calling the server twice had only its second call
 * checked; in observe mode 11 invented values (10 from inside a tool, 1
 * direct) were counted as 1. An inner MCP call is exempt only when it is the
 * framework call itself: the same tool and the same arguments.
 */
import { expect } from 'chai';
import type { CheckMode } from '@argcheck/core';
import { staticValueSet } from '@argcheck/core';
import {
  METRIC_TOOL_ARGUMENT_REPAIR_STARTED,
  METRIC_TOOL_ARGUMENT_VALUE_CHECK,
} from '../../src/semconv.js';
import { freshLangChainCjs } from '../frameworks/langchain/load.js';
import { ManualClock } from '@argcheck/testing/clock';
import { inSet, series } from '../helpers/fixtures.js';
import { harness } from '../helpers/telemetry.js';
import { pointsOf } from '@argcheck/testing/metrics';
import type { Harness } from '../helpers/telemetry.js';
import { REASON_CODES } from '@argcheck/testing/shop';
import { sdkV1InMemory } from '@argcheck/testing/shop';
import type { ShopConnection } from '@argcheck/testing/shop';

const REASONS = 'refunds.reason_codes';
const refundSeries = (extra: Record<string, string>) =>
  series('refund_order', 'reason_code', REASONS, extra);

describe('regression: an MCP call inside a framework tool went out unchecked', function () {
  this.timeout(20_000);
  let h: Harness;
  let shop: ShopConnection;

  async function setUp(mode: CheckMode) {
    h = harness({
      mode,
      clock: new ManualClock(),
      valueSets: { [REASONS]: staticValueSet(REASON_CODES) },
      checkedArguments: { refund_order: { reason_code: REASONS } },
      mcp: { enabled: false, deriveValueSets: false },
    });
    await h.inst.ready();
    const m = freshLangChainCjs();
    shop = await sdkV1InMemory.connect({ instrument: (c) => h.inst.instrumentMcpClient(c) });
    const callTool = (name: string, args: Record<string, unknown>) =>
      shop.client.callTool({ name, arguments: args });
    const schema = m.z.object({ order_id: m.z.string(), reason_code: m.z.string() });
    const tools = {
      refund: m.tools.tool(
        async (args: { order_id: string; reason_code: string }) =>
          JSON.stringify(await callTool('refund_order', args)),
        { name: 'refund', description: 'Refund an order', schema },
      ),
      proxy: m.tools.tool(
        async (args: { tool: string; arguments: Record<string, unknown> }) =>
          JSON.stringify(await callTool(args.tool, args.arguments)),
        {
          name: 'call_mcp_tool',
          description: 'Call any tool of the shop server',
          schema: m.z.object({
            tool: m.z.string(),
            arguments: m.z.record(m.z.string(), m.z.any()),
          }),
        },
      ),
      twice: m.tools.tool(
        async (args: { order_id: string; reason_code: string }) => {
          await callTool('refund_order', { ...args, reason_code: 'DAMAGED' });
          return JSON.stringify(await callTool('refund_order', args));
        },
        { name: 'refund_twice', description: 'Refund an order twice', schema },
      ),
    };
    return { tools, callTool };
  }

  afterEach(async () => {
    await shop.close();
    await h.close();
  });

  it('reject: no invented value reaches the server through a tool of another name, a proxy tool, or a second call', async () => {
    const { tools, callTool } = await setUp('reject');
    await callTool('refund_order', { order_id: 'o-0', reason_code: 'CUSTOMER_UNHAPPY' });
    await tools.refund.invoke({ order_id: 'o-1', reason_code: 'CUSTOMER_UNHAPPY' });
    await tools.proxy.invoke({
      tool: 'refund_order',
      arguments: { order_id: 'o-2', reason_code: 'INVENTED' },
    });
    await tools.twice.invoke({ order_id: 'o-3', reason_code: 'INVENTED' });
    expect(shop.received()).to.deep.equal([
      { name: 'refund_order', arguments: { order_id: 'o-3', reason_code: 'DAMAGED' } },
    ]);
    const collected = await h.collect();
    expect(pointsOf(collected, METRIC_TOOL_ARGUMENT_REPAIR_STARTED)).to.deep.equal([
      { attributes: { tool: 'refund_order' }, value: 4 },
    ]);
  });

  it('observe: 10 invented values sent from inside a tool and 1 sent directly count as 11', async () => {
    const { tools, callTool } = await setUp('observe');
    for (let i = 0; i < 10; i++) {
      await tools.refund.invoke({ order_id: `o-${i}`, reason_code: 'CUSTOMER_UNHAPPY' });
    }
    await callTool('refund_order', { order_id: 'o-10', reason_code: 'CUSTOMER_UNHAPPY' });
    expect(shop.received()).to.have.length(11);
    expect(pointsOf(await h.collect(), METRIC_TOOL_ARGUMENT_VALUE_CHECK)).to.deep.equal([
      { attributes: refundSeries(inSet(false, false)), value: 11 },
    ]);
  });
});
