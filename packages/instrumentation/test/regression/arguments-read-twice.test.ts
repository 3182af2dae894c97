/**
 * Regression: a getter or a Proxy in `params.arguments` was read twice, once
 * to check and once to send, so caller code could send something other than
 * what was checked. The MCP seam checks a copy read once and sends that copy.
 */
import { expect } from 'chai';
import { staticValueSet } from '@argcheck/core';
import { ToolArgumentInstrumentation } from '../../src/instrumentation.js';
import { REASON_CODES } from '@argcheck/testing/shop';
import { clientV2InMemory, sdkV1InMemory } from '@argcheck/testing/shop';

/** Gives `first` on the first read, `then` on every later one. */
function flipping<T>(first: T, then: T): () => T {
  let reads = 0;
  return () => (reads++ === 0 ? first : then);
}

for (const line of [sdkV1InMemory, clientV2InMemory]) {
  describe(`regression: MCP call arguments were read twice — ${line.name}`, () => {
    let inst: ToolArgumentInstrumentation;
    beforeEach(async () => {
      inst = new ToolArgumentInstrumentation({
        mode: 'reject',
        valueSets: { reasons: staticValueSet(REASON_CODES) },
        checkedArguments: { refund_order: { reason_code: 'reasons' } },
        mcp: { enabled: false, deriveValueSets: false },
        frameworks: { enabled: false },
      });
      await inst.ready();
    });
    afterEach(() => {
      inst.disable();
      inst.close();
    });

    it('sends what it checked: a getter on arguments, on a value, and a Proxy', async () => {
      const shop = await line.connect({ instrument: (c) => inst.instrumentMcpClient(c) });
      try {
        const argumentsGetter = flipping(
          { order_id: 'o-1', reason_code: 'DAMAGED' },
          { order_id: 'o-1', reason_code: 'INVENTED' },
        );
        await shop.client.callTool({
          name: 'refund_order',
          get arguments() {
            return argumentsGetter();
          },
        });
        const valueGetter = flipping('LATE', 'INVENTED');
        await shop.client.callTool({
          name: 'refund_order',
          arguments: {
            order_id: 'o-2',
            get reason_code() {
              return valueGetter();
            },
          },
        });
        const trapGetter = flipping<unknown>('DAMAGED', 'INVENTED');
        await shop.client.callTool({
          name: 'refund_order',
          arguments: new Proxy(
            { order_id: 'o-3', reason_code: 'x' },
            {
              get: (target, key): unknown =>
                key === 'reason_code' ? trapGetter() : (Reflect.get(target, key) as unknown),
            },
          ),
        });
        expect(shop.received()).to.deep.equal([
          { name: 'refund_order', arguments: { order_id: 'o-1', reason_code: 'DAMAGED' } },
          { name: 'refund_order', arguments: { order_id: 'o-2', reason_code: 'LATE' } },
          { name: 'refund_order', arguments: { order_id: 'o-3', reason_code: 'DAMAGED' } },
        ]);
      } finally {
        await shop.close();
      }
    });
  });
}
