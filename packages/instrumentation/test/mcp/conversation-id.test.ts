import { expect } from 'chai';
import { context, propagation } from '@opentelemetry/api';
import { recorded } from './helpers/recorded.js';
import { clientV2InMemory, sdkV1InMemory } from '@argcheck/testing/shop';
import { StackContextManager } from './helpers/stack-context-manager.js';

for (const line of [sdkV1InMemory, clientV2InMemory]) {
  describe(`conversation and tool call ids on real calls — ${line.name}`, () => {
    before(() => {
      context.setGlobalContextManager(new StackContextManager());
    });
    after(() => {
      context.disable();
    });

    it('takes _meta, then OpenTelemetry baggage, and leaves the rest to the engine', async () => {
      const host = recorded({ readContext: 'at-call' });
      const connection = await line.connect({
        instrument: (c) => host.inst.instrumentMcpClient(c),
      });
      const args = { order_id: 'o-1', reason_code: 'LATE' };

      await connection.client.callTool({
        name: 'refund_order',
        arguments: args,
        _meta: { 'gen_ai.conversation.id': 'from-meta', 'gen_ai.tool.call.id': 'call-1' },
      });
      const baggage = propagation.createBaggage({
        'gen_ai.conversation.id': { value: 'from-baggage' },
      });
      await context.with(propagation.setBaggage(context.active(), baggage), () =>
        connection.client.callTool({ name: 'refund_order', arguments: args }),
      );
      await connection.client.callTool({ name: 'refund_order', arguments: args });

      expect(host.checks.map((c) => c.ctx)).to.deep.equal([
        { conversationId: 'from-meta', toolCallId: 'call-1' },
        { conversationId: 'from-baggage' },
        {},
      ]);
      await connection.close();
      host.close();
    });
  });
}
