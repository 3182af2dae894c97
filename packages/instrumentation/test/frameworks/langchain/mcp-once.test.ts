import { createRequire } from 'node:module';
import { sep } from 'node:path';
import { expect } from 'chai';
import { isWrapped } from '@opentelemetry/instrumentation';
import { ManualClock } from '@argcheck/testing/clock';
import { harness } from '../../helpers/telemetry.js';
import type { Harness } from '../../helpers/telemetry.js';
import { stdioShop } from '@argcheck/testing/shop';
import { CALLS, countersOf, expectedCounters, onSet, repairMessage } from '../refund-scenario.js';
import { scriptedChatModel } from './langchain-run.js';
import { freshLangChainCjs } from './load.js';

const require = createRequire(import.meta.url);

interface McpSdk {
  Client: new (info: object) => { connect(t: unknown): Promise<void>; close(): Promise<void> };
}
interface StdioSdk {
  StdioClientTransport: new (options: object) => unknown;
}
interface Adapters {
  loadMcpTools: (server: string, client: unknown) => Promise<object[]>;
}

describe('LangChain.js — MCP tools from @langchain/mcp-adapters (@modelcontextprotocol/sdk 1.x underneath)', function () {
  this.timeout(30_000);

  let h: Harness;
  afterEach(() => h.close());

  it('checks and counts each call once, against the set derived from the tool schema, with the MCP client patched as well', async () => {
    h = harness({ mode: 'reject', clock: new ManualClock(), mcp: { enabled: true } });
    const marker = `${sep}node_modules${sep}@modelcontextprotocol${sep}`;
    for (const key of Object.keys(require.cache))
      if (key.includes(marker)) delete require.cache[key];
    const m = freshLangChainCjs();
    const { Client } = require('@modelcontextprotocol/sdk/client/index.js') as McpSdk;
    const { StdioClientTransport } =
      require('@modelcontextprotocol/sdk/client/stdio.js') as StdioSdk;
    const { loadMcpTools } = require('@langchain/mcp-adapters') as Adapters;
    expect(isWrapped((Client.prototype as Record<string, unknown>).callTool)).to.equal(true);

    const shop = stdioShop('v1');
    const client = new Client({ name: 'langchain-test', version: '0' });
    await client.connect(
      new StdioClientTransport({ command: shop.command, args: shop.args, env: shop.env }),
    );
    try {
      const tools = (await loadMcpTools('shop', client)).filter(
        (t) => (t as { name?: string }).name === 'refund_order',
      );
      const model = scriptedChatModel(m, [
        new m.messages.AIMessage({
          content: '',
          tool_calls: CALLS.map((c) => ({
            id: c.id,
            name: 'refund_order',
            args: c.args,
            type: 'tool_call',
          })),
        }),
        new m.messages.AIMessage('done'),
      ]);
      const agent = m.prebuilt.createReactAgent({ llm: model, tools: tools as never });
      await agent.invoke({ messages: [new m.messages.HumanMessage('refund three orders')] });
      const answers = (model.seen[1] ?? [])
        .filter((msg) => m.messages.ToolMessage.isInstance(msg))
        .map((msg) => {
          const t = msg as InstanceType<typeof m.messages.ToolMessage>;
          return [t.tool_call_id, t.status, t.text];
        });
      expect(answers).to.deep.equal([
        ['call-1', 'success', 'ok:refund_order'],
        ['call-2', 'success', 'ok:refund_order'],
        ['call-3', 'error', await repairMessage()],
      ]);
      expect(shop.received()).to.deep.equal([
        { name: 'refund_order', arguments: CALLS[0].args },
        { name: 'refund_order', arguments: { ...CALLS[1].args, reason_code: 'DAMAGED' } },
      ]);
      expect(countersOf(await h.collect())).to.deep.equal(
        onSet(expectedCounters('reject'), 'langchain:refund_order.reason_code'),
      );
    } finally {
      await client.close();
      shop.remove();
    }
  });
});
