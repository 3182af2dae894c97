import { expect } from 'chai';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { METRIC_TOOL_ARGUMENT_VALUE_CHECK } from '../../src/semconv.js';
import { ManualClock } from '@argcheck/testing/clock';
import { recordFigure } from '@argcheck/testing/figures';
import { allPointsOf, pointsOf } from '@argcheck/testing/metrics';
import { harness } from '../helpers/telemetry.js';

// A real MCP server (SDK 1.x) whose catalog has 200 tools, each with a string
// enum: the derived arguments checked, and the series they become, stop at
// mcp.maxCheckedArguments however many tools the server lists.
describe('an MCP catalog of 200 tools with string enums', () => {
  it('checks and counts only the first maxCheckedArguments derived arguments', async () => {
    const h = harness({
      mcp: { enabled: false, maxCheckedArguments: 20 },
      clock: new ManualClock(),
    });
    const server = new McpServer({ name: 'big-catalog', version: '1.0.0' });
    for (let i = 0; i < 200; i++) {
      server.registerTool(
        `tool_${i}`,
        { inputSchema: { mode: z.enum([`A${i}`, `B${i}`, `C${i}`]) } },
        () => ({ content: [{ type: 'text', text: 'ok' }] }),
      );
    }
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await server.connect(serverSide);
    const client = new Client({ name: 'argcheck-test', version: '0' });
    h.inst.instrumentMcpClient(client);
    await client.connect(clientSide);
    try {
      await client.listTools();
      await h.inst.ready();
      for (let i = 0; i < 200; i++) {
        await client.callTool({ name: `tool_${i}`, arguments: { mode: `X${i}` } });
      }
      const collected = await h.collect();
      const checked = pointsOf(collected, METRIC_TOOL_ARGUMENT_VALUE_CHECK);
      const series = allPointsOf(collected, METRIC_TOOL_ARGUMENT_VALUE_CHECK);
      expect(checked.reduce((n, p) => n + Number(p.value), 0)).to.equal(20);
      // Each admitted argument's three membership series, exported from its first listing.
      expect(series).to.have.length(60);
      recordFigure(
        'catalog-200-tools',
        `${checked.length} of 200 calls checked; ${series.length} \`${METRIC_TOOL_ARGUMENT_VALUE_CHECK}\` series (budget 20, three membership series each)`,
      );
    } finally {
      await client.close();
      await server.close();
      await h.close();
    }
  });
});
