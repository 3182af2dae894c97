import { expect } from 'chai';
import fc from 'fast-check';
import { JsonArrayReader } from '../../src/sources/json-array-reader.js';

/** Feed `text` cut at `cuts` (positions, any order), and read the result. */
function read(text: string, cuts: readonly number[] = []): unknown[] | undefined {
  const reader = new JsonArrayReader();
  let at = 0;
  for (const cut of [...new Set(cuts)].sort((a, b) => a - b)) {
    if (cut <= at || cut >= text.length) continue;
    reader.push(text.slice(at, cut));
    at = cut;
  }
  reader.push(text.slice(at));
  return reader.result();
}

function parsed(text: string): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch {
    return { ok: false };
  }
}

const cuts = fc.array(fc.nat({ max: 400 }), { maxLength: 12 });
const space = fc.string({ unit: fc.constantFrom(' ', '\t', '\n', '\r'), maxLength: 3 });

/** A JSON array text, spaced out, with characters that matter to the scan inside strings. */
const arrayText = fc
  .tuple(
    fc.array(
      fc.oneof(
        fc.jsonValue({ maxDepth: 3 }),
        fc.string({ unit: fc.constantFrom('"', '\\', ',', '[', ']', '{', '}', 'a', '\u00E9') }),
      ),
      { maxLength: 12 },
    ),
    space,
    space,
    space,
  )
  .map(([values, before, inside, after]) => {
    const body = values.map((v) => JSON.stringify(v)).join(`,${inside}`);
    return `${before}[${inside}${body}${inside}]${after}`;
  });

/** Valid texts broken by one edit: most are no longer JSON, some still are. */
const editedText = fc
  .tuple(
    arrayText,
    fc.nat(),
    fc.nat({ max: 2 }),
    fc.constantFrom('', ',', '[', ']', '{', '}', '"', '\\', ' ', '1', 'x'),
  )
  .map(([text, at, cut, insert]) => {
    const i = at % (text.length + 1);
    return text.slice(0, i) + insert + text.slice(i + cut);
  });

describe('JsonArrayReader', () => {
  it('reads any JSON array exactly as JSON.parse does, however the text is cut', () => {
    fc.assert(
      fc.property(arrayText, cuts, (text, at) => {
        expect(read(text, at)).to.deep.equal(JSON.parse(text));
      }),
      { numRuns: 2000 },
    );
  });

  it('never answers for a text JSON.parse refuses, and agrees with it when it answers', () => {
    fc.assert(
      fc.property(fc.oneof(editedText, fc.string({ maxLength: 30 })), cuts, (text, at) => {
        const result = read(text, at);
        if (result === undefined) return;
        const expected = parsed(text);
        expect(expected.ok, `accepted ${JSON.stringify(text)}`).to.equal(true);
        expect(result).to.deep.equal((expected as { value: unknown }).value);
      }),
      { numRuns: 5000 },
    );
  });

  const refused: [string, string][] = [
    ['a trailing comma', '[1,]'],
    ['a leading comma', '[,1]'],
    ['two commas', '[1,,2]'],
    ['two commas in separate pieces', '[1,|,2]'],
    ['a brace for a bracket', '[1}'],
    ['a second closing bracket', '[1]]'],
    ['text after the array', '[1] x'],
    ['a second array', '[1][2]'],
    ['no closing bracket', '["a", "b"'],
    ['a string left open', '["a]'],
    ['an object', '{"values": ["a"]}'],
    ['a byte-order mark', '\uFEFF["a"]'],
    ['non-JSON space', '[\u00A0]'],
    ['nothing', ''],
  ];
  for (const [title, text] of refused) {
    it(`leaves ${title} to JSON.parse`, () => {
      expect(read(text.replace('|', ''), [text.indexOf('|')])).to.equal(undefined);
    });
  }

  it('reads empty arrays, escapes and brackets in strings, and pieces cut anywhere', () => {
    expect(read(' [ ] ')).to.deep.equal([]);
    expect(read('[]', [1])).to.deep.equal([]);
    const text = '["a\\"],[", "\\\\", {"k": [1, {"]": ","}]}, "é"]';
    for (let i = 0; i <= text.length; i++) {
      expect(read(text, [i]), `cut at ${i}`).to.deep.equal(JSON.parse(text));
    }
  });

  it('parses as the pieces arrive, not at the end', () => {
    const reader = new JsonArrayReader();
    reader.push('["a", "b", "c');
    expect(reader.result()).to.equal(undefined);
    reader.push('"]');
    expect(reader.result()).to.deep.equal(['a', 'b', 'c']);
  });

  it('hands each group of elements to onElements as it parses, and keeps none', () => {
    const groups: unknown[][] = [];
    const reader = new JsonArrayReader((elements) => groups.push(elements));
    reader.push('["a", {"b": [1, 2]}, "c');
    expect(groups).to.deep.equal([['a', { b: [1, 2] }]]);
    reader.push('", "d"]');
    expect(groups).to.deep.equal([['a', { b: [1, 2] }], ['c'], ['d']]);
    expect(reader.result()).to.deep.equal([]);
  });
});
