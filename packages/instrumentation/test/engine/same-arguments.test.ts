import { expect } from 'chai';
import { sameArguments, sameStructure } from '../../src/engine/same-arguments.js';

/** `n` distinct objects, each compared as one value. */
const items = (n: number) => Array.from({ length: n }, (_, i) => ({ i }));

describe('sameStructure', () => {
  it('compares objects by their own enumerable keys, in any order, and arrays in order', () => {
    const schema = {
      type: 'object',
      properties: { order_id: { type: 'string' }, reason_code: { enum: ['DAMAGED', 'LATE'] } },
      required: ['order_id', 'reason_code'],
    };
    const reordered = {
      required: ['order_id', 'reason_code'],
      properties: { reason_code: { enum: ['DAMAGED', 'LATE'] }, order_id: { type: 'string' } },
      type: 'object',
    };
    expect(sameStructure(schema, reordered)).to.equal(true);
    expect(sameStructure(schema, { ...reordered, required: ['reason_code', 'order_id'] })).to.equal(
      false,
    );
    expect(sameStructure(schema, { ...schema, additionalProperties: false })).to.equal(false);
    expect(sameStructure({ ...schema, additionalProperties: false }, schema)).to.equal(false);
    expect(sameStructure({ a: undefined }, { b: undefined })).to.equal(false);
    expect(sameStructure({ a: undefined }, {})).to.equal(false);
    expect(sameStructure({}, { a: undefined })).to.equal(false);
    expect(sameStructure([1, 2], { 0: 1, 1: 2 })).to.equal(false);
    expect(sameStructure({ n: NaN }, { n: NaN })).to.equal(true);
    expect(sameStructure({ n: 1 }, { n: '1' })).to.equal(false);
  });

  it('leaves out inherited and non-enumerable keys, as Object.keys does', () => {
    const inherited = Object.create({ extra: 1 }) as Record<string, unknown>;
    inherited.a = 1;
    expect(sameStructure(inherited, { a: 1 })).to.equal(true);
    const hidden = { a: 1 };
    Object.defineProperty(hidden, 'b', { value: 2, enumerable: false });
    expect(sameStructure(hidden, { a: 1 })).to.equal(true);
    // An own key of the left side is looked up as an own key of the right, enumerable or not.
    expect(sameStructure({ a: 1, b: 2 }, hidden)).to.equal(false);
  });

  it('is false past its bounds and for a side that throws as it is read', () => {
    let deep: unknown = 'leaf';
    for (let i = 0; i < 80; i++) deep = { next: deep };
    expect(sameStructure(deep, structuredClone(deep))).to.equal(false);
    const wide = items(20_000);
    expect(sameStructure(wide, structuredClone(wide))).to.equal(false);
    expect(sameStructure(items(5_000), items(5_000))).to.equal(true);
    const hostile = {
      get a(): unknown {
        throw new Error('no');
      },
    };
    expect(sameStructure(hostile, { a: 1 })).to.equal(false);
  });

  it('keeps its bound when a getter compares structures of its own during a comparison', () => {
    const list = items(9_000);
    const left = {
      get a(): unknown {
        // The inner comparison spends most of a budget; the outer one goes on with what it had left.
        expect(sameStructure(items(9_000), items(9_000))).to.equal(true);
        return 1;
      },
      list,
    };
    expect(sameStructure(left, { a: 1, list: structuredClone(list) })).to.equal(true);
  });
});

describe('sameArguments', () => {
  it('compares a JSON text as what it parses to, and any other string as a string', () => {
    expect(sameArguments('{"b":2,"a":1}', { a: 1, b: 2 })).to.equal(true);
    expect(sameArguments(' [1,2]', [1, 2])).to.equal(true);
    expect(sameArguments('{"a":1', { a: 1 })).to.equal(false);
    expect(sameArguments('1', 1)).to.equal(false);
    expect(sameArguments('text', 'text')).to.equal(true);
  });
});
