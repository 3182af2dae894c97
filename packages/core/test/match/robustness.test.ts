import { expect } from 'chai';
import { compileValueSet } from '../../src/match/compile-value-set.js';
import { REFUND_CODES } from './refund-codes.js';

const PROTOTYPE_KEYS = ['__proto__', 'constructor', 'toString', 'hasOwnProperty', 'valueOf'];

describe('hostile and unusual values', () => {
  it('never treats prototype keys as members unless listed', () => {
    const set = compileValueSet(REFUND_CODES);
    expect(
      PROTOTYPE_KEYS.map((k) => [set.has(k), set.classify(k), set.suggest(k, 3)]),
    ).to.deep.equal(PROTOTYPE_KEYS.map(() => [false, { shape: 'invented' }, []]));
  });

  it('handles prototype keys that are listed like any member', () => {
    const set = compileValueSet(PROTOTYPE_KEYS.map((value) => ({ value })));
    expect({
      members: set.members(),
      has: PROTOTYPE_KEYS.map((k) => set.has(k)),
      shapes: [
        '__PROTO__',
        'Constructor',
        '"tostring"',
        'to-string',
        '__proto_',
        'hasOwnPropert',
        'isPrototypeOf',
      ].map((v) => set.classify(v)),
    }).to.deep.equal({
      members: ['__proto__', 'constructor', 'hasOwnProperty', 'toString', 'valueOf'],
      has: [true, true, true, true, true],
      shapes: [
        { shape: 'case', canonical: '__proto__' },
        { shape: 'case', canonical: 'constructor' },
        { shape: 'format', canonical: 'toString' },
        { shape: 'near_miss', canonical: 'toString' }, // 'to string' keeps its separator
        { shape: 'format', canonical: '__proto__' }, // separators at the ends are trimmed
        { shape: 'near_miss', canonical: 'hasOwnProperty' },
        { shape: 'invented' },
      ],
    });
  });

  it('classifies a 10 MB string as invented, with no suggestions', () => {
    const set = compileValueSet(REFUND_CODES);
    const huge = 'DAMAGED '.repeat(1_310_720);
    expect([set.has(huge), set.classify(huge), set.suggest(huge, 5)]).to.deep.equal([
      false,
      { shape: 'invented' },
      [],
    ]);
  });

  it('handles lone surrogates in values and members without throwing', () => {
    const set = compileValueSet([...REFUND_CODES, { value: 'A\uD800B' }]);
    expect(
      ['\uD800', 'DAMAGED\uD800', '\uDC00LATE', 'a\uD800b', 'A\uDBFFB'].map((v) => set.classify(v)),
    ).to.deep.equal([
      { shape: 'invented' },
      { shape: 'near_miss', canonical: 'DAMAGED' },
      { shape: 'near_miss', canonical: 'LATE' },
      { shape: 'case', canonical: 'A\uD800B' },
      { shape: 'near_miss', canonical: 'A\uD800B' }, // one code unit substituted
    ]);
  });

  it('matches NFC and NFD spellings of the same text by format', () => {
    const nfc = 'Caf\u00E9-Cr\u00E8me';
    const nfd = nfc.normalize('NFD');
    const set = compileValueSet([{ value: nfc }, { value: 'R\u00E9sum\u00E9'.normalize('NFD') }]);
    expect([
      set.classify(nfd),
      set.classify(nfd.toLowerCase()),
      set.classify('R\u00E9sum\u00E9'),
    ]).to.deep.equal([
      { shape: 'format', canonical: nfc },
      { shape: 'format', canonical: nfc },
      { shape: 'format', canonical: 'R\u00E9sum\u00E9'.normalize('NFD') },
    ]);
  });

  it('handles the empty string as a value and as a member', () => {
    expect(compileValueSet(REFUND_CODES).classify('')).to.deep.equal({ shape: 'invented' });
    const set = compileValueSet([{ value: '' }, { value: 'LATE' }]);
    expect([set.has(''), set.classify('  '), set.classify('"_"'), set.classify('x')]).to.deep.equal(
      [
        true,
        { shape: 'format', canonical: '' },
        { shape: 'format', canonical: '' },
        { shape: 'invented' },
      ],
    );
  });
});
