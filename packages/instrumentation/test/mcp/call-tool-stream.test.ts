import { expect } from 'chai';
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { METRIC_TOOL_ARGUMENT_VALUE_CHECK } from '../../src/semconv.js';
import { inSet, REFUND_ARGUMENTS, refundSeries, refundSources } from '../helpers/fixtures.js';
import { harness } from '../helpers/telemetry.js';
import { pointsOf } from '@argcheck/testing/metrics';
import { CONFIGURED_ARGUMENTS, CONFIGURED_SETS } from '@argcheck/testing/shop';
import type { ReceivedCall } from '@argcheck/testing/shop';
import { patchModule, recorded, unpatchModule } from './helpers/recorded.js';
import type { Recorded } from './helpers/recorded.js';
import { sdkV1InMemory, sdkV1Stdio } from '@argcheck/testing/shop';
import { shopInMode } from './helpers/shop-in-mode.js';
import type { ShopInMode } from './helpers/shop-in-mode.js';
import type { ShopConnection } from '@argcheck/testing/shop';
import { recordFigure } from '@argcheck/testing/figures';

/** A message of the stream `callToolStream` returns. */
interface StreamMessage {
  type: string;
  result?: { isError?: boolean; content?: { type: string; text?: string }[] };
}

interface TasksClient {
  experimental: {
    tasks: {
      callToolStream(params: {
        name: string;
        arguments: Record<string, unknown>;
      }): AsyncIterable<StreamMessage>;
    };
  };
}

/** Every message of one `client.experimental.tasks.callToolStream` call. */
async function stream(
  connection: ShopConnection,
  name: string,
  args: Record<string, unknown>,
): Promise<StreamMessage[]> {
  const messages: StreamMessage[] = [];
  const client = connection.client as unknown as TasksClient;
  for await (const message of client.experimental.tasks.callToolStream({ name, arguments: args })) {
    messages.push(message);
  }
  return messages;
}

const refund = (reason_code: string) => ({ order_id: 'o-1', reason_code });
const ticket = (component_id: string) => ({ title: 'checkout is down', component_id });

/** What the server receives in each mode, or that the call is rejected client-side. */
const CASES = [
  {
    tool: 'refund_order',
    args: refund('LATE'),
    sent: { observe: refund('LATE'), normalise: refund('LATE'), reject: refund('LATE') },
  },
  {
    tool: 'refund_order',
    args: refund('late'),
    sent: { observe: refund('late'), normalise: refund('LATE'), reject: refund('LATE') },
  },
  {
    tool: 'create_ticket',
    args: ticket('payments'),
    sent: { observe: ticket('payments'), normalise: ticket('payments'), reject: 'rejected' },
  },
] as const;

for (const line of [sdkV1InMemory, sdkV1Stdio]) {
  describe(`MCP callToolStream (SDK 1.x experimental tasks) — ${line.name}`, function () {
    this.timeout(20_000);

    for (const mode of ['observe', 'normalise', 'reject'] as const) {
      describe(`mode ${mode}`, () => {
        let shop: ShopInMode;

        beforeEach(async () => {
          shop = await shopInMode(line, mode);
        });

        afterEach(() => shop.close());

        it('checks each call once with the client’s derived sets; a rejection never reaches the server', async () => {
          const expectedAtServer: ReceivedCall[] = [];
          let streamed = 0;
          for (const c of CASES) {
            const messages = await stream(shop.connection, c.tool, { ...c.args });
            streamed += messages.length;
            const check = shop.host.checks.at(-1);
            expect(check?.tool).to.equal(c.tool);
            const sent = c.sent[mode];
            if (sent === 'rejected') {
              expect(check?.outcome.action).to.equal('reject');
              expect(messages).to.deep.equal([
                {
                  type: 'result',
                  result: {
                    isError: true,
                    content: [{ type: 'text', text: check?.outcome.repairMessage }],
                  },
                },
              ]);
            } else {
              expectedAtServer.push({ name: c.tool, arguments: sent });
              expect(messages.map((m) => m.type)).to.deep.equal(['result']);
            }
          }
          expect(shop.connection.received()).to.deep.equal(expectedAtServer);
          expect(shop.host.checks.map((c) => c.engine)).to.deep.equal(CASES.map(() => 'derived'));
          if (mode === 'reject') {
            const rejected = shop.host.checks.filter((c) => c.outcome.action === 'reject').length;
            recordFigure(
              'mcp-call-tool-stream',
              `${CASES.length} streamed calls, ${shop.host.checks.length} checks: ${rejected} rejected as one \`result\` message carrying the repair message, never sent; ${expectedAtServer.length} reached the server as the mode says (${streamed} messages in all)`,
            );
          }
        });
      });
    }
  });
}

describe('MCP callToolStream with the class and the client both patched', () => {
  let host: Recorded;
  let connection: ShopConnection | undefined;

  afterEach(async () => {
    unpatchModule(host.inst, { Client: ClientV1 });
    await connection?.close();
    host.close();
  });

  it('checks a call once', async () => {
    host = recorded({
      valueSets: CONFIGURED_SETS,
      checkedArguments: CONFIGURED_ARGUMENTS,
      autoPatch: true,
    });
    patchModule(host.inst, { Client: ClientV1 });
    connection = await sdkV1InMemory.connect({
      instrument: (c) => host.inst.instrumentMcpClient(c),
    });
    await stream(connection, 'create_ticket', ticket('billing-api'));
    expect(host.checks.map((c) => [c.tool, c.outcome.action])).to.deep.equal([
      ['create_ticket', 'call'],
    ]);
  });

  it('checks calls of clients made after the class was patched, and stops once it is unpatched', async () => {
    host = recorded({
      valueSets: CONFIGURED_SETS,
      checkedArguments: CONFIGURED_ARGUMENTS,
      autoPatch: true,
    });
    patchModule(host.inst, { Client: ClientV1 });
    connection = await sdkV1InMemory.connect();
    await stream(connection, 'create_ticket', ticket('billing-api'));
    unpatchModule(host.inst, { Client: ClientV1 });
    await stream(connection, 'create_ticket', ticket('billing-api'));
    expect(host.checks).to.have.length(1);
    expect(connection.received()).to.have.length(2);
  });
});

describe('MCP callToolStream through the instrumentation', () => {
  it('counts into the same series as callTool', async () => {
    const h = harness({
      valueSets: refundSources(),
      checkedArguments: REFUND_ARGUMENTS,
      mcp: { enabled: false, deriveValueSets: false },
    });
    await h.inst.ready();
    const connection = await sdkV1InMemory.connect({
      instrument: (c) => h.inst.instrumentMcpClient(c),
    });
    try {
      await stream(connection, 'refund_order', refund('LATE'));
      await stream(connection, 'refund_order', refund('late'));
      expect(pointsOf(await h.collect(), METRIC_TOOL_ARGUMENT_VALUE_CHECK)).to.deep.equal([
        { attributes: refundSeries(inSet(false, true)), value: 1 },
        { attributes: refundSeries(inSet(true, true)), value: 1 },
      ]);
    } finally {
      await connection.close();
      await h.close();
    }
  });
});
