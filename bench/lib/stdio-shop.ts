// The bench's shop server on stdio, for `callTool` through a real transport
// (started by call-tool.ts as `node stdio-shop.js`). One tool, `refund_order`,
// that answers at once (SDK 1.x `McpServer`).
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { z } from 'zod';

const server = new McpServer({ name: 'bench-shop', version: '1.0.0' });
server.registerTool(
  'refund_order',
  { inputSchema: { order_id: z.string(), reason_code: z.string() } },
  () => ({ content: [{ type: 'text', text: 'refunded' }] }),
);
await server.connect(new StdioServerTransport());
