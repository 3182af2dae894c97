// Derived set names were `<origin>:<server>/<tool>.<path>` with nothing
// quoted. The reference MCP server calls itself `mcp-servers/everything`, so
// its set read `mcp:mcp-servers/everything/get-annotated-message.messageType`:
// a server `mcp-servers` with a tool `everything/get-annotated-message` got
// the very same name, and the two servers' sets shared every value-set series.
// Within one server, a tool `orders.refund` with an argument `reason` and a
// tool `orders` with `refund.reason` both made `mcp:shop/orders.refund.reason`,
// and the second was never checked. A server or tool name holding `/`, `.`
// or `"` is now written as a JSON string (derive-catalog.ts).
import { expect } from 'chai';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { allPointsOf, pointsOf } from '@argcheck/testing/metrics';
import {
  METRIC_TOOL_ARGUMENT_VALUE_CHECK,
  METRIC_TOOL_ARGUMENT_VALUE_SET_SIZE,
} from '../../src/semconv.js';
import { inSet, series, setSeries } from '../helpers/fixtures.js';
import { harness } from '../helpers/telemetry.js';
import type { Harness } from '../helpers/telemetry.js';

interface ListedTool {
  name: string;
  inputSchema: Record<string, unknown>;
}

const byAttributes = <T extends { attributes: object }>(points: T[]): T[] =>
  [...points].sort((a, b) =>
    JSON.stringify(a.attributes).localeCompare(JSON.stringify(b.attributes)),
  );
const enumOf = (...members: string[]) => ({ type: 'string', enum: members });
const objectOf = (properties: Record<string, unknown>) => ({ type: 'object', properties });

/**
 * A real SDK server that lists `tools` as given and answers every call ok.
 * The low-level `Server`, so that a tool name the naming guideline warns
 * about (`/`) is listed as a server in the wild would list it.
 */
async function connect(h: Harness, serverName: string, tools: ListedTool[]) {
  const server = new Server({ name: serverName, version: '1.0.0' }, { capabilities: { tools: {} } });
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools }));
  server.setRequestHandler(CallToolRequestSchema, () => ({ content: [{ type: 'text', text: 'ok' }] }));
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new Client({ name: 'argcheck-test', version: '0.0.0' });
  h.inst.instrumentMcpClient(client);
  await client.connect(clientSide);
  await client.listTools();
  return { client, close: () => client.close() };
} // prettier-ignore

describe('regression: derived set names did not say where the server ends and the tool begins', () => {
  let h: Harness;
  afterEach(() => h.close());

  it('two servers whose names and tools join up the same way keep sets of their own', async () => {
    h = harness({});
    const everything = await connect(h, 'mcp-servers/everything', [
      { name: 'get-annotated-message', inputSchema: objectOf({ messageType: enumOf('error', 'success', 'debug') }) },
    ]); // prettier-ignore
    const other = await connect(h, 'mcp-servers', [
      { name: 'everything/get-annotated-message', inputSchema: objectOf({ messageType: enumOf('info') }) },
    ]); // prettier-ignore
    await h.inst.ready();
    const first = 'mcp:"mcp-servers/everything"/get-annotated-message.messageType';
    const second = 'mcp:mcp-servers/"everything/get-annotated-message".messageType';
    expect(allPointsOf(await h.collect(), METRIC_TOOL_ARGUMENT_VALUE_SET_SIZE)).to.deep.equal(
      byAttributes([
        { attributes: setSeries(first, 'tool_schema'), value: 3 },
        { attributes: setSeries(second, 'tool_schema'), value: 1 },
      ]),
    );
    await everything.client.callTool({
      name: 'get-annotated-message',
      arguments: { messageType: 'info' },
    });
    await other.client.callTool({
      name: 'everything/get-annotated-message',
      arguments: { messageType: 'info' },
    });
    expect(pointsOf(await h.collect(), METRIC_TOOL_ARGUMENT_VALUE_CHECK)).to.deep.equal(byAttributes([
      { attributes: series('everything/get-annotated-message', 'messageType', second, inSet(true, true)), value: 1 },
      { attributes: series('get-annotated-message', 'messageType', first, inSet(false, false)), value: 1 },
    ])); // prettier-ignore
    await everything.close();
    await other.close();
  });

  it('a tool with a dot in its name and a nested argument of another tool are both checked', async () => {
    h = harness({});
    const shop = await connect(h, 'shop', [
      { name: 'orders.refund', inputSchema: objectOf({ reason: enumOf('LATE') }) },
      {
        name: 'orders',
        inputSchema: objectOf({ refund: objectOf({ reason: enumOf('DAMAGED') }) }),
      },
    ]);
    await h.inst.ready();
    await shop.client.callTool({ name: 'orders.refund', arguments: { reason: 'LATE' } });
    await shop.client.callTool({ name: 'orders', arguments: { refund: { reason: 'LATE' } } });
    expect(pointsOf(await h.collect(), METRIC_TOOL_ARGUMENT_VALUE_CHECK)).to.deep.equal(byAttributes([
      {
        attributes: series('orders', 'refund.reason', 'mcp:shop/orders.refund.reason', inSet(false, false)),
        value: 1,
      },
      {
        attributes: series('orders.refund', 'reason', 'mcp:shop/"orders.refund".reason', inSet(true, true)),
        value: 1,
      },
    ])); // prettier-ignore
    await shop.close();
  });
});
