import { expect } from 'chai';
import { staticValueSet } from '@argcheck/core';
import {
  ATTR_ARGUMENT,
  ATTR_IN_SET,
  ATTR_IN_SET_NORMALISED,
  ATTR_SET,
  ATTR_TOOL,
  METRIC_TOOL_ARGUMENT_REPAIR_STARTED,
  METRIC_TOOL_ARGUMENT_REWRITTEN,
  METRIC_TOOL_ARGUMENT_VALUE_CHECK,
} from '../../src/semconv.js';
import { harness } from '../helpers/telemetry.js';
import { pointsOf } from '@argcheck/testing/metrics';
import type { Harness } from '../helpers/telemetry.js';
import {
  COMPONENTS,
  CONFIGURED_ARGUMENTS,
  REASON_SET,
  WAREHOUSE_SET,
} from '@argcheck/testing/shop';
import type { ReceivedCall } from '@argcheck/testing/shop';
import { ALL_LINES } from '@argcheck/testing/shop';

const check = (
  tool: string,
  argument: string,
  set: string,
  inSet: boolean,
  normalised: boolean,
) => ({
  [ATTR_TOOL]: tool,
  [ATTR_ARGUMENT]: argument,
  [ATTR_SET]: set,
  [ATTR_IN_SET]: String(inSet),
  [ATTR_IN_SET_NORMALISED]: String(normalised),
});

const transfer = (...codes: string[]) => ({
  items: codes.map((warehouse_code, i) => ({ sku: `sku-${i}`, warehouse_code, quantity: 1 })),
});

for (const line of ALL_LINES) {
  describe(`ToolArgumentInstrumentation end to end, reject mode — ${line.name}`, function () {
    this.timeout(20_000);
    let h: Harness;
    afterEach(() => h.close());

    it('counts every check and repair, rewrites case variants, and keeps rejected calls off the server', async () => {
      h = harness({
        valueSets: { components: staticValueSet(COMPONENTS) },
        checkedArguments: CONFIGURED_ARGUMENTS,
        mode: 'reject',
        logSampleRatio: 0,
      });
      await h.inst.ready();
      const connection = await line.connect({ instrument: (c) => h.inst.instrumentMcpClient(c) });
      try {
        await connection.client.listTools();
        const call = (name: string, args: Record<string, unknown>) =>
          connection.client.callTool({ name, arguments: args });

        const ok = await call('refund_order', { order_id: 'o-1', reason_code: 'LATE' });
        const badReason = await call('refund_order', {
          order_id: 'o-2',
          reason_code: 'lost in the mail',
        });
        const badComponent = await call('create_ticket', { title: 't', component_id: 'payments' });
        const moved = await call('transfer_stock', transfer('ams1', 'BER2'));

        expect([ok, moved]).to.deep.equal([
          { content: [{ type: 'text', text: 'ok:refund_order' }] },
          { content: [{ type: 'text', text: 'ok:transfer_stock' }] },
        ]);
        for (const rejected of [badReason, badComponent]) {
          expect(rejected).to.have.all.keys('isError', 'content');
          expect(rejected).to.have.property('isError', true);
        }
        expect(connection.received()).to.deep.equal([
          { name: 'refund_order', arguments: { order_id: 'o-1', reason_code: 'LATE' } },
          { name: 'transfer_stock', arguments: transfer('AMS1', 'BER2') },
        ] satisfies ReceivedCall[]);

        const collected = await h.collect();
        expect(pointsOf(collected, METRIC_TOOL_ARGUMENT_VALUE_CHECK)).to.deep.equal([
          {
            attributes: check('create_ticket', 'component_id', 'components', false, false),
            value: 1,
          },
          { attributes: check('refund_order', 'reason_code', REASON_SET, false, false), value: 1 },
          { attributes: check('refund_order', 'reason_code', REASON_SET, true, true), value: 1 },
          {
            attributes: check(
              'transfer_stock',
              'items[].warehouse_code',
              WAREHOUSE_SET,
              false,
              true,
            ),
            value: 1,
          },
          {
            attributes: check(
              'transfer_stock',
              'items[].warehouse_code',
              WAREHOUSE_SET,
              true,
              true,
            ),
            value: 1,
          },
        ]);
        expect(pointsOf(collected, METRIC_TOOL_ARGUMENT_REPAIR_STARTED)).to.deep.equal([
          { attributes: { [ATTR_TOOL]: 'create_ticket' }, value: 1 },
          { attributes: { [ATTR_TOOL]: 'refund_order' }, value: 1 },
        ]);
        expect(pointsOf(collected, METRIC_TOOL_ARGUMENT_REWRITTEN)).to.deep.equal([
          {
            attributes: {
              [ATTR_TOOL]: 'transfer_stock',
              [ATTR_ARGUMENT]: 'items[].warehouse_code',
              [ATTR_SET]: WAREHOUSE_SET,
            },
            value: 1,
          },
        ]);
      } finally {
        await connection.close();
      }
    });
  });
}
