import { expect } from 'chai';
import fc from 'fast-check';
import {
  codesOf,
  hashCodes,
  hashString,
  PackedStrings,
  PackedStringsBuilder,
  stringOf,
} from '../../src/match/packed-strings.js';
import { anyString } from './arbitraries.js';

describe('PackedStrings', () => {
  it('gives back every string it packed, with its length, and knows it from others', () => {
    fc.assert(
      fc.property(fc.array(anyString, { maxLength: 50 }), anyString, (list, other) => {
        const packed = PackedStrings.of(list);
        expect(packed.count).to.equal(list.length);
        list.forEach((s, i) => {
          expect(packed.stringAt(i)).to.equal(s);
          expect(packed.lengthOf(i)).to.equal(s.length);
          expect(packed.equals(i, s)).to.equal(true);
          expect(packed.equals(i, other)).to.equal(s === other);
        });
      }),
      { numRuns: 500 },
    );
  });

  it('gives back strings of every length around its short and chunked paths', () => {
    const lengths = [0, 1, 63, 64, 65, 4095, 4096, 4097, 8193];
    const strings = lengths.map((n) =>
      Array.from({ length: n }, (_, i) => String.fromCharCode(0xd7f0 + (i % 40))).join(''),
    );
    const packed = PackedStrings.of(strings);
    expect(strings.map((_, i) => packed.stringAt(i))).to.deep.equal(strings);
  });

  it('keeps lone surrogates and strings longer than one chunk of String.fromCharCode', () => {
    const long = 'x'.repeat(10_000) + '\uD800' + 'y'.repeat(5_000);
    const packed = PackedStrings.of(['\uDC00a\uD800', long, '']);
    expect([packed.stringAt(0), packed.stringAt(1), packed.stringAt(2)]).to.deep.equal([
      '\uDC00a\uD800',
      long,
      '',
    ]);
  });

  it('grows past capacities guessed too small, and holds only what was pushed', () => {
    const small = new PackedStringsBuilder(1, 1);
    const pushed = ['alpha', 'beta', 'a much longer third string', '', 'e'.repeat(100)];
    for (const s of pushed) small.push(s);
    const grown = small.build();
    expect(grown.count).to.equal(pushed.length);
    expect(pushed.map((_, i) => grown.stringAt(i))).to.deep.equal(pushed);
    const large = new PackedStringsBuilder(10, 1_000);
    large.push('abc');
    const built = large.build();
    expect([built.count, built.codes.length, built.starts.length]).to.deep.equal([1, 3, 2]);
  });

  it('copies code units between packs', () => {
    const from = PackedStrings.of(['left', 'right']);
    const builder = new PackedStringsBuilder(2, 9);
    builder.pushCodes(from.codes, from.starts[1]!, from.starts[2]!);
    builder.pushCodes(from.codes, from.starts[0]!, from.starts[1]!);
    const built = builder.build();
    expect([built.stringAt(0), built.stringAt(1)]).to.deep.equal(['right', 'left']);
  });

  it('hashes a string and its packed code units alike', () => {
    fc.assert(
      fc.property(fc.array(anyString, { minLength: 1, maxLength: 10 }), (list) => {
        const { codes, starts } = PackedStrings.of(list);
        list.forEach((s, i) => {
          expect(hashCodes(codes, starts[i]!, starts[i + 1]!)).to.equal(hashString(s));
        });
      }),
    );
  });

  it('writes a string into scratch space, growing it when too short', () => {
    const scratch = new Uint16Array(2);
    const written = codesOf('abcd', scratch);
    expect(written).to.not.equal(scratch);
    expect(stringOf(written, 0, 4)).to.equal('abcd');
    expect(codesOf('z', scratch)).to.equal(scratch);
    expect(stringOf(scratch, 0, 1)).to.equal('z');
  });
});
