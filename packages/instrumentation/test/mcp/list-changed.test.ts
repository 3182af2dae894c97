import { expect } from 'chai';
import { REASON_CODES, REASON_SET } from '@argcheck/testing/shop';
import { recorded } from './helpers/recorded.js';
import { clientV2InMemory, sdkV1InMemory } from '@argcheck/testing/shop';

for (const line of [sdkV1InMemory, clientV2InMemory]) {
  describe(`notifications/tools/list_changed — ${line.name}`, () => {
    it('re-derives when the server adds an enum member and the client re-lists', async () => {
      const host = recorded({ mode: 'observe' });
      const derived: unknown[] = [];
      let relisted: (tools: unknown[] | null) => void = () => undefined;
      const connection = await line.connect({
        instrument: (c) => host.inst.instrumentMcpClient(c),
        onToolsChanged: (_error, tools) => relisted(tools),
      });
      const refund = () =>
        connection.client.callTool({
          name: 'refund_order',
          arguments: { order_id: 'o-1', reason_code: 'WRONG_ITEM' },
        });
      const finding = () => {
        const f = host.checks.at(-1)?.outcome.findings[0];
        return f && { set: f.set, inSet: f.status === 'checked' && f.inSet };
      };

      await connection.client.listTools();
      derived.push(host.catalogFor(connection.client)?.sets[REASON_SET]);
      await refund();
      expect(finding()).to.deep.equal({ set: REASON_SET, inSet: false });

      const changed = new Promise<unknown[] | null>((resolve) => (relisted = resolve));
      connection.setReasonCodes?.([...REASON_CODES, 'WRONG_ITEM']);
      // The SDK re-lists on the notification and calls onChanged with the result,
      // which our listTools wrapper has already derived from (and waited on).
      expect(await changed).to.be.an('array');
      derived.push(host.catalogFor(connection.client)?.sets[REASON_SET]);
      await refund();
      expect(finding()).to.deep.equal({ set: REASON_SET, inSet: true });

      // Each listing derived the client's own catalog (its sets are keyed by the client).
      expect(derived).to.deep.equal([[...REASON_CODES], [...REASON_CODES, 'WRONG_ITEM']]);
      await connection.close();
      host.close();
    });
  });
}
