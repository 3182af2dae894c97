import { expect } from 'chai';
import { instrumentClient } from '../../src/mcp/index.js';
import { createScriptedHost, fakeClientClass } from './helpers/scripted-host.js';

const tool = (name: string, enums: Record<string, string[]>) => ({
  name,
  inputSchema: {
    type: 'object',
    properties: Object.fromEntries(
      Object.entries(enums).map(([k, v]) => [k, { type: 'string', enum: v }]),
    ),
  },
});

describe('catalog derivation through listTools', () => {
  const FakeClient = fakeClientClass();

  it('derives once per distinct catalog and hands the host the server-scoped sets', async () => {
    const host = createScriptedHost();
    const client = new FakeClient();
    instrumentClient(client, host);
    client.tools = [tool('t', { a: ['x'] })];
    await client.listTools();
    await client.listTools();
    client.tools = [tool('t', { a: ['x', 'y'] })];
    const listed = await client.listTools();
    expect(listed).to.deep.equal({ tools: client.tools });
    expect(host.derived).to.deep.equal([
      { checkedArguments: { t: { a: 'mcp:fake/t.a' } }, sets: { 'mcp:fake/t.a': ['x'] } },
      { checkedArguments: { t: { a: 'mcp:fake/t.a' } }, sets: { 'mcp:fake/t.a': ['x', 'y'] } },
    ]);
  });

  it('accumulates pages listed with a cursor and starts over without one', async () => {
    const host = createScriptedHost();
    const client = new FakeClient();
    instrumentClient(client, host);
    client.tools = [tool('a', { p: ['1'] })];
    await client.listTools();
    client.tools = [tool('b', { q: ['2'] })];
    await client.listTools({ cursor: 'page-2' });
    client.tools = [tool('c', { r: ['3'] })];
    await client.listTools();
    expect(host.derived.map((c) => Object.keys(c.sets))).to.deep.equal([
      ['mcp:fake/a.p'],
      ['mcp:fake/a.p', 'mcp:fake/b.q'],
      ['mcp:fake/c.r'],
    ]);
  });

  it('tells the host when a catalog loses all its enums, but never derives from nothing first', async () => {
    const host = createScriptedHost();
    const client = new FakeClient();
    instrumentClient(client, host);
    client.tools = [{ name: 'plain', inputSchema: { type: 'object' } }];
    await client.listTools();
    expect(host.derived).to.deep.equal([]);
    client.tools = [tool('t', { a: ['x'] })];
    await client.listTools();
    client.tools = [];
    await client.listTools();
    expect(host.derived.map((c) => c.sets)).to.deep.equal([{ 'mcp:fake/t.a': ['x'] }, {}]);
  });

  it('reports the cap once per client', async () => {
    const host = createScriptedHost({ maxCheckedArguments: 1 });
    const client = new FakeClient();
    instrumentClient(client, host);
    client.tools = [tool('t', { a: ['x'], b: ['y'] })];
    await client.listTools();
    client.tools = [tool('t', { a: ['x'], b: ['y'], c: ['z'] })];
    await client.listTools();
    const warnings = host.logged.filter((l) => l.level === 'warn');
    expect(warnings).to.have.length(1);
    expect(warnings[0]?.args[0]).to.match(
      /1 more enum arguments than mcp\.maxCheckedArguments \(1\)/,
    );
  });

  it('derives nothing when mcp.deriveValueSets is off', async () => {
    const host = createScriptedHost({ deriveValueSets: false });
    const client = new FakeClient();
    instrumentClient(client, host);
    client.tools = [tool('t', { a: ['x'] })];
    await client.listTools();
    expect(host.derived).to.deep.equal([]);
  });

  it('still returns the tool list when deriving throws, and tries again on the next listing', async () => {
    const host = createScriptedHost();
    let failures = 1;
    const derive = host.deriveEngine.bind(host);
    host.deriveEngine = (key, catalog) => {
      if (failures-- > 0) throw new Error('host bug');
      return derive(key, catalog);
    };
    const client = new FakeClient();
    instrumentClient(client, host);
    client.tools = [tool('t', { a: ['x'] })];
    expect(await client.listTools()).to.deep.equal({ tools: client.tools });
    await client.listTools();
    expect(host.derived).to.have.length(1);
    expect(host.logged.map((l) => l.level)).to.deep.equal(['warn']);
  });

  it('waits for the new engine to be ready before handing back the list', async () => {
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const host = createScriptedHost();
    host.deriveEngine = () => ({
      check: (tool, args, ctx) => host.configured.check(tool, args, ctx),
      ready: () => gate,
    });
    const client = new FakeClient();
    instrumentClient(client, host);
    client.tools = [tool('t', { a: ['x'] })];
    let done = false;
    const listing = client.listTools().then(() => (done = true));
    await Promise.resolve();
    await Promise.resolve();
    expect(done).to.equal(false);
    release();
    await listing;
    expect(done).to.equal(true);
  });
});
