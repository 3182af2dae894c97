import { createRequire } from 'node:module';
import { expect } from 'chai';
import { staticValueSet } from '@argcheck/core';
import { REASON_CODES, stdioShop } from '@argcheck/testing/shop';
import { METRIC_TOOL_ARGUMENT_VALUE_CHECK } from '../../../src/semconv.js';
import { harness } from '../../helpers/telemetry.js';
import { pointsOf } from '@argcheck/testing/metrics';
import type { Harness } from '../../helpers/telemetry.js';
import { NODE_22_REASON, skipBelowNode22 } from '../helpers/node-version.js';
import { refundModel, toolResultSeen } from '../helpers/refund-model.js';

const require = createRequire(import.meta.url);

interface McpClient {
  listTools(): Promise<Record<string, unknown>>;
  disconnect(): Promise<void>;
}
interface MastraAgent {
  generate(prompt: string, options?: object): Promise<unknown>;
}

/** Sets derived from the MCP tool's schema, under the name Mastra gives it (`<server>_<tool>`). */
const series = (inSet: boolean, normalised: boolean) => ({
  tool: 'shop_refund_order',
  argument: 'reason_code',
  set: 'mastra:shop_refund_order.reason_code',
  in_set: String(inSet),
  in_set_normalised: String(normalised),
});

describe(`Mastra — a tool from @mastra/mcp, with its MCP client patched too (${NODE_22_REASON})`, function () {
  this.timeout(60_000);
  let h: Harness;
  let shop: ReturnType<typeof stdioShop>;
  let mcp: McpClient | undefined;

  before(function () {
    skipBelowNode22(this, '@mastra/core');
  });
  beforeEach(() => {
    shop = stdioShop('v2');
  });
  afterEach(async () => {
    await mcp?.disconnect();
    await h?.close();
    shop.remove();
  });

  /** Two agent turns on the server's `refund_order`, which Mastra names `shop_refund_order`. */
  async function turns(): Promise<{ type: string; value: { error?: boolean } }[]> {
    const { MCPClient } = require('@mastra/mcp') as {
      MCPClient: new (options: object) => McpClient;
    };
    const { Agent } = require('@mastra/core/agent') as {
      Agent: new (config: object) => MastraAgent;
    };
    mcp = new MCPClient({
      id: 'argcheck-test',
      servers: { shop: { command: shop.command, args: shop.args, env: shop.env } },
    });
    const tools = await mcp.listTools();
    const seen: unknown[] = [];
    for (const code of ['CUSTOMER_UNHAPPY', 'damaged']) {
      const { model, prompts } = await refundModel(code, 'shop_refund_order', 'v3');
      const agent = new Agent({ id: 'support', name: 'support', instructions: 'x', model, tools });
      await agent.generate('refund', { maxSteps: 2 });
      seen.push(toolResultSeen(prompts));
    }
    return seen as { type: string; value: { error?: boolean } }[];
  }

  it('checks and counts each call once, in the Mastra layer; the server gets the rewritten call only', async () => {
    // Both @mastra/core and @mastra/mcp's own @modelcontextprotocol/client are patched on require.
    h = harness({ mode: 'reject', logSampleRatio: 0, mcp: { enabled: true } });
    const [invented, variant] = await turns();
    expect(shop.received()).to.deep.equal([
      { name: 'refund_order', arguments: { order_id: 'o-1', reason_code: 'DAMAGED' } },
    ]);
    expect(invented?.value.error).to.equal(true);
    expect(variant?.type).to.equal('json');
    expect(variant?.value.error).to.equal(undefined);
    expect(pointsOf(await h.collect(), METRIC_TOOL_ARGUMENT_VALUE_CHECK)).to.deep.equal([
      { attributes: series(false, false), value: 1 },
      { attributes: series(false, true), value: 1 },
    ]);
  });

  it('regression: a check configured under the MCP tool’s own name applies to Mastra’s <server>_<tool>', async () => {
    h = harness({
      mode: 'reject',
      logSampleRatio: 0,
      mcp: { enabled: true },
      valueSets: { reasons: staticValueSet(REASON_CODES) },
      checkedArguments: { refund_order: { reason_code: 'reasons' } },
    });
    await h.inst.ready();
    const [invented] = await turns();
    expect(invented?.value.error).to.equal(true);
    expect(shop.received()).to.deep.equal([
      { name: 'refund_order', arguments: { order_id: 'o-1', reason_code: 'DAMAGED' } },
    ]);
    const configured = (inSet: boolean, normalised: boolean) => ({
      tool: 'refund_order',
      argument: 'reason_code',
      set: 'reasons',
      in_set: String(inSet),
      in_set_normalised: String(normalised),
    });
    expect(pointsOf(await h.collect(), METRIC_TOOL_ARGUMENT_VALUE_CHECK)).to.deep.equal([
      { attributes: configured(false, false), value: 1 },
      { attributes: configured(false, true), value: 1 },
    ]);
  });
});
