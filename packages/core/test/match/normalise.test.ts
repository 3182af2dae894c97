import { expect } from 'chai';
import fc from 'fast-check';
import { caseFold, normalise } from '../../src/match/normalise.js';
import { anyString } from './arbitraries.js';

describe('normalise', () => {
  const examples: [string, string][] = [
    ['NOT_AS_DESCRIBED', 'not as described'],
    ['  Not--As..Described  ', 'not as described'],
    ['"LATE"', 'late'],
    ['\'"`LATE`"\'', 'late'],
    ['\u2018Late\u2019', 'late'],
    ['\u201Clate\u201D', 'late'],
    ['-"LATE"-', 'late'],
    ['late\t\n\u00A0\u3000delivery', 'late delivery'],
    ['in\u2011stock \u2014 now', 'in stock now'], // non-breaking hyphen, em dash
    ['\uFF2C\uFF21\uFF34\uFF25', 'late'], // full-width
    ['\uFB01le', 'file'], // ligature
    ['STRASSE', 'strasse'],
    ['Stra\u00DFe', 'strasse'],
    ['\u1E9E', 'ss'],
    ['\u039F\u0394\u039F\u03A3', '\u03BF\u03B4\u03BF\u03C3'], // ΟΔΟΣ → οδοσ, not οδος
    ["rock'n'roll", "rock'n'roll"], // inner quotes stay
    ['"', ''],
    ['', ''],
  ];
  for (const [input, output] of examples) {
    it(`${JSON.stringify(input)} → ${JSON.stringify(output)}`, () => {
      expect(normalise(input)).to.equal(output);
    });
  }

  it('normalises NFC and NFD spellings alike', () => {
    const text = 'Caf\u00E9 Cr\u00E8me \u00C5ngstr\u00F6m';
    expect(normalise(text.normalize('NFD'))).to.equal(normalise(text.normalize('NFC')));
  });

  it('keeps lone surrogates rather than throwing', () => {
    expect([normalise('\uD800'), normalise('A\uDC00-B')]).to.deep.equal(['\uD800', 'a\uDC00 b']);
  });

  it('is idempotent and total', () => {
    fc.assert(
      fc.property(anyString, (s) => {
        const once = normalise(s);
        expect(normalise(once)).to.equal(once);
      }),
      { numRuns: 5000 },
    );
  });

  it('is idempotent for every single code point in context', () => {
    for (let cp = 0; cp <= 0xffff; cp++) {
      const c = String.fromCharCode(cp);
      for (const s of [c, `a${c}`, `${c}\u0301`, `A${c}b`]) {
        const once = normalise(s);
        if (normalise(once) !== once)
          expect.fail(`not idempotent at U+${cp.toString(16)}: ${JSON.stringify(s)}`);
      }
    }
  });

  // Compiled sets find a value's case twins among the members that share its
  // normalised key (classify.ts), which is sound only if this holds.
  it('normalises alike every two single characters, in context, that case-fold alike', () => {
    for (const context of [
      (c: string) => c,
      (c: string) => `a${c}`,
      (c: string) => `${c}\u0301b`,
    ]) {
      const byFold = new Map<string, string>();
      for (let cp = 0; cp <= 0xffff; cp++) {
        const s = context(String.fromCharCode(cp));
        const fold = caseFold(s);
        const key = normalise(s);
        const seen = byFold.get(fold);
        if (seen === undefined) byFold.set(fold, key);
        else if (seen !== key) {
          expect.fail(`U+${cp.toString(16)} in ${JSON.stringify(s)}: same fold, different keys`);
        }
      }
    }
  });

  it('normalises alike any two strings that case-fold alike', () => {
    const flips = fc.array(fc.boolean(), { minLength: 24, maxLength: 24 });
    fc.assert(
      fc.property(anyString, flips, (s, flip) => {
        const mixed = [...s]
          .map((c, i) => (flip[i % flip.length] ? c.toUpperCase() : c.toLowerCase()))
          .join('');
        for (const other of [mixed, s.toUpperCase(), s.toLowerCase(), caseFold(s)]) {
          if (caseFold(other) === caseFold(s)) expect(normalise(other)).to.equal(normalise(s));
        }
      }),
      { numRuns: 5000 },
    );
  });

  it('agrees for NFC and NFD forms of any text', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', maxLength: 16 }), (s) => {
        expect(normalise(s.normalize('NFD'))).to.equal(normalise(s.normalize('NFC')));
      }),
      { numRuns: 2000 },
    );
  });
});

describe('caseFold', () => {
  it('folds case only', () => {
    expect(
      ['LATE', 'Not_As', 'STRASSE', 'Stra\u00DFe', '\u03A3\u03A3', ' A-B '].map(caseFold),
    ).to.deep.equal(['late', 'not_as', 'strasse', 'strasse', '\u03C3\u03C3', ' a-b ']);
  });
});

describe('normalise on ASCII', () => {
  /** The definition, with the regular expressions the general path uses. */
  const byDefinition = (s: string): string => {
    const spaced = s.toLowerCase().replace(/[\s\p{Pd}_.]+/gu, ' ');
    return spaced.replace(/^[ '"`]+/, '').replace(/[ '"`]+$/, '');
  };
  const ascii = fc.oneof(
    fc.string({
      unit: fc.integer({ min: 0, max: 127 }).map((c) => String.fromCharCode(c)),
      maxLength: 30,
    }),
    fc.string({
      unit: fc.constantFrom(' ', '-', '_', '.', '\t', '"', "'", '`', 'A', 'b', '0'),
      maxLength: 30,
    }),
  );

  it('agrees with the definition for every ASCII string', () => {
    fc.assert(
      fc.property(ascii, (s) => {
        expect(normalise(s)).to.equal(byDefinition(s));
      }),
      { numRuns: 5000 },
    );
  });

  it('returns an already normalised string itself', () => {
    const s = ['ams1 b07 s031'].join('');
    expect(normalise(s)).to.equal(s);
  });
});
