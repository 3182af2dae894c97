import { expect } from 'chai';
import { staticValueSet } from '@argcheck/core';
import type { CheckOutcome } from '@argcheck/core';
import {
  METRIC_TOOL_ARGUMENT_VALUE_CHECK,
  METRIC_TOOL_ARGUMENT_VALUE_SET_FETCH,
  METRIC_TOOL_ARGUMENT_VALUE_SET_SIZE,
} from '../../src/semconv.js';
import { captureDiag } from '@argcheck/testing/diag';
import type { CapturedDiag } from '@argcheck/testing/diag';
import { ManualClock } from '@argcheck/testing/clock';
import {
  inSet,
  REFUND_ARGUMENTS,
  refundSeries,
  refundSources,
  REFUNDS,
  series,
  setSeries,
} from '../helpers/fixtures.js';
import { harness } from '../helpers/telemetry.js';
import { pointsOf } from '@argcheck/testing/metrics';
import type { Harness } from '../helpers/telemetry.js';
import { engineOf } from '../mcp/helpers/recorded.js';
import { fakeClientClass } from '../mcp/helpers/scripted-engine.js';

/** A tool whose input schema has a string enum per entry of `enums`. */
const tool = (name: string, enums: Record<string, readonly string[]>) => ({
  name,
  inputSchema: {
    type: 'object',
    properties: Object.fromEntries(
      Object.entries(enums).map(([k, v]) => [k, { type: 'string', enum: v }]),
    ),
  },
});

const PRIORITY = 'mcp:fake/create_ticket.priority';
const priority = (extra: Record<string, string>) =>
  series('create_ticket', 'priority', PRIORITY, extra);
const FakeClient = fakeClientClass();

