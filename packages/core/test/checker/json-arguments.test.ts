import { expect } from 'chai';
import fc from 'fast-check';
import { compileArgumentPath } from '../../src/checker/argument-path.js';
import { createJsonArgumentsReader } from '../../src/checker/json-arguments.js';
import { jsonArguments } from '../helpers/json-texts.js';

const reader = createJsonArgumentsReader(
  ['reason_code', 'items[].warehouse_code', 'a.b[][]'].map((p) => compileArgumentPath(p, 't')),
);

/** What the reader must accept: exactly the JSON texts whose value is an object. */
function isJsonObject(text: string): boolean {
  try {
    const value = JSON.parse(text) as unknown;
    return typeof value === 'object' && value !== null && !Array.isArray(value);
  } catch {
    return false;
  }
}

// Texts one edit away from valid ones hit the grammar's corners: a dropped
// quote, a stray comma, `01`, `1.`, `\x`, a raw control character.
const EDIT_UNITS = [
  '"',
  ',',
  ':',
  '{',
  '}',
  '[',
  ']',
  '\\',
  '0',
  '1',
  '.',
  'e',
  '-',
  '+',
  'u',
  'n',
  ' ',
  '\n',
  '\u0001',
  '\u2028',
  'x',
];
const edited = fc
  .tuple(jsonArguments, fc.nat(), fc.nat({ max: 2 }), fc.constantFrom(...EDIT_UNITS))
  .map(([{ text }, at, kind, unit]) => {
    const i = at % (text.length + 1);
    if (kind === 0) return text.slice(0, i) + unit + text.slice(i);
    if (kind === 1) return text.slice(0, i) + text.slice(i + 1);
    return text.slice(0, i) + unit + text.slice(i + 1);
  });
const anyText = fc.oneof(
  edited,
  fc.json().map((t) => t),
  fc.string({ unit: fc.constantFrom(...EDIT_UNITS, 'a', 't', 'r', 'f', 'l', 's') }),
);

describe('JSON-text arguments reader', () => {
  it('reads exactly the texts JSON.parse reads as an object', () => {
    fc.assert(
      fc.property(anyText, (text) => {
        expect(reader.read(text) !== undefined, JSON.stringify(text)).to.equal(isJsonObject(text));
      }),
      { numRuns: 2_000 },
    );
  });

  it('finds what JSON.parse finds when no key repeats', () => {
    const text =
      '{ "a": {"b": [[1, "x"], [], [{"y": 2}]]}, "reason_code": "L\\u0041TE", ' +
      '"items": [{"warehouse_code": -0}, 7, {"n": 1}, {"warehouse_code": "AMS1"}] }';
    const found = reader.read(text)!;
    expect(found.map((list) => list.map((v) => [v.value, v.location]))).to.deep.equal([
      [['LATE', ['reason_code']]],
      [
        [-0, ['items', 0, 'warehouse_code']],
        ['AMS1', ['items', 3, 'warehouse_code']],
      ],
      [
        [1, ['a', 'b', 0, 0]],
        ['x', ['a', 'b', 0, 1]],
        [{ y: 2 }, ['a', 'b', 2, 0]],
      ],
    ]);
    const token = found[0]![0]!;
    expect(text.slice(token.start, token.end)).to.equal('"L\\u0041TE"');
  });

  it('reads deep nesting without recursion', () => {
    const deep = `{"x":${'['.repeat(100_000)}${']'.repeat(100_000)}}`;
    expect([reader.read(deep) !== undefined, isJsonObject(deep)]).to.deep.equal([true, true]);
    expect(reader.read(`{"a":${'['.repeat(100_000)}}`)).to.equal(undefined);
  });
});
