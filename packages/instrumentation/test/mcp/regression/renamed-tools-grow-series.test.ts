import { expect } from 'chai';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import {
  ATTR_SET,
  METRIC_TOOL_ARGUMENT_VALUE_SET_AGE,
  METRIC_TOOL_ARGUMENT_VALUE_SET_FETCH,
  METRIC_TOOL_ARGUMENT_VALUE_SET_FETCH_DURATION,
  METRIC_TOOL_ARGUMENT_VALUE_SET_SIZE,
} from '../../../src/semconv.js';
import { harness } from '../../helpers/telemetry.js';
import { pointsOf } from '@argcheck/testing/metrics';
import { recordFigure } from '@argcheck/testing/figures';

/**
 * Issue 11, item 5: a server that renames its tools on every `tools/list`,
 * each with a string enum. With `maxCheckedArguments: 5`, 40 listings gave
 * 161 `set` values on the fetch metrics and 13 on the age and size gauges:
 * a provider was built and loaded for every set of every catalog, those the
 * budget refused included. The budget must bound every instrument.
 */
function renamingServer(): Server {
  const server = new Server({ name: 'renamer', version: '1.0.0' }, { capabilities: { tools: {} } });
  let listing = 0;
  server.setRequestHandler(ListToolsRequestSchema, () => {
    listing++;
    return {
      tools: Array.from({ length: 4 }, (_, i) => ({
        name: `tool_${listing}_${i}`,
        inputSchema: {
          type: 'object' as const,
          properties: { code: { type: 'string', enum: [`A${listing}`, `B${i}`] } },
        },
      })),
    };
  });
  server.setRequestHandler(CallToolRequestSchema, () => ({ content: [] }));
  return server;
}

describe('regression: an MCP server that renames its tools on every listing', () => {
  it('cannot grow any instrument past mcp.maxCheckedArguments', async () => {
    const h = harness({ mcp: { enabled: false, maxCheckedArguments: 5 } });
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await renamingServer().connect(serverSide);
    const client = new Client({ name: 'argcheck-test', version: '0' });
    h.inst.instrumentMcpClient(client);
    await client.connect(clientSide);
    try {
      for (let i = 0; i < 40; i++) await client.listTools();
      await h.inst.ready();
      const collected = await h.collect();
      const setsOn = (name: string) =>
        new Set(pointsOf(collected, name).map((p) => p.attributes[ATTR_SET])).size;
      const sets = {
        fetch: setsOn(METRIC_TOOL_ARGUMENT_VALUE_SET_FETCH),
        fetchDuration: setsOn(METRIC_TOOL_ARGUMENT_VALUE_SET_FETCH_DURATION),
        age: setsOn(METRIC_TOOL_ARGUMENT_VALUE_SET_AGE),
        size: setsOn(METRIC_TOOL_ARGUMENT_VALUE_SET_SIZE),
      };
      // The first listing's 4 arguments and one of the second's fill the budget; no
      // later argument is admitted, so the last catalog puts no derived set in use.
      expect(sets).to.deep.equal({ fetch: 5, fetchDuration: 5, age: 0, size: 0 });
      recordFigure(
        'renamed-tools',
        `40 listings of 4 renamed tools, budget 5: ${Object.values(sets).join(', ')} \`set\` values on the fetch counter, fetch duration, age and size`,
      );
    } finally {
      await client.close();
      await h.close();
    }
  });
});
