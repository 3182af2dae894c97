import { expect } from 'chai';
import {
  createScriptedEngine,
  fakeClientClass,
  instrumentClient,
} from './helpers/scripted-engine.js';

describe('an instrumented client — what listTools hands the engine', () => {
  const FakeClient = fakeClientClass();
  const tools = [{ name: 't', inputSchema: { type: 'object' } }];

  it('hands over each listing with its client, whether it continues a listing, and the server name', async () => {
    const engine = createScriptedEngine();
    const client = new FakeClient();
    instrumentClient(client, engine);
    client.tools = tools;
    expect(await client.listTools()).to.deep.equal({ tools });
    await client.listTools({ cursor: 'page-2' });
    expect(engine.listings).to.deep.equal([
      {
        scope: client,
        listing: { tools, continued: false, origin: 'mcp', integration: 'mcp', scopeName: 'fake' },
      },
      {
        scope: client,
        listing: { tools, continued: true, origin: 'mcp', integration: 'mcp', scopeName: 'fake' },
      },
    ]);
  });

  it('still returns the tool list when the engine throws, and tries again on the next listing', async () => {
    const engine = createScriptedEngine();
    let failures = 1;
    const listed = engine.toolsListed.bind(engine);
    engine.toolsListed = (scope, listing) => {
      if (failures-- > 0) throw new Error('engine bug');
      return listed(scope, listing);
    };
    const client = new FakeClient();
    instrumentClient(client, engine);
    client.tools = tools;
    expect(await client.listTools()).to.deep.equal({ tools: client.tools });
    await client.listTools();
    expect(engine.listings).to.have.length(1);
    expect(engine.logged.map((l) => l.level)).to.deep.equal(['warn']);
  });

  it('waits for the new catalog to be in use before handing back the list', async () => {
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const engine = createScriptedEngine();
    engine.toolsListed = () => gate;
    const client = new FakeClient();
    instrumentClient(client, engine);
    client.tools = tools;
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
