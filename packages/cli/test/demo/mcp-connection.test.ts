import { expect } from 'chai';
import { connectMcpServer, type McpConnection } from '../../src/demo/mcp-connection.js';

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
