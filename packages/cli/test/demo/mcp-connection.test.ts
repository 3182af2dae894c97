import { expect } from 'chai';
import { connectMcpServer, type McpConnection } from '../../src/demo/mcp-connection.js';
import { LISTINGS } from '../../src/demo/traffic.js';

describe('demo MCP server (stdio child process)', function () {
  // Starting a Node child process is the slow part; the calls themselves take milliseconds.
  this.timeout(15_000);
  let connection: McpConnection | undefined;
  afterEach(async () => {
    await connection?.close();
    connection = undefined;
  });

  it('lists the three tools, answers ok and reports what it received', async () => {
    const instrumented: object[] = [];
    connection = await connectMcpServer((client) => void instrumented.push(client));
    expect(instrumented).to.deep.equal([connection.client]);
    const { tools } = await connection.client.listTools();
    expect(tools.map((t) => t.name)).to.deep.equal([
      'refund_order',
      'create_ticket',
      'transfer_stock',
    ]);
    expect(
      await connection.callTool('refund_order', { order_id: 'ORD-1', reason_code: 'LATE' }),
    ).to.deep.equal({
      isError: false,
      text: 'refunded ORD-1 (LATE)',
    });
    const items = [{ sku: 'SKU-1', warehouse_code: 'AMS1', qty: 2 }];
    expect(await connection.callTool('transfer_stock', { items })).to.deep.equal({
      isError: false,
      text: 'transfer of 1 line(s) booked',
    });
    // The server validates types itself: a number where it takes a string is its error, not ours.
    const wrongType = await connection.callTool('refund_order', {
      order_id: 'ORD-2',
      reason_code: 3,
    });
    expect(wrongType.isError).to.equal(true);
    expect(await connection.received()).to.deep.equal({ refund_order: 1, transfer_stock: 1 });
  });

  it('serves the rewritten listing: only refund_order\'s description differs', async () => {
    connection = await connectMcpServer(() => undefined, 'original');
    const original = await connection.client.listTools();
    const originalVersion = connection.client.getServerVersion();
    await connection.close();
    connection = await connectMcpServer(() => undefined, 'rewritten');
    const rewritten = await connection.client.listTools();
    expect(connection.client.getServerVersion()).to.deep.equal({ name: 'argcheck-demo-shop', version: LISTINGS.rewritten.version });
    expect(originalVersion).to.deep.equal({ name: 'argcheck-demo-shop', version: LISTINGS.original.version });
    const [before, after] = [original.tools, rewritten.tools].map((tools) => tools.map((t) => [t.name, t.description]));
    expect(after).to.deep.equal(
      before?.map(([name, description]) => [name, name === 'refund_order' ? LISTINGS.rewritten.refundDescription : description]),
    );
    expect(before?.[0]).to.deep.equal(['refund_order', LISTINGS.original.refundDescription]);
    expect(rewritten.tools.map((t) => t.inputSchema)).to.deep.equal(original.tools.map((t) => t.inputSchema));
  }); // prettier-ignore

  it('ends the child process on close', async () => {
    connection = await connectMcpServer(() => undefined);
    const transport = connection.client.transport as { pid?: number | null } | undefined;
    const pid = transport?.pid;
    expect(pid).to.be.a('number');
    await connection.close();
    connection = undefined;
    // Signal 0 only asks whether the process exists.
    expect(() => process.kill(pid as number, 0)).to.throw();
  });
});
