import { expect } from 'chai';
import { createHash } from 'node:crypto';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { pointsOf } from '@argcheck/testing/metrics';
import { REASON_CODES, REASON_SET, clientV2InMemory, sdkV1InMemory } from '@argcheck/testing/shop';
import { canonicalJson } from '../../src/catalog/tool-definitions.js';
import {
  EVENT_TOOL_ARGUMENT_TOOL_DEFINITION,
  METRIC_TOOL_ARGUMENT_REPAIR_OUTCOME,
  METRIC_TOOL_ARGUMENT_REPAIR_STARTED,
  METRIC_TOOL_ARGUMENT_VALUE_CHECK,
} from '../../src/semconv.js';
import { harness } from '../helpers/telemetry.js';
import type { Harness } from '../helpers/telemetry.js';
import {
  REFUND_ARGUMENTS,
  inSet,
  refundSeries,
  refundSources,
  series,
} from '../helpers/fixtures.js';

interface Listed {
  name: string;
  description?: string;
  inputSchema?: unknown;
}

/** `tool_definition` of a tool as the server listed it (docs/telemetry.md). */
const sorted = <T extends { attributes: object }>(points: T[]) =>
  [...points].sort((a, b) =>
    JSON.stringify(a.attributes).localeCompare(JSON.stringify(b.attributes)),
  );

const definition = (tool: Listed) =>
  createHash('sha256')
    .update(JSON.stringify([tool.description ?? '', canonicalJson(tool.inputSchema)]))
    .digest('hex')
    .slice(0, 12);

for (const line of [sdkV1InMemory, clientV2InMemory]) {
  describe(`attribution of MCP calls — ${line.name}`, function () {
    this.timeout(20_000);
    let h: Harness;
    afterEach(() => h.close());

    it('names the listed definition; a changed schema is a second value while both are counted', async () => {
      h = harness({ mcp: { enabled: false }, attribution: { model: 'gpt-5' }, logSampleRatio: 1 });
      let relisted: (tools: unknown[] | null) => void = () => undefined;
      const connection = await line.connect({
        instrument: (c) => h.inst.instrumentMcpClient(c),
        onToolsChanged: (_error, tools) => relisted(tools),
      });
      const refund = (code: string) =>
        connection.client.callTool({
          name: 'refund_order',
          arguments: { order_id: 'o-1', reason_code: code },
        });
      const listTools = async () =>
        (await connection.client.listTools()).tools.find(
          (t) => (t as Listed).name === 'refund_order',
        ) as Listed;

      const before = await listTools();
      await refund('LATE');
      await refund('WRONG_ITEM');
      const changed = new Promise<unknown[] | null>((resolve) => (relisted = resolve));
      connection.setReasonCodes?.([...REASON_CODES, 'WRONG_ITEM']);
      await changed;
      const after = await listTools();
      await refund('WRONG_ITEM');

      const by = (tool: Listed) => ({
        'gen_ai.request.model': 'gpt-5',
        tool_definition: definition(tool),
      });
      expect(definition(before)).to.not.equal(definition(after));
      const points = pointsOf(await h.collect(), METRIC_TOOL_ARGUMENT_VALUE_CHECK);
      const check = (tool: Listed, member: boolean) =>
        series('refund_order', 'reason_code', REASON_SET, {
          ...by(tool),
          ...inSet(member, member),
        });
      expect(sorted(points)).to.deep.equal(
        sorted([
          { attributes: check(before, false), value: 1 },
          { attributes: check(before, true), value: 1 },
          { attributes: check(after, true), value: 1 },
        ]),
      );
      // Which text each value stands for, once per value.
      const definitions = h
        .records()
        .filter((r) => r.eventName === EVENT_TOOL_ARGUMENT_TOOL_DEFINITION)
        .map((r) => r.attributes);
      expect(definitions).to.deep.equal(
        [before, after].map((tool) => ({
          tool: 'refund_order',
          tool_definition: definition(tool),
          tool_description: tool.description ?? '',
          tool_input_schema: canonicalJson(tool.inputSchema),
        })),
      );
      await connection.close();
    });

    it('reject mode: a rejected call and its retry on the same client, the retry resolving', async () => {
      h = harness({ mcp: { enabled: false }, mode: 'reject', logSampleRatio: 0, attribution: {} });
      const connection = await line.connect({ instrument: (c) => h.inst.instrumentMcpClient(c) });
      const listed = (await connection.client.listTools()).tools.find(
        (t) => (t as Listed).name === 'refund_order',
      ) as Listed;
      const toolDefinition = definition(listed);
      const refund = (code: string) =>
        connection.client.callTool({
          name: 'refund_order',
          arguments: { order_id: 'o-1', reason_code: code },
        });
      await h.inst.withAttribution({ model: 'gpt-5' }, async () => {
        await refund('CUSTOMER_UNHAPPY');
        await refund('CUSTOMER_UNHAPPY');
        await refund('LATE');
      });
      const outcomes = pointsOf(await h.collect(), METRIC_TOOL_ARGUMENT_REPAIR_OUTCOME);
      expect(sorted(outcomes)).to.deep.equal(
        sorted(
          ['repeated', 'resolved'].map((outcome) => ({
            attributes: series('refund_order', 'reason_code', REASON_SET, {
              'gen_ai.request.model': 'gpt-5',
              tool_definition: toolDefinition,
              outcome,
            }),
            value: 1,
          })),
        ),
      );
      await connection.close();
    });
  });
}

