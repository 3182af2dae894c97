// Child process: the demo's MCP server on stdio. It plays the services the
// agent acts on; it records what reaches it and answers ok. It deliberately
// holds no value sets of its own (argument schemas say "string", not an enum):
// the sets live with their owners, and the check runs in the client. Its one
// argument names the listing it serves (traffic.ts): the demo runs one
// process of each version side by side, a rolling deploy of a rewritten
// `refund_order` description.
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { z } from 'zod';
import { RECEIVED_URI } from './tools.js';
import { LISTINGS, type ListingName } from './traffic.js';

const received: Record<string, number> = {};

function ok(tool: string, text: string) {
  received[tool] = (received[tool] ?? 0) + 1;
  return { content: [{ type: 'text' as const, text }] };
}

const listingName = (process.argv[2] ?? 'original') as ListingName;
const listing = Object.hasOwn(LISTINGS, listingName) ? LISTINGS[listingName] : LISTINGS.original;

const server = new McpServer({ name: 'argcheck-demo-shop', version: listing.version });

server.registerTool(
  'refund_order',
  {
    description: listing.refundDescription,
    inputSchema: { order_id: z.string(), reason_code: z.string() },
  },
  ({ order_id, reason_code }) => ok('refund_order', `refunded ${order_id} (${reason_code})`),
);

server.registerTool(
  'create_ticket',
  {
    description: 'Open a support ticket on a catalog component, assigned to an active handle.',
    inputSchema: { summary: z.string(), component_id: z.string(), assignee: z.string() },
  },
  ({ component_id, assignee }) => ok('create_ticket', `ticket on ${component_id} for ${assignee}`),
);

server.registerTool(
  'transfer_stock',
  {
    description: 'Move stock between warehouses; warehouse_code is a WMS warehouse code.',
    inputSchema: {
      items: z.array(
        z.object({ sku: z.string(), warehouse_code: z.string(), qty: z.number().int() }),
      ),
    },
  },
  ({ items }) => ok('transfer_stock', `transfer of ${items.length} line(s) booked`),
);

server.registerResource(
  'received',
  RECEIVED_URI,
  { description: 'Tool calls that reached this server, per tool.', mimeType: 'application/json' },
  (uri) => ({ contents: [{ uri: uri.href, text: JSON.stringify(received) }] }),
);

// Ctrl-C in a terminal signals the whole process group. The parent owns this
// process's lifetime (it closes stdin when done), and still needs it to
// report what it received after the interrupt.
process.on('SIGINT', () => undefined);

await server.connect(new StdioServerTransport());
