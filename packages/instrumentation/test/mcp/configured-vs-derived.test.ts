import { expect } from 'chai';
import { CONFIGURED_ARGUMENTS, CONFIGURED_SETS, WAREHOUSE_SET } from '@argcheck/testing/shop';
import { recorded } from './helpers/recorded.js';
import type { RecordedOptions } from './helpers/recorded.js';
import { clientV2InMemory, sdkV1InMemory } from '@argcheck/testing/shop';

for (const line of [sdkV1InMemory, clientV2InMemory]) {
  describe(`configured and derived arguments together — ${line.name}`, () => {
    async function callsAfterListing(options: RecordedOptions) {
      const host = recorded(options);
      const connection = await line.connect({
        instrument: (c) => host.inst.instrumentMcpClient(c),
      });
      await connection.client.listTools();
      await host.settled();
      await connection.client.callTool({
        name: 'refund_order',
        arguments: { order_id: 'o-1', reason_code: 'LATE' },
      });
      const catalog = host.catalogFor(connection.client);
      await connection.close();
      host.close();
      return { ...host, catalog };
    }

    it('derives only what the configuration leaves open', async () => {
      const host = await callsAfterListing({
        valueSets: { ...CONFIGURED_SETS, reasons: ['LATE'] },
        checkedArguments: { ...CONFIGURED_ARGUMENTS, refund_order: { reason_code: 'reasons' } },
      });
      expect(host.catalog).to.deep.equal({
        checkedArguments: { transfer_stock: { 'items[].warehouse_code': WAREHOUSE_SET } },
        sets: { [WAREHOUSE_SET]: ['AMS1', 'BER2', 'CDG3'] },
      });
      expect(host.checks.map((c) => c.outcome.findings.map((f) => f.set))).to.deep.equal([
        ['reasons'],
      ]);
    });

    it('with mcp.deriveValueSets off, checks the configured arguments alone', async () => {
      const host = await callsAfterListing({ deriveValueSets: false });
      expect(host.catalog).to.equal(undefined);
      expect(host.checks.map((c) => [c.engine, c.outcome.findings])).to.deep.equal([
        ['configured', []],
      ]);
    });

    it('before the first listing, the configured engine checks', async () => {
      const host = recorded();
      const connection = await line.connect({
        instrument: (c) => host.inst.instrumentMcpClient(c),
      });
      await connection.client.callTool({
        name: 'refund_order',
        arguments: { order_id: 'o-1', reason_code: 'LATE' },
      });
      expect(host.checks.map((c) => c.engine)).to.deep.equal(['configured']);
      await connection.close();
      host.close();
    });
  });
}