describe('attribution of MCP calls — same-named tools of two servers (decision 0028)', () => {
  let h: Harness;
  afterEach(() => h.close());

  /** A real SDK server listing one `refund_order` with this description; every call answers ok. */
  async function serve(serverName: string, description: string) {
    const listed = {
      name: 'refund_order',
      description,
      inputSchema: {
        type: 'object',
        properties: { reason_code: { type: 'string', enum: ['DAMAGED', 'LATE'] } },
      },
    };
    const server = new Server({ name: serverName, version: '1.0.0' }, { capabilities: { tools: {} } });
    server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: [listed] }));
    server.setRequestHandler(CallToolRequestSchema, () => ({ content: [{ type: 'text', text: 'ok' }] }));
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await server.connect(serverSide);
    const client = new Client({ name: 'argcheck-test', version: '0.0.0' });
    h.inst.instrumentMcpClient(client);
    await client.connect(clientSide);
    await client.listTools();
    return { client, listed };
  } // prettier-ignore

  it('a relisting that changes only the description: the next call on the same client names the new definition', async () => {
    // Nothing is derived (a configured set, derivation off), so only the listing itself changes.
    h = harness({
      mcp: { enabled: false, deriveValueSets: false },
      attribution: {},
      logSampleRatio: 0,
      valueSets: refundSources(),
      checkedArguments: REFUND_ARGUMENTS,
    });
    await h.inst.ready();
    let listed: Listed = {
      name: 'refund_order',
      description: 'Refund an order.',
      inputSchema: { type: 'object', properties: { reason_code: { type: 'string' } } },
    };
    const server = new Server({ name: 'shop', version: '1.0.0' }, { capabilities: { tools: {} } });
    server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: [listed] }));
    server.setRequestHandler(CallToolRequestSchema, () => ({
      content: [{ type: 'text', text: 'ok' }],
    }));
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await server.connect(serverSide);
    const client = new Client({ name: 'argcheck-test', version: '0.0.0' });
    h.inst.instrumentMcpClient(client);
    await client.connect(clientSide);
    const refund = () =>
      client.callTool({ name: 'refund_order', arguments: { reason_code: 'DAMAGED' } });
    await client.listTools();
    const before = listed;
    await refund();
    await refund();
    listed = { ...listed, description: 'Refund an order; the reason decides the refund.' };
    await client.listTools();
    await refund();
    const check = (tool: Listed) =>
      refundSeries({ tool_definition: definition(tool), ...inSet(true, true) });
    expect(definition(before)).to.not.equal(definition(listed));
    expect(sorted(pointsOf(await h.collect(), METRIC_TOOL_ARGUMENT_VALUE_CHECK))).to.deep.equal(
      sorted([
        { attributes: check(before), value: 2 },
        { attributes: check(listed), value: 1 },
      ]),
    );
    await client.close();
  });

  it('stay apart: checks by their derived set, repairs by their tool definition; identical listings merge', async () => {
    h = harness({ mcp: { enabled: false }, mode: 'reject', logSampleRatio: 0, attribution: {} });
    const eu = await serve('shop-eu', 'Refund an EU order.');
    const us = await serve('shop-us', 'Refund a US order.');
    const replica = await serve('shop-us', 'Refund a US order.');
    await h.inst.ready();
    for (const { client } of [eu, us, replica]) {
      await client.callTool({
        name: 'refund_order',
        arguments: { reason_code: 'CUSTOMER_UNHAPPY' },
      });
    }
    const collected = await h.collect();
    const definitionOf = (tool: Listed) => ({ tool_definition: definition(tool) });
    expect(pointsOf(collected, METRIC_TOOL_ARGUMENT_REPAIR_STARTED)).to.deep.equal(
      sorted([
        { attributes: { tool: 'refund_order', ...definitionOf(eu.listed) }, value: 1 },
        { attributes: { tool: 'refund_order', ...definitionOf(us.listed) }, value: 2 },
      ]),
    );
    const check = (server: string, tool: Listed) =>
      series('refund_order', 'reason_code', `mcp:${server}/refund_order.reason_code`, {
        ...definitionOf(tool),
        ...inSet(false, false),
      });
    expect(pointsOf(collected, METRIC_TOOL_ARGUMENT_VALUE_CHECK)).to.deep.equal(
      sorted([
        { attributes: check('shop-eu', eu.listed), value: 1 },
        { attributes: check('shop-us', us.listed), value: 2 },
      ]),
    );
    for (const { client } of [eu, us, replica]) await client.close();
  });
});
