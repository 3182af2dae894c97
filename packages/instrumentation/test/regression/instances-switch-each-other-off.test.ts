/**
 * Regression: two instrumentations on one MCP client switched each other
 * off. Instance A (checks `refund_order`, reject) and instance B (checks
 * `create_ticket`, reject): A's invented value reached the server, only B
 * rejected. Wrapper marks were kept per patched object, not per
 * instrumentation, and a module-level "forwarding" slot made an inner
 * wrapper pass calls through. Each instance enforces its own configuration.
 */
import { expect } from 'chai';
import { staticValueSet } from '@argcheck/core';
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { ToolArgumentInstrumentation } from '../../src/instrumentation.js';
import { COMPONENTS, REASON_CODES } from '@argcheck/testing/shop';
import { patchModule, unpatchModule } from '../mcp/helpers/recorded.js';
import { sdkV1InMemory } from '@argcheck/testing/shop';
import type { ShopConnection } from '@argcheck/testing/shop';

function instance(tool: string, argument: string, members: readonly string[]) {
  return new ToolArgumentInstrumentation({
    mode: 'reject',
    valueSets: { members: staticValueSet(members) },
    checkedArguments: { [tool]: { [argument]: 'members' } },
    mcp: { deriveValueSets: false },
    frameworks: { enabled: false },
  });
}

describe('regression: two instrumentations on one MCP client switched each other off', () => {
  let a: ToolArgumentInstrumentation;
  let b: ToolArgumentInstrumentation;
  let shop: ShopConnection | undefined;

  beforeEach(async () => {
    a = instance('refund_order', 'reason_code', REASON_CODES);
    b = instance('create_ticket', 'component_id', COMPONENTS);
    await Promise.all([a.ready(), b.ready()]);
  });
  afterEach(async () => {
    unpatchModule(a, { Client: ClientV1 });
    unpatchModule(b, { Client: ClientV1 });
    await shop?.close();
    for (const inst of [a, b]) {
      inst.disable();
      inst.close();
    }
  });

  /** Which of the two invented calls reached the server. */
  const invented = async (connection: ShopConnection) => {
    await connection.client.callTool({
      name: 'refund_order',
      arguments: { order_id: 'o-1', reason_code: 'INVENTED' },
    });
    await connection.client.callTool({
      name: 'create_ticket',
      arguments: { title: 't', component_id: 'invented-api' },
    });
    return connection.received().map((c) => c.name);
  };

  it('both enforce on a client each instruments', async () => {
    shop = await sdkV1InMemory.connect({
      instrument: (client) => {
        a.instrumentMcpClient(client);
        b.instrumentMcpClient(client);
      },
    });
    expect(await invented(shop)).to.deep.equal([]);
  });

  it('both enforce on the client class both patch, and on a client one of them also instruments', async () => {
    patchModule(a, { Client: ClientV1 });
    patchModule(b, { Client: ClientV1 });
    shop = await sdkV1InMemory.connect({ instrument: (client) => a.instrumentMcpClient(client) });
    expect(await invented(shop)).to.deep.equal([]);
    // One instance disabled: the other still enforces.
    b.disable();
    expect(await invented(shop)).to.deep.equal(['create_ticket']);
  });
});
