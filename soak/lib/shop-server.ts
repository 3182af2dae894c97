// Child process: the soak's MCP server on stdio (started by shop.ts). It
// plays the services the agent acts on: it counts what reaches it and answers
// ok. Its schemas say "string", not an enum: the check runs in the client.
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { z } from 'zod';
import { RECEIVED_URI } from './shop.js';

const received: Record<string, number> = {};
const ok = (tool: string) => {
  received[tool] = (received[tool] ?? 0) + 1;
  return { content: [{ type: 'text' as const, text: 'ok' }] };
};

const server = new McpServer({ name: 'argcheck-soak-shop', version: '1.0.0' });
server.registerTool(
  'refund_order',
  { inputSchema: { order_id: z.string(), reason_code: z.string() } },
  () => ok('refund_order'),
);
server.registerTool(
  'create_ticket',
  { inputSchema: { summary: z.string(), component_id: z.string(), assignee: z.string() } },
  () => ok('create_ticket'),
);
server.registerTool(
  'transfer_stock',
  {
    inputSchema: {
      items: z.array(z.object({ sku: z.string(), warehouse_code: z.string(), qty: z.number() })),
    },
  },
  () => ok('transfer_stock'),
);
server.registerResource('received', RECEIVED_URI, { mimeType: 'application/json' }, (uri) => ({
  contents: [{ uri: uri.href, text: JSON.stringify(received) }],
}));
await server.connect(new StdioServerTransport());
