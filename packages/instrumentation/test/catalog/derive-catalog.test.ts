import { expect } from 'chai';
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

  it('detects two arguments whose set names collide and keeps the first in sorted order', () => {
    const { catalog, unnamed } = deriveCatalog(
      [
        tool('a.b', { c: strings('1') }),
        tool('a', { b: { type: 'object', properties: { c: strings('2') } } }),
      ],
      options,
    );
    expect(catalog.sets).to.deep.equal({ 'mcp:shop/a.b.c': ['2'] });
    expect(catalog.checkedArguments).to.deep.equal({ a: { 'b.c': 'mcp:shop/a.b.c' } });
    expect(unnamed).to.deep.equal(['a.b:c']);
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
