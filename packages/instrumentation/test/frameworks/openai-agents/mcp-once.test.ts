import { createRequire } from 'node:module';
import { sep } from 'node:path';
import { expect } from 'chai';
import { isWrapped } from '@opentelemetry/instrumentation';
import { ManualClock } from '@argcheck/testing/clock';
import { harness } from '../../helpers/telemetry.js';
import type { Harness } from '../../helpers/telemetry.js';
import { stdioShop } from '@argcheck/testing/shop';
import { CALLS, countersOf, expectedCounters, onSet, repairMessage } from '../refund-scenario.js';
import { freshAgentsCjs } from './load.js';

const require = createRequire(import.meta.url);

/** `@modelcontextprotocol/client`, loaded anew after registration so the MCP patch is on it too. */
function forgetMcpClient(): void {
  const marker = `${sep}node_modules${sep}@modelcontextprotocol${sep}`;
  for (const key of Object.keys(require.cache)) if (key.includes(marker)) delete require.cache[key];
}

describe('OpenAI Agents SDK — MCP server tools (@modelcontextprotocol/client 2.x underneath)', function () {
  this.timeout(30_000);

  let h: Harness;
  afterEach(() => h.close());

  it('checks and counts each call once, against the set derived from the tool schema, with the MCP client patched as well', async () => {
    h = harness({ mode: 'reject', clock: new ManualClock(), mcp: { enabled: true } });
    forgetMcpClient();
    const { agents, testing } = freshAgentsCjs();
    agents.setTracingDisabled(true);
    const shop = stdioShop('v2');
    const server = new agents.MCPServerStdio({
      command: shop.command,
      args: shop.args,
      env: shop.env,
    });
    await server.connect();
    try {
      const model = new testing.ScriptedModel([
        CALLS.map((c) => testing.functionCall('refund_order', c.args, { callId: c.id })),
        [testing.assistantMessage('done')],
      ]);
      const agent = new agents.Agent({ name: 'refunds', model, mcpServers: [server] });
      await agents.run(agent, 'refund three orders');
      const { Client } = require('@modelcontextprotocol/client') as {
        Client: { prototype: object };
      };
      expect(isWrapped((Client.prototype as Record<string, unknown>).callTool)).to.equal(true);
      const outputs = (
        model.calls[1]?.request.input as { type: string; callId?: string; output?: unknown }[]
      )
        .filter((i) => i.type === 'function_call_result')
        .map((i) => [i.callId, i.output]);
      expect(outputs).to.deep.equal([
        ['call-1', [{ type: 'input_text', text: 'ok:refund_order' }]],
        ['call-2', [{ type: 'input_text', text: 'ok:refund_order' }]],
        // The runner's own form of a tool's string output, as for a guardrail's rejectContent.
        ['call-3', { type: 'text', text: await repairMessage() }],
      ]);
      expect(shop.received()).to.deep.equal([
        { name: 'refund_order', arguments: CALLS[0].args },
        { name: 'refund_order', arguments: { ...CALLS[1].args, reason_code: 'DAMAGED' } },
      ]);
      expect(countersOf(await h.collect())).to.deep.equal(
        onSet(expectedCounters('reject'), 'openai-agents:refund_order.reason_code'),
      );
    } finally {
      await server.close();
      shop.remove();
    }
  });
});
