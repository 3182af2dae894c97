import { expect } from 'chai';
import { seededRandom } from '@argcheck/testing/random';
import {
  deriveCatalog,
  derivedSetName,
  MAX_SET_NAME_LENGTH,
} from '../../src/catalog/derive-catalog.js';

const tool = (name: string, properties: Record<string, unknown>) => ({
  name,
  inputSchema: { type: 'object', properties },
});
const strings = (...members: string[]) => ({ type: 'string', enum: members });
/** `configuredFor` over a configuration's checked arguments. */
const configured =
  (checked: Record<string, Record<string, string>>) =>
  (tool: string): Record<string, string> | undefined =>
    Object.hasOwn(checked, tool) ? checked[tool] : undefined;
/** Reads a derived set name back as the grammar in docs/telemetry.md says: origin, scope, tool, path. */
function readSetName(name: string): [string, string | undefined, string, string] {
  const colon = name.indexOf(':');
  let at = colon + 1;
  const part = (): string => {
    if (name[at] === '"') {
      let end = at + 1;
      while (name[end] !== '"') end += name[end] === '\\' ? 2 : 1;
      const text = JSON.parse(name.slice(at, end + 1)) as string;
      at = end + 1;
      return text;
    }
    const length = name.slice(at).search(/[/.]/);
    const text = name.slice(at, at + length);
    at += length;
    return text;
  };
  const first = part();
  if (name[at] === '.') return [name.slice(0, colon), undefined, first, name.slice(at + 1)];
  expect(name[at], name).to.equal('/');
  at += 1;
  const tool = part();
  expect(name[at], name).to.equal('.');
  return [name.slice(0, colon), first, tool, name.slice(at + 1)];
}

const options = { configuredFor: configured({}), maxCheckedArguments: 500, scopeName: 'shop' };

