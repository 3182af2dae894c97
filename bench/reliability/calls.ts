// Concurrency and MCP calls, through the real provider, checker and
// instrumentation.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { createArgumentChecker, createValueSetProvider, httpValueSet } from '@argcheck/core';
import { ManualClock } from '@argcheck/testing/clock';
import { num } from '../lib/report.js';
import { CHECKED, CODES, callsChanged, instrumented, loopbackOwner, refunds } from './harness.js';
import { test, type FaultRow } from './table.js';

export const concurrency: FaultRow[] = [
  {
    area: 'Concurrency',
    fault: '1,000 checks arrive together on a cold set',
    expected:
      'Exactly one fetch; every check answers at once (`unavailable: cold`) and the call goes out.',
    provedBy: [
      test(
        'packages/core/test/provider/get.test.ts',
        'starts exactly one fetch for 1,000 concurrent get() calls on a cold set',
      ),
      test(
        'packages/core/test/checker/owner-faults.test.ts',
        '1,000 checks on a cold set start exactly one fetch',
      ),
    ],
    async measure() {
      const owner = await loopbackOwner();
      const provider = createValueSetProvider({
        sources: { refunds: httpValueSet(owner.url) },
        clock: new ManualClock(),
      });
      const checker = createArgumentChecker({ valueSets: provider, checkedArguments: CHECKED });
      const inputs = Array.from({ length: 1_000 }, () => ({ reason_code: 'LATE' }));
      const outcomes = await Promise.all(
        inputs.map((args) => Promise.resolve().then(() => checker.check('refund_order', args))),
      );
      await provider.ready();
      const cold = outcomes.filter((o) => {
        const f = o.findings[0];
        return f?.status === 'unavailable' && f.reason === 'cold';
      }).length;
      const fetches = owner.stats.requests;
      provider.close();
      await owner.close();
      return {
        figure: `${fetches} fetch for 1,000 checks; ${num(cold)} answered \`cold\`; ${callsChanged(outcomes, inputs)} calls changed`,
        data: { fetches, cold },
      };
    },
  },
  {
    area: 'Concurrency',
    fault: '`refresh()` and `get()` hammered while a load is in flight',
    expected: 'Single flight: one load per set at a time; every caller joins it.',
    provedBy: [
      test(
        'packages/core/test/provider/refresh.test.ts',
        'keeps one load in flight however often refresh() and get() are called',
      ),
    ],
    async measure() {
      let loads = 0;
      let release: () => void = () => undefined;
      const gate = new Promise<void>((r) => (release = r));
      const provider = createValueSetProvider({
        sources: {
          refunds: {
            kind: 'function',
            load: async () => {
              loads += 1;
              await gate;
              return CODES.map((value) => ({ value }));
            },
          },
        },
        clock: new ManualClock(),
      });
      const waits: Promise<unknown>[] = [];
      for (let i = 0; i < 1_000; i++) {
        waits.push(provider.refresh('refunds'));
        provider.get('refunds');
      }
      release();
      await Promise.all(waits);
      provider.close();
      return {
        figure: `${loads} load for 1,000 \`refresh()\` and 1,000 \`get()\` calls`,
        data: { loads },
      };
    },
  },
];

/** An in-memory MCP server with `refund_order`, recording what reaches it. */
async function shop(instrument: (client: Client) => void) {
  const received: string[] = [];
  const server = new McpServer({ name: 'shop', version: '1.0.0' });
  server.registerTool(
    'refund_order',
    { inputSchema: { reason_code: z.string() } },
    ({ reason_code }) => {
      received.push(reason_code);
      return { content: [{ type: 'text', text: 'ok' }] };
    },
  );
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new Client({ name: 'reliability', version: '1.0.0' });
  instrument(client);
  await client.connect(clientSide);
  return {
    client,
    received,
    close: async () => {
      await client.close();
      await server.close();
    },
  };
}

const VALUES = ['LATE', 'late', 'CUSTOMER_UNHAPPY', 'DAMAGD'];

