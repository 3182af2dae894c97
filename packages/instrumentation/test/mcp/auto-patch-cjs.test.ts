import { createRequire } from 'node:module';
import { expect } from 'chai';
import { isWrapped, registerInstrumentations } from '@opentelemetry/instrumentation';
import { CONFIGURED_ARGUMENTS, CONFIGURED_SETS } from '@argcheck/testing/shop';
import { createShopServerV1 } from '@argcheck/testing/shop';
import { createShopServerV2 } from '@argcheck/testing/shop';
import { recorded } from './helpers/recorded.js';
import type { Recorded } from './helpers/recorded.js';
import type { ShopClient } from '@argcheck/testing/shop';
import { recordFigure } from '@argcheck/testing/figures';

const require = createRequire(import.meta.url);

interface ClientModule {
  Client: (new (
    info: object,
    options?: object,
  ) => ShopClient & {
    connect(t: unknown): Promise<void>;
  }) & { prototype: Record<string, unknown> };
}

interface Line {
  name: string;
  /** The specifier an application requires, and how to link a server to it. */
  specifier: string;
  inMemory: string;
  serve: (transport: never) => Promise<void>;
}

const LINES: Line[] = [
  {
    name: '@modelcontextprotocol/sdk 1.x, CommonJS build (dist/cjs/client/index.js)',
    specifier: '@modelcontextprotocol/sdk/client/index.js',
    inMemory: '@modelcontextprotocol/sdk/inMemory.js',
    serve: (t) => createShopServerV1().connect(t),
  },
  {
    name: '@modelcontextprotocol/client 2.x, CommonJS build (dist/index.cjs)',
    specifier: '@modelcontextprotocol/client',
    inMemory: '@modelcontextprotocol/client',
    serve: (t) => createShopServerV2().connect(t),
  },
];

/** A fresh load of `specifier`, so the hooks see it even if an earlier test required it. */
function freshRequire<T>(specifier: string): T {
  delete require.cache[require.resolve(specifier)];
  return require(specifier) as T;
}

for (const line of LINES) {
  describe(`auto-patching — ${line.name}`, function () {
    // The first CommonJS load of an SDK build reads hundreds of files.
    this.timeout(20_000);

    let host: Recorded;
    let instrumentation: Recorded['inst'];
    let unregister: () => void;

    beforeEach(() => {
      host = recorded({
        mode: 'reject',
        valueSets: CONFIGURED_SETS,
        checkedArguments: CONFIGURED_ARGUMENTS,
        autoPatch: true,
      });
      instrumentation = host.inst;
      unregister = registerInstrumentations({ instrumentations: [instrumentation] });
    });

    afterEach(() => {
      unregister();
      host.close();
    });

    async function connect(Client: ClientModule['Client']): Promise<ShopClient> {
      const { InMemoryTransport } = require(line.inMemory) as {
        InMemoryTransport: { createLinkedPair(): [never, never] };
      };
      const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
      await line.serve(serverSide);
      const client = new Client({ name: 'cjs-test', version: '0' });
      await client.connect(clientSide);
      await client.listTools();
      await host.settled();
      return client;
    }

    it('patches Client.prototype.callTool and listTools when the client is required after registration', async () => {
      const { Client } = freshRequire<ClientModule>(line.specifier);
      expect(isWrapped(Client.prototype.callTool), 'callTool').to.equal(true);
      expect(isWrapped(Client.prototype.listTools), 'listTools').to.equal(true);

      const client = await connect(Client);
      const result = await client.callTool({
        name: 'create_ticket',
        arguments: { title: 't', component_id: 'payments' },
      });
      expect(host.checks.map((c) => [c.tool, c.outcome.action])).to.deep.equal([
        ['create_ticket', 'reject'],
      ]);
      expect(result).to.have.property('isError', true);
      await client.close();
    });

    it('counts a call once on a client patched through its prototype and by instrumentMcpClient', async () => {
      const { Client } = freshRequire<ClientModule>(line.specifier);
      const client = await connect(Client);
      instrumentation.instrumentMcpClient(client);
      instrumentation.instrumentMcpClient(client);
      await client.callTool({
        name: 'refund_order',
        arguments: { order_id: '1', reason_code: 'LATE' },
      });
      expect(host.checks.map((c) => c.tool)).to.deep.equal(['refund_order']);
      recordFigure(
        'mcp-patched-twice',
        `${host.checks.length} check for 1 call through a client patched through its prototype and twice by \`instrumentMcpClient\``,
      );
      await client.close();
    });

    if (line.specifier.startsWith('@modelcontextprotocol/sdk/')) {
      it('patches experimental.tasks.callToolStream with the client class, and unpatches it on disable()', async () => {
        const { Client } = freshRequire<ClientModule>(line.specifier);
        const client = await connect(Client);
        const tasks = (client as unknown as { experimental: { tasks: object } }).experimental.tasks;
        const tasksProto = Object.getPrototypeOf(tasks) as Record<string, unknown>;
        expect(isWrapped(tasksProto.callToolStream), 'patched').to.equal(true);

        const callToolStream = (tasks as Record<string, unknown>).callToolStream as (
          this: object,
          params: object,
        ) => AsyncIterable<{ type: string; result?: { isError?: boolean } }>;
        const messages = [];
        for await (const m of callToolStream.call(tasks, {
          name: 'create_ticket',
          arguments: { title: 't', component_id: 'payments' },
        })) {
          messages.push(m);
        }
        expect(host.checks.map((c) => [c.tool, c.outcome.action])).to.deep.equal([
          ['create_ticket', 'reject'],
        ]);
        expect(messages.map((m) => [m.type, m.result?.isError])).to.deep.equal([['result', true]]);

        instrumentation.disable();
        expect(isWrapped(tasksProto.callToolStream), 'after disable()').to.equal(false);
        await client.close();
      });
    }

    it('unpatches on disable() and patches again on enable()', () => {
      const { Client } = freshRequire<ClientModule>(line.specifier);
      instrumentation.disable();
      expect(isWrapped(Client.prototype.callTool)).to.equal(false);
      expect(isWrapped(Client.prototype.listTools)).to.equal(false);
      instrumentation.enable();
      expect(isWrapped(Client.prototype.callTool)).to.equal(true);
    });
  });
}