describe('deriveCatalog', () => {
  it('turns each string enum into a set named mcp:<server>/<tool>.<path>', () => {
    const { catalog, dropped, unnamed } = deriveCatalog(
      [
        tool('refund_order', {
          reason_code: strings('LATE', 'DAMAGED'),
          order_id: { type: 'string' },
        }),
        tool('transfer_stock', {
          items: {
            type: 'array',
            items: { type: 'object', properties: { warehouse_code: strings('AMS1') } },
          },
        }),
      ],
      options,
    );
    expect(catalog).to.deep.equal({
      checkedArguments: {
        refund_order: { reason_code: 'mcp:shop/refund_order.reason_code' },
        transfer_stock: {
          'items[].warehouse_code': 'mcp:shop/transfer_stock.items[].warehouse_code',
        },
      },
      sets: {
        'mcp:shop/refund_order.reason_code': ['LATE', 'DAMAGED'],
        'mcp:shop/transfer_stock.items[].warehouse_code': ['AMS1'],
      },
    });
    expect(dropped).to.equal(0);
    expect(unnamed).to.deep.equal([]);
  });

  it('omits the server part when the server gave no name', () => {
    expect(derivedSetName('mcp', undefined, 't', 'a.b')).to.equal('mcp:t.a.b');
    expect(derivedSetName('mcp', '', 't', 'a')).to.equal('mcp:t.a');
  });

  it('quotes a server or tool name that holds "/", "." or a quote', () => {
    expect(
      derivedSetName('mcp', 'mcp-servers/everything', 'get-annotated-message', 'messageType'),
    ).to.equal('mcp:"mcp-servers/everything"/get-annotated-message.messageType');
    expect(derivedSetName('mcp', 'shop.v2', 'billing/refund', 'items[].code')).to.equal(
      'mcp:"shop.v2"/"billing/refund".items[].code',
    );
    expect(derivedSetName('langchain', undefined, 'search.web', 'engine')).to.equal(
      'langchain:"search.web".engine',
    );
    expect(derivedSetName('mcp', 'say "hi"', 't', 'a')).to.equal('mcp:"say \\"hi\\""/t.a');
  });

  it('writes names that read back to their parts, so two servers or tools never share one', () => {
    const random = seededRandom(27);
    const letters = ['a', 'b', '/', '.', '"', '\\', ':', ' ', '[]', 'é'];
    const text = (min: number): string => {
      let out = '';
      const length = min + Math.floor(random() * 6);
      for (let i = 0; i < length; i++) out += letters[Math.floor(random() * letters.length)];
      return out;
    };
    const seen = new Map<string, string>();
    for (let i = 0; i < 5_000; i++) {
      const scope = random() < 0.2 ? undefined : text(1);
      const tool = text(1);
      // Paths as schema-enums.ts writes them: keys without ".", "[" or "]".
      const path = ['reason', 'items[].code', 'a.b'][i % 3] as string;
      const name = derivedSetName('mcp', scope, tool, path);
      expect(readSetName(name)).to.deep.equal(['mcp', scope, tool, path]);
      const parts = JSON.stringify([scope, tool, path]);
      expect(seen.get(name) ?? parts, name).to.equal(parts);
      seen.set(name, parts);
    }
    // The reading used above also reads plain names.
    expect(readSetName('mcp:shop/refund_order.items[].code')).to.deep.equal([
      'mcp',
      'shop',
      'refund_order',
      'items[].code',
    ]);
  });

  it('skips arguments the configuration names already, and only those', () => {
    const { catalog } = deriveCatalog(
      [tool('refund_order', { reason_code: strings('LATE'), channel: strings('web') })],
      { ...options, configuredFor: configured({ refund_order: { reason_code: 'reasons' } }) },
    );
    expect(catalog.checkedArguments).to.deep.equal({
      refund_order: { channel: 'mcp:shop/refund_order.channel' },
    });
  });

  it('caps derived arguments, keeping the same ones whatever order the server lists tools in', () => {
    const tools = [tool('b', { y: strings('1'), x: strings('1') }), tool('a', { z: strings('1') })];
    const forward = deriveCatalog(tools, { ...options, maxCheckedArguments: 2 });
    const backward = deriveCatalog([...tools].reverse(), { ...options, maxCheckedArguments: 2 });
    expect(forward).to.deep.equal(backward);
    expect(Object.keys(forward.catalog.sets)).to.deep.equal(['mcp:shop/a.z', 'mcp:shop/b.x']);
    expect(forward.dropped).to.equal(1);
    expect(deriveCatalog(tools, { ...options, maxCheckedArguments: 0 }).catalog).to.deep.equal({
      checkedArguments: {},
      sets: {},
    });
  });

  it('refuses a set name longer than the bound rather than truncating it', () => {
    const long = 'x'.repeat(MAX_SET_NAME_LENGTH);
    const { catalog, unnamed } = deriveCatalog(
      [tool(long, { a: strings('1') }), tool('short', { a: strings('2') })],
      options,
    );
    expect(catalog.sets).to.deep.equal({ 'mcp:shop/short.a': ['2'] });
    expect(unnamed).to.deep.equal([`${long}:a`]);
  });

  it("names a dotted tool and another tool's nested argument apart, and checks both", () => {
    const { catalog, unnamed } = deriveCatalog(
      [
        tool('a.b', { c: strings('1') }),
        tool('a', { b: { type: 'object', properties: { c: strings('2') } } }),
      ],
      options,
    );
    expect(catalog.sets).to.deep.equal({ 'mcp:shop/a.b.c': ['2'], 'mcp:shop/"a.b".c': ['1'] });
    expect(catalog.checkedArguments).to.deep.equal({
      a: { 'b.c': 'mcp:shop/a.b.c' },
      'a.b': { c: 'mcp:shop/"a.b".c' },
    });
    expect(unnamed).to.deep.equal([]);
  });

  it('keeps tool names such as __proto__ as plain data', () => {
    const { catalog } = deriveCatalog([tool('__proto__', { a: strings('1') })], options);
    expect(Object.getPrototypeOf(catalog.checkedArguments)).to.equal(Object.prototype);
    expect(Object.hasOwn(catalog.checkedArguments, '__proto__')).to.equal(true);
    expect(Object.keys(catalog.checkedArguments)).to.deep.equal(['__proto__']);
  });

  it('ignores malformed entries and a tool listed twice after its first definition', () => {
    const { catalog } = deriveCatalog(
      [
        null,
        'x',
        { name: 1 },
        { name: '' },
        tool('t', { a: strings('first') }),
        tool('t', { a: strings('second') }),
      ],
      options,
    );
    expect(catalog.sets).to.deep.equal({ 'mcp:shop/t.a': ['first'] });
  });
});