export const mcp: FaultRow[] = [
  {
    area: 'MCP calls',
    fault: 'Reject mode: the model emits values that are not members',
    expected:
      'The call resolves to a tool error carrying the repair message and never reaches the server; members and case variants (rewritten) do.',
    provedBy: [
      test(
        'packages/instrumentation/test/mcp/modes.test.ts',
        'MCP callTool in each mode — @modelcontextprotocol/sdk 1.x over InMemoryTransport mode reject sends what the mode says, and a rejected call never reaches the server',
      ),
      test(
        'packages/instrumentation/test/mcp/modes.test.ts',
        'MCP callTool in each mode — @modelcontextprotocol/client 2.x over InMemoryTransport mode reject sends what the mode says, and a rejected call never reaches the server',
      ),
      test(
        'packages/instrumentation/test/mcp/patch-client.test.ts',
        'resolves a rejection to a tool error without calling the server',
      ),
    ],
    async measure() {
      const t = instrumented({ valueSets: refunds(), checkedArguments: CHECKED, mode: 'reject' });
      await t.inst.ready();
      const s = await shop((c) => t.inst.instrumentMcpClient(c));
      let errors = 0;
      for (let i = 0; i < 400; i++) {
        const r = await s.client.callTool({
          name: 'refund_order',
          arguments: { reason_code: VALUES[i % 4] },
        });
        if (r.isError === true) errors += 1;
      }
      const reached = s.received.length;
      const rewritten = s.received.filter((v) => v === 'LATE').length;
      await s.close();
      await t.close();
      return {
        figure: `${errors} of 400 calls rejected with a repair message; ${reached} reached the server (${rewritten} as \`LATE\`, case variants rewritten); none of the rejected`,
        data: { errors, reached, rewritten },
      };
    },
  },
  {
    area: 'MCP calls',
    fault:
      'Reject mode through `client.experimental.tasks.callToolStream()` (SDK 1.x), which bypasses `callTool`',
    expected:
      'Checked like `callTool`: a rejected call streams one `result` message carrying the repair message and never reaches the server; members and case variants (rewritten) do.',
    provedBy: [
      test(
        'packages/instrumentation/test/mcp/call-tool-stream.test.ts',
        'MCP callToolStream (SDK 1.x experimental tasks) — @modelcontextprotocol/sdk 1.x over InMemoryTransport mode reject checks each call once with the client’s derived sets; a rejection never reaches the server',
      ),
    ],
    async measure() {
      const t = instrumented({ valueSets: refunds(), checkedArguments: CHECKED, mode: 'reject' });
      await t.inst.ready();
      const s = await shop((c) => t.inst.instrumentMcpClient(c));
      let errors = 0;
      let messages = 0;
      for (let i = 0; i < 400; i++) {
        const stream = s.client.experimental.tasks.callToolStream({
          name: 'refund_order',
          arguments: { reason_code: VALUES[i % 4] },
        });
        for await (const m of stream) {
          messages += 1;
          if (m.type === 'result' && m.result.isError === true) errors += 1;
        }
      }
      const reached = s.received.length;
      const rewritten = s.received.filter((v) => v === 'LATE').length;
      const counted = (await t.collect()).sum('tool_argument_value_check');
      await s.close();
      await t.close();
      return {
        figure: `${errors} of 400 streamed calls rejected with a repair message (${messages} messages in all); ${reached} reached the server (${rewritten} as \`LATE\`); ${counted} checks counted`,
        data: { errors, messages, reached, rewritten, counted },
      };
    },
  },
  {
    area: 'MCP calls',
    fault: 'A client patched twice (through its prototype and by `instrumentMcpClient`)',
    expected: 'Each call is checked and counted once.',
    provedBy: [
      test(
        'packages/instrumentation/test/mcp/auto-patch-cjs.test.ts',
        'auto-patching — @modelcontextprotocol/sdk 1.x, CommonJS build (dist/cjs/client/index.js) counts a call once on a client patched through its prototype and by instrumentMcpClient',
      ),
      test(
        'packages/instrumentation/test/mcp/auto-patch-cjs.test.ts',
        'auto-patching — @modelcontextprotocol/client 2.x, CommonJS build (dist/index.cjs) counts a call once on a client patched through its prototype and by instrumentMcpClient',
      ),
    ],
    async measure() {
      const t = instrumented({ valueSets: refunds(), checkedArguments: CHECKED });
      await t.inst.ready();
      const s = await shop((c) => {
        t.inst.instrumentMcpClient(c);
        t.inst.instrumentMcpClient(c);
      });
      for (let i = 0; i < 100; i++)
        await s.client.callTool({ name: 'refund_order', arguments: { reason_code: 'LATE' } });
      const counted = (await t.collect()).sum('tool_argument_value_check');
      await s.close();
      await t.close();
      return { figure: `${counted} checks counted for 100 calls`, data: { counted } };
    },
  },
];
