// MCP catalogs that change under the instrumentation (issue 11, item 5):
// the real MCP SDK server and client, the real instrumentation and
// OpenTelemetry SDK.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { instrumented } from './harness.js';
import { test, type FaultRow } from './table.js';

const LISTINGS = 40;
const BUDGET = 5;
const SET_INSTRUMENTS = [
  'tool_argument_value_set_fetch',
  'tool_argument_value_set_fetch_duration',
  'tool_argument_value_set_age',
  'tool_argument_value_set_size',
];

/** A server that renames its 4 tools, each with a string enum, on every `tools/list`. */
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

export const mcpCatalogs: FaultRow[] = [
  {
    area: 'Cardinality floods',
    fault:
      'An MCP server renames its tools on every listing: a value set was built and fetched for every derived argument, those over the budget included, and each became a `set` on the fetch metrics',
    expected:
      'Only the arguments admitted within `mcp.maxCheckedArguments` get a value set, so no instrument has more `set` values than the budget, however many listings.',
    provedBy: [
      test(
        'packages/instrumentation/test/mcp/regression/renamed-tools-grow-series.test.ts',
        'cannot grow any instrument past mcp.maxCheckedArguments',
      ),
    ],
    async measure() {
      const t = instrumented({ mcp: { enabled: false, maxCheckedArguments: BUDGET } });
      const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
      const server = renamingServer();
      await server.connect(serverSide);
      const client = new Client({ name: 'reliability', version: '1.0.0' });
      t.inst.instrumentMcpClient(client);
      await client.connect(clientSide);
      try {
        for (let i = 0; i < LISTINGS; i++) await client.listTools();
        await t.inst.ready();
        const collected = await t.collect();
        const sets = Object.fromEntries(
          SET_INSTRUMENTS.map((name) => [name, collected.distinct(name, 'set').size]),
        );
        return {
          figure: `${LISTINGS} listings of 4 renamed tools, budget ${BUDGET}: ${SET_INSTRUMENTS.map((n) => sets[n]).join(', ')} \`set\` values on the fetch counter, fetch duration, age and size`,
          data: { listings: LISTINGS, budget: BUDGET, sets },
        };
      } finally {
        await client.close();
        await server.close();
        await t.close();
      }
    },
  },
];
