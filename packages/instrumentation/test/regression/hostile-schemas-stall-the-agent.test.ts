// Issue 21, item 9: large or nested MCP schemas stalled the agent. A
// 1,000,000-member enum was read and compiled on every listing that changed
// it; `closedStrings` recursed through anyOf/oneOf without a bound, so a
// 20,000-deep anyOf threw RangeError (the code promises never to throw) and
// stopped derivation for the whole catalog, and a shared schema graph 2^26
// wide was walked for 20 s. The work per schema and per listing is now
// bounded, and one hostile tool leaves the others' enums derived.
import { expect } from 'chai';
import { deriveCatalog, MAX_CATALOG_MEMBERS } from '../../src/catalog/derive-catalog.js';
import { MAX_ENUM_MEMBERS, stringEnumArguments } from '../../src/catalog/schema-enums.js';
import { recordFigure } from '@argcheck/testing/figures';

const GOOD = {
  name: 'refund_order',
  inputSchema: {
    type: 'object',
    properties: { reason_code: { type: 'string', enum: ['DAMAGED', 'LATE'] } },
  },
};

const tool = (name: string, schema: unknown) => ({
  name,
  inputSchema: { type: 'object', properties: { arg: schema } },
});

const derive = (tools: unknown[]) =>
  deriveCatalog(tools, {
    configuredFor: () => undefined,
    maxCheckedArguments: 500,
    scopeName: 'shop',
  });

describe('regression: large or nested MCP schemas stalled the agent', () => {
  it('a 20,000-deep anyOf neither throws nor stops the other tools’ enums', () => {
    let deep: Record<string, unknown> = { type: 'string', enum: ['X'] };
    for (let i = 0; i < 20_000; i++) deep = { anyOf: [deep] };
    const { catalog } = derive([tool('deep', deep), GOOD]);
    expect(catalog.sets).to.deep.equal({
      'mcp:shop/refund_order.reason_code': ['DAMAGED', 'LATE'],
    });
    recordFigure(
      'hostile-schemas',
      `a 20,000-deep anyOf: nothing thrown, ${Object.keys(catalog.sets).length} set derived (the well-formed tool’s)`,
    );
  });

  it('a shared schema graph 2^26 wide is given up on within the node budget', () => {
    let node: Record<string, unknown> = { type: 'string', enum: ['A'] };
    // Each level's two branches are the same object: 2^26 paths, 27 objects.
    for (let i = 0; i < 26; i++) node = { anyOf: [node, node] };
    let visits = 0;
    const counted = new Proxy(node, {
      get(target, key, receiver) {
        visits++;
        return Reflect.get(target, key, receiver) as unknown;
      },
    });
    const found = stringEnumArguments({ type: 'object', properties: { arg: counted } });
    expect(found).to.deep.equal([]);
    expect(visits).to.be.at.most(10);
    recordFigure('hostile-schemas', `a graph 2^26 paths wide: given up after ${visits} reads`);
    // Within the depth bound (15 levels, 65,535 paths) the node budget stops it.
    let shallow: Record<string, unknown> = { type: 'string', enum: ['A'] };
    for (let i = 0; i < 15; i++) shallow = { anyOf: [shallow, shallow] };
    expect(stringEnumArguments({ type: 'object', properties: { arg: shallow } })).to.deep.equal([]);
    expect(derive([tool('wide', node), tool('shallow', shallow), GOOD]).catalog.sets).to.have.keys(
      'mcp:shop/refund_order.reason_code',
    );
  });

  it(`an enum of more than ${MAX_ENUM_MEMBERS.toLocaleString('en-US')} members is not derived; the others are`, () => {
    const huge = Array.from({ length: 1_000_000 }, (_, i) => `v${i}`);
    const { catalog } = derive([tool('huge', { type: 'string', enum: huge }), GOOD]);
    expect(Object.keys(catalog.sets)).to.deep.equal(['mcp:shop/refund_order.reason_code']);
    recordFigure(
      'hostile-schemas',
      `a 1,000,000-member enum not derived, the well-formed tool’s ${Object.keys(catalog.sets).length} set derived`,
    );
  });

  it(`a listing derives at most ${MAX_CATALOG_MEMBERS.toLocaleString('en-US')} members in all, and counts what it drops`, () => {
    const big = Array.from({ length: MAX_ENUM_MEMBERS }, (_, i) => `m${i}`);
    const tools = Array.from({ length: 15 }, (_, i) =>
      tool(`t${String(i).padStart(2, '0')}`, { enum: big }),
    );
    const { catalog, dropped } = derive(tools);
    const members = Object.values(catalog.sets).reduce((n, m) => n + m.length, 0);
    expect(members).to.equal(MAX_CATALOG_MEMBERS);
    expect(dropped).to.equal(15 - MAX_CATALOG_MEMBERS / MAX_ENUM_MEMBERS);
  });

  it('a schema whose getters throw derives nothing for its tool, and the others still derive', () => {
    const hostile = {
      name: 'trap',
      get inputSchema(): unknown {
        return new Proxy(
          {},
          {
            get() {
              throw new Error('trap');
            },
          },
        );
      },
    };
    const sets = Object.keys(derive([hostile, GOOD]).catalog.sets);
    expect(sets).to.deep.equal(['mcp:shop/refund_order.reason_code']);
    recordFigure(
      'hostile-schemas',
      `getters that throw: nothing thrown, ${sets.length} set derived (the well-formed tool’s)`,
    );
  });
});
