import { expect } from 'chai';
import { stringEnumArguments } from '../../src/catalog/schema-enums.js';

const object = (properties: Record<string, unknown>) => ({ type: 'object', properties });
const strings = (...members: unknown[]) => ({ type: 'string', enum: members });

describe('stringEnumArguments', () => {
  it('finds top-level, nested-object and array-item enums with core path syntax', () => {
    const schema = object({
      reason_code: strings('LATE', 'DAMAGED'),
      filters: object({ status: strings('open', 'closed'), owner: { type: 'string' } }),
      items: { type: 'array', items: object({ warehouse_code: strings('AMS1') }) },
      tags: { type: 'array', items: strings('a', 'b') },
      matrix: { type: 'array', items: { type: 'array', items: strings('x') } },
    });
    expect(stringEnumArguments(schema)).to.deep.equal([
      { path: 'reason_code', members: ['LATE', 'DAMAGED'] },
      { path: 'filters.status', members: ['open', 'closed'] },
      { path: 'items[].warehouse_code', members: ['AMS1'] },
      { path: 'tags[]', members: ['a', 'b'] },
      { path: 'matrix[][]', members: ['x'] },
    ]);
  });

  it('accepts an enum without type, type ["string"], a string const, and unions of those', () => {
    const schema = object({
      untyped: { enum: ['a'] },
      listed: { type: ['string'], enum: ['b'] },
      constant: { type: 'string', const: 'fast' },
      literals: { anyOf: [{ const: 'x' }, { type: 'string', enum: ['y', 'x'] }] },
      oneOf: { oneOf: [{ const: 'p' }, { const: 'q' }] },
    });
    expect(stringEnumArguments(schema)).to.deep.equal([
      { path: 'untyped', members: ['a'] },
      { path: 'listed', members: ['b'] },
      { path: 'constant', members: ['fast'] },
      { path: 'literals', members: ['x', 'y'] },
      { path: 'oneOf', members: ['p', 'q'] },
    ]);
  });

  it('removes duplicate members', () => {
    expect(stringEnumArguments(object({ a: strings('x', 'x', 'y') }))).to.deep.equal([
      { path: 'a', members: ['x', 'y'] },
    ]);
  });

  it('leaves out schemas whose set would flag values the server accepts', () => {
    const schema = object({
      nullable: { anyOf: [strings('a', 'b'), { type: 'null' }] },
      nullableType: { type: ['string', 'null'], enum: ['a', null] },
      mixed: { enum: ['a', 1] },
      numbers: { type: 'integer', enum: [1, 2] },
      openUnion: { anyOf: [strings('a'), { type: 'string' }] },
      empty: { type: 'string', enum: [] },
      ref: { $ref: '#/$defs/Reason' },
      allOf: { allOf: [strings('a')] },
      map: { type: 'object', additionalProperties: strings('a') },
      tuple: { type: 'array', items: [strings('a')] },
      'dotted.key': strings('a'),
      'bracket[]': strings('a'),
      variants: { anyOf: [object({ kind: strings('a') }), object({ kind: strings('b') })] },
    });
    expect(stringEnumArguments(schema)).to.deep.equal([]);
  });

  it('never treats the arguments object itself as an argument', () => {
    expect(stringEnumArguments(strings('a'))).to.deep.equal([]);
    expect(stringEnumArguments({ type: 'array', items: strings('a') })).to.deep.equal([]);
  });

  it('returns nothing for input that is not a schema', () => {
    for (const input of [undefined, null, 'x', 42, [], { properties: [] }]) {
      expect(stringEnumArguments(input)).to.deep.equal([]);
    }
  });

  it('stops at a bounded depth', () => {
    let schema: Record<string, unknown> = strings('deep');
    for (let i = 0; i < 40; i++) schema = object({ n: schema });
    expect(stringEnumArguments(schema)).to.deep.equal([]);
    let shallow: Record<string, unknown> = strings('ok');
    for (let i = 0; i < 5; i++) shallow = object({ n: shallow });
    expect(stringEnumArguments(shallow)).to.deep.equal([{ path: 'n.n.n.n.n', members: ['ok'] }]);
  });
});
