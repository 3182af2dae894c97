import { createRequire } from 'node:module';
import { expect } from 'chai';
import { isWrapped } from '@opentelemetry/instrumentation';
import { staticValueSet } from '@argcheck/core';
import {
  ATTR_ARGUMENT,
  ATTR_IN_SET,
  ATTR_IN_SET_NORMALISED,
  ATTR_SET,
  ATTR_TOOL,
  METRIC_TOOL_ARGUMENT_REPAIR_STARTED,
  METRIC_TOOL_ARGUMENT_VALUE_CHECK,
} from '../../src/semconv.js';
import { harness } from '../helpers/telemetry.js';
import { pointsOf } from '@argcheck/testing/metrics';
import type { Harness } from '../helpers/telemetry.js';
import { COMPONENTS, CONFIGURED_ARGUMENTS } from '@argcheck/testing/shop';
import { createShopServerV1 } from '@argcheck/testing/shop';
import { createShopServerV2 } from '@argcheck/testing/shop';
import type { ShopClient } from '@argcheck/testing/shop';

const require = createRequire(import.meta.url);

type ClientClass = (new (info: object) => ShopClient & { connect(t: unknown): Promise<void> }) & {
  prototype: Record<string, unknown>;
};

const LINES = [
  {
    name: '@modelcontextprotocol/sdk 1.x (CommonJS)',
    client: '@modelcontextprotocol/sdk/client/index.js',
    inMemory: '@modelcontextprotocol/sdk/inMemory.js',
    server: createShopServerV1,
  },
  {
    name: '@modelcontextprotocol/client 2.x (CommonJS)',
    client: '@modelcontextprotocol/client',
    inMemory: '@modelcontextprotocol/client',
    server: createShopServerV2,
  },
];

for (const line of LINES) {
  describe(`ToolArgumentInstrumentation auto-patching — ${line.name}`, () => {
    let h: Harness;
    afterEach(() => h.close());

    it('patches a client required after registerInstrumentations, and counts a doubly patched call once', async () => {
      h = harness({
        valueSets: { components: staticValueSet(COMPONENTS) },
        checkedArguments: CONFIGURED_ARGUMENTS,
        mode: 'reject',
        logSampleRatio: 0,
        mcp: { enabled: true },
      });
      await h.inst.ready();
      // A fresh load, so the hooks see it even if an earlier test required it.
      delete require.cache[require.resolve(line.client)];
      const { Client } = require(line.client) as { Client: ClientClass };
      expect(isWrapped(Client.prototype.callTool)).to.equal(true);

      const { InMemoryTransport } = require(line.inMemory) as {
        InMemoryTransport: { createLinkedPair(): [never, never] };
      };
      const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
      const shop = line.server();
      await shop.connect(serverSide);
      const client = new Client({ name: 'e2e', version: '0' });
      h.inst.instrumentMcpClient(client);
      await client.connect(clientSide);
      const result = await client.callTool({
        name: 'create_ticket',
        arguments: { title: 't', component_id: 'payments' },
      });
      await client.close();

      expect(result).to.have.property('isError', true);
      expect(shop.received).to.deep.equal([]);
      const collected = await h.collect();
      expect(pointsOf(collected, METRIC_TOOL_ARGUMENT_VALUE_CHECK)).to.deep.equal([
        {
          attributes: {
            [ATTR_TOOL]: 'create_ticket',
            [ATTR_ARGUMENT]: 'component_id',
            [ATTR_SET]: 'components',
            [ATTR_IN_SET]: 'false',
            [ATTR_IN_SET_NORMALISED]: 'false',
          },
          value: 1,
        },
      ]);
      expect(pointsOf(collected, METRIC_TOOL_ARGUMENT_REPAIR_STARTED)).to.deep.equal([
        { attributes: { [ATTR_TOOL]: 'create_ticket' }, value: 1 },
      ]);
    });
  });
}
