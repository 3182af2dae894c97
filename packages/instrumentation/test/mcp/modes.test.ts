import { expect } from 'chai';
import type { CheckMode } from '@argcheck/core';
import type { ReceivedCall } from '@argcheck/testing/shop';
import { ALL_LINES } from '@argcheck/testing/shop';
import { shopInMode } from './helpers/shop-in-mode.js';
import type { ShopInMode } from './helpers/shop-in-mode.js';
import { recordFigure } from '@argcheck/testing/figures';

/** What happens to one call: the arguments the server receives, or that it is rejected client-side. */
type Expected = { sent: Record<string, unknown>; result: 'ok' | 'server_error' } | 'rejected';

interface Case {
  title: string;
  tool: string;
  args: Record<string, unknown>;
  expect: Record<CheckMode, Expected>;
}

const refund = (reason_code: string) => ({ order_id: 'o-1', reason_code });
const ticket = (component_id: string) => ({ title: 'checkout is down', component_id });
const transfer = (...codes: string[]) => ({
  items: codes.map((warehouse_code, i) => ({ sku: `sku-${i}`, warehouse_code, quantity: 1 })),
});
const same = (sent: Record<string, unknown>, result: 'ok' | 'server_error') => ({ sent, result });

const CASES: Case[] = [
  {
    title: 'a derived enum member',
    tool: 'refund_order',
    args: refund('LATE'),
    expect: {
      observe: same(refund('LATE'), 'ok'),
      normalise: same(refund('LATE'), 'ok'),
      reject: same(refund('LATE'), 'ok'),
    },
  },
  {
    title: 'a case variant of a derived enum member',
    tool: 'refund_order',
    args: refund('late'),
    expect: {
      observe: same(refund('late'), 'server_error'),
      normalise: same(refund('LATE'), 'ok'),
      reject: same(refund('LATE'), 'ok'),
    },
  },
  {
    title: 'an invented reason code',
    tool: 'refund_order',
    args: refund('lost in the mail'),
    expect: {
      observe: same(refund('lost in the mail'), 'server_error'),
      normalise: same(refund('lost in the mail'), 'server_error'),
      reject: 'rejected',
    },
  },
  {
    title: 'a format variant of a configured set member (free-string schema)',
    tool: 'create_ticket',
    args: ticket('Billing API'),
    expect: {
      observe: same(ticket('Billing API'), 'ok'),
      normalise: same(ticket('billing-api'), 'ok'),
      reject: same(ticket('billing-api'), 'ok'),
    },
  },
  {
    title: 'an invented component the server itself would accept',
    tool: 'create_ticket',
    args: ticket('payments'),
    expect: {
      observe: same(ticket('payments'), 'ok'),
      normalise: same(ticket('payments'), 'ok'),
      reject: 'rejected',
    },
  },
  {
    title: 'array items, one a case variant',
    tool: 'transfer_stock',
    args: transfer('ams1', 'BER2'),
    expect: {
      observe: same(transfer('ams1', 'BER2'), 'server_error'),
      normalise: same(transfer('AMS1', 'BER2'), 'ok'),
      reject: same(transfer('AMS1', 'BER2'), 'ok'),
    },
  },
];

function resultKind(result: unknown): 'ok' | 'server_error' | 'other' {
  const r = result as { isError?: boolean; content?: { text?: string }[] };
  if (r.isError === true) return 'server_error';
  return r.content?.[0]?.text?.startsWith('ok:') ? 'ok' : 'other';
}

for (const line of ALL_LINES) {
  describe(`MCP callTool in each mode — ${line.name}`, function () {
    this.timeout(20_000);

    for (const mode of ['observe', 'normalise', 'reject'] as const) {
      describe(`mode ${mode}`, () => {
        let shop: ShopInMode;

        beforeEach(async () => {
          shop = await shopInMode(line, mode);
        });

        afterEach(() => shop.close());

        it('sends what the mode says, and a rejected call never reaches the server', async () => {
          const expectedAtServer: ReceivedCall[] = [];
          for (const c of CASES) {
            const result = await shop.connection.client.callTool({
              name: c.tool,
              arguments: c.args,
            });
            const expected = c.expect[mode];
            const check = shop.host.checks.at(-1);
            expect(check?.tool, c.title).to.equal(c.tool);
            if (expected === 'rejected') {
              expect(check?.outcome.action, c.title).to.equal('reject');
              expect(result, c.title).to.deep.equal({
                isError: true,
                content: [{ type: 'text', text: check?.outcome.repairMessage }],
              });
            } else {
              expectedAtServer.push({ name: c.tool, arguments: expected.sent });
              expect(resultKind(result), c.title).to.equal(expected.result);
            }
          }
          // Every forwarded call was answered before the next one went out, so this is complete.
          expect(shop.connection.received()).to.deep.equal(expectedAtServer);
          expect(shop.host.checks.map((c) => c.engine)).to.deep.equal(CASES.map(() => 'derived'));
          if (mode === 'reject') {
            const actions = shop.host.checks.map((c) => c.outcome.action);
            const count = (a: string) => actions.filter((x) => x === a).length;
            recordFigure(
              'mcp-reject',
              `${CASES.length} calls: ${count('reject')} rejected with the repair message as the tool error, never sent; ${expectedAtServer.length} reached the server, ${count('call_rewritten')} of them rewritten to the member`,
            );
          }
        });
      });
    }
  });
}