describe('value sets derived from a tool catalog', () => {
  let h: Harness;
  let diagnostics: CapturedDiag;

  async function setUp(mcp: { maxCheckedArguments?: number; deriveValueSets?: boolean } = {}) {
    diagnostics = captureDiag();
    h = harness({
      valueSets: refundSources(),
      checkedArguments: REFUND_ARGUMENTS,
      clock: new ManualClock(),
      mcp: { enabled: false, ...mcp },
    });
    await h.inst.ready();
  }

  /** A client instrumented like an application's, listing `tools`; resolves when its sets are in use. */
  async function clientListing(...tools: unknown[]) {
    const client = new FakeClient();
    h.inst.instrumentMcpClient(client);
    client.tools = tools;
    await client.listTools();
    return client;
  }

  const engine = () => engineOf(h.inst);
  /** A call on `scope` as an MCP client's wrapper puts it to the engine. */
  const checkIn = (tool: string, args: unknown, scope: object): CheckOutcome =>
    engine().decide({ tool, args, scope, integration: 'mcp' }).outcome as CheckOutcome;
  const warnings = () =>
    diagnostics.messages.filter((m) => m.level === 'warn').map((m) => m.message);

  afterEach(async () => {
    diagnostics.restore();
    await h.close();
  });

  it('checks derived arguments against the catalog members, with series from the catalog', async () => {
    await setUp();
    const client = await clientListing(tool('create_ticket', { priority: ['low', 'high'] }));
    expect(checkIn('create_ticket', { priority: 'urgent' }, client).findings).to.deep.equal([
      {
        argument: 'priority',
        set: PRIORITY,
        value: 'urgent',
        status: 'checked',
        inSet: false,
        inSetNormalised: false,
        shape: 'invented',
      },
    ]);
    await client.callTool({ name: 'create_ticket', arguments: { priority: 'low' } });
    await client.callTool({ name: 'refund_order', arguments: { reason_code: 'LATE' } });
    const collected = await h.collect();
    expect(pointsOf(collected, METRIC_TOOL_ARGUMENT_VALUE_CHECK)).to.deep.equal([
      { attributes: priority(inSet(false, false)), value: 1 },
      { attributes: priority(inSet(true, true)), value: 1 },
      { attributes: refundSeries(inSet(true, true)), value: 1 },
    ]);
    expect(pointsOf(collected, METRIC_TOOL_ARGUMENT_VALUE_SET_SIZE)).to.deep.equal([
      { attributes: setSeries(PRIORITY, 'tool_schema'), value: 2 },
      { attributes: setSeries(REFUNDS, 'static'), value: 4 },
    ]);
  });

  it('keeps checking with the previous catalog until the new one is ready, then swaps', async () => {
    await setUp();
    const scope = {};
    const check = (value: string) => checkIn('create_ticket', { priority: value }, scope).findings;
    const first = engine().toolsListed(scope, {
      tools: [tool('create_ticket', { priority: ['low'] })],
    });
    expect(check('low')).to.deep.equal([]);
    await first;
    expect(check('low')[0]).to.include({ status: 'checked', inSet: true });
    const second = engine().toolsListed(scope, {
      tools: [tool('create_ticket', { priority: ['low', 'high'] })],
    });
    expect(check('high')[0]).to.include({ status: 'checked', inSet: false });
    await second;
    expect(check('high')[0]).to.include({ status: 'checked', inSet: true });
  });

  it('builds once per distinct catalog, and only from the sets it checks', async () => {
    await setUp();
    const client = new FakeClient();
    h.inst.instrumentMcpClient(client);
    client.tools = [tool('t', { a: ['x'] })];
    await client.listTools();
    await client.listTools();
    client.tools = [tool('t', { a: ['x', 'y'] })];
    expect(await client.listTools()).to.deep.equal({ tools: client.tools });
    expect(engine().catalogFor(client)).to.deep.equal({
      checkedArguments: { t: { a: 'mcp:fake/t.a' } },
      sets: { 'mcp:fake/t.a': ['x', 'y'] },
    });
    const fetches = pointsOf(await h.collect(), METRIC_TOOL_ARGUMENT_VALUE_SET_FETCH);
    expect(fetches.map((p) => [p.attributes, p.value])).to.deep.equal([
      [{ set: 'mcp:fake/t.a', source: 'tool_schema', outcome: 'success' }, 2],
      [{ set: REFUNDS, source: 'static', outcome: 'success' }, 1],
    ]);
  });

  it('accumulates pages listed with a cursor and starts over without one', async () => {
    await setUp();
    const client = new FakeClient();
    h.inst.instrumentMcpClient(client);
    const derivedSets = () => Object.keys(engine().catalogFor(client)?.sets ?? {});
    const seen: string[][] = [];
    client.tools = [tool('a', { p: ['1'] })];
    await client.listTools();
    seen.push(derivedSets());
    client.tools = [tool('b', { q: ['2'] })];
    await client.listTools({ cursor: 'page-2' });
    seen.push(derivedSets());
    client.tools = [tool('c', { r: ['3'] })];
    await client.listTools();
    seen.push(derivedSets());
    expect(seen).to.deep.equal([
      ['mcp:fake/a.p'],
      ['mcp:fake/a.p', 'mcp:fake/b.q'],
      ['mcp:fake/c.r'],
    ]);
  });

  it('stops checking a catalog that lost all its enums, and derives nothing from none', async () => {
    await setUp();
    const client = await clientListing({ name: 'plain', inputSchema: { type: 'object' } });
    expect(engine().catalogFor(client)).to.equal(undefined);
    client.tools = [tool('t', { a: ['x'] })];
    await client.listTools();
    expect(engine().catalogFor(client)?.sets).to.deep.equal({ 'mcp:fake/t.a': ['x'] });
    client.tools = [];
    await client.listTools();
    expect(engine().catalogFor(client)).to.equal(undefined);
    expect(checkIn('t', { a: 'zzz' }, client).findings).to.deep.equal([]);
  });

  it('leaves arguments the configuration names, and sets named like configured ones, to the configuration', async () => {
    diagnostics = captureDiag();
    h = harness({
      valueSets: { ...refundSources(), 'mcp:fake/ship.code': staticValueSet(['LATE']) },
      checkedArguments: { ...REFUND_ARGUMENTS, route: { code: 'mcp:fake/ship.code' } },
      clock: new ManualClock(),
      mcp: { enabled: false },
    });
    await h.inst.ready();
    const client = await clientListing(
      tool('refund_order', { reason_code: ['ONLY_IN_CATALOG'] }),
      tool('ship', { code: ['ONLY_IN_CATALOG'] }),
    );
    const check = (name: string, args: object) => checkIn(name, args, client).findings[0];
    expect(check('refund_order', { reason_code: 'LATE' })).to.include({
      set: REFUNDS,
      inSet: true,
    });
    expect(check('ship', { code: 'LATE' })).to.include({ set: 'mcp:fake/ship.code', inSet: true });
    expect(check('ship', { code: 'ONLY_IN_CATALOG' })).to.include({ inSet: false });
  });

  it('checks at most maxCheckedArguments derived arguments, over all catalogs, and says so once each', async () => {
    await setUp({ maxCheckedArguments: 3 });
    const wide = (prefix: string) =>
      tool(
        'wide',
        Object.fromEntries(Array.from({ length: 5 }, (_, i) => [`${prefix}${i}`, ['low']])),
      );
    const first = await clientListing(wide('a'));
    await clientListing(wide('b'));
    const args = { a0: 'x', a1: 'x', a2: 'x', a3: 'x', a4: 'x' };
    expect(checkIn('wide', args, first).findings.map((f) => f.argument)).to.deep.equal([
      'a0',
      'a1',
      'a2',
    ]);
    const capped = warnings().filter((m) => m.includes('more enum arguments than'));
    const spent = warnings().filter((m) => m.includes('reached'));
    expect(capped).to.have.length(2);
    expect(spent).to.have.length(1);
    expect(spent[0]).to.include('3 argument(s)');
    expect(pointsOf(await h.collect(), METRIC_TOOL_ARGUMENT_VALUE_CHECK)).to.have.length(3);
  });

  it('skips names it cannot check and never writes to prototypes', async () => {
    await setUp();
    // JSON.parse makes `__proto__` an own property, as a server's JSON would.
    const hostile = JSON.parse(
      JSON.stringify([
        tool('create_ticket', { priority: ['low'], 'bad[path': ['x'] }),
        tool('PROTO', { PROTO: ['member'] }),
      ]).replaceAll('PROTO', '__proto__'),
    ) as unknown[];
    const client = await clientListing(...hostile);
    expect(Object.prototype).not.to.have.property('__proto__', 'mcp:fake/__proto__.__proto__');
    expect(
      checkIn('create_ticket', { priority: 'x', 'bad[path': 'y' }, client).findings,
    ).to.have.length(1);
    const args = JSON.parse('{"__proto__":"x"}') as unknown;
    expect(checkIn('__proto__', args, client).findings).to.deep.equal([
      {
        argument: '__proto__',
        set: 'mcp:fake/__proto__.__proto__',
        value: 'x',
        status: 'checked',
        inSet: false,
        inSetNormalised: false,
        shape: 'invented',
      },
    ]);
  });

  it('derives nothing when mcp.deriveValueSets is off', async () => {
    await setUp({ deriveValueSets: false });
    const client = await clientListing(tool('t', { a: ['x'] }));
    expect(engine().catalogFor(client)).to.equal(undefined);
  });

  it('follows setConfig: a client listed before is checked under the new configuration', async () => {
    await setUp();
    const client = await clientListing(tool('create_ticket', { priority: ['low', 'high'] }));
    h.inst.setConfig({
      ...h.inst.getConfig(),
      mode: 'reject',
      valueSets: { [REFUNDS]: staticValueSet(['LATE']) },
    });
    expect(engineOf(h.inst).mode).to.equal('reject');
    checkIn('create_ticket', { priority: 'urgent' }, client);
    await engine().ready();
    expect(checkIn('create_ticket', { priority: 'urgent' }, client).action).to.equal('reject');
    expect(h.inst.check('refund_order', { reason_code: 'DAMAGED' }).action).to.equal('reject');
  });
});
