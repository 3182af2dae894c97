/** String generators for property tests. */
import fc from 'fast-check';

/**
 * Strings over a small alphabet chosen to collide: letters in both cases,
 * digits, every separator, quotes, and characters whose folding or
 * normalisation is special (ß, ẞ, final and medial sigma, dotted I, a
 * precomposed é beside e + combining acute, a full-width A).
 */
export const idLike = fc.string({
  unit: fc.constantFrom(...'aAbBeE01 -_.\'"`\u2018\u201Dß\u1E9EΣσςİ\u00E9\u0301\uFF21'.split('')),
  maxLength: 12,
});

/** Any UTF-16 code units, lone surrogates included. */
export const codeUnits = fc.string({
  unit: fc.integer({ min: 0, max: 0xffff }).map((c) => String.fromCharCode(c)),
  maxLength: 24,
});

export const anyString = fc.oneof(
  idLike,
  codeUnits,
  fc.string({ unit: 'binary', maxLength: 24 }),
  fc.string({ unit: 'grapheme', maxLength: 12 }),
  fc.string({ maxLength: 24 }),
);

/** A member turned into a plausible emitted value: retyped, re-cased, reformatted. */
export function variantOf(member: string): fc.Arbitrary<string> {
  return fc.oneof(
    fc.constant(member),
    fc.constant(member.toLowerCase()),
    fc.constant(member.toUpperCase()),
    fc.constant(` "${member.replace(/_/g, ' ')}" `),
    fc
      .tuple(fc.nat({ max: member.length }), fc.nat({ max: member.length }), idLike)
      .map(
        ([from, to, insert]) =>
          member.slice(0, Math.min(from, to)) +
          insert.slice(0, 2) +
          member.slice(Math.max(from, to)),
      ),
    fc
      .nat({ max: Math.max(0, member.length - 2) })
      .map(
        (i) =>
          member.slice(0, i) +
          member.slice(i + 1, i + 2) +
          member.slice(i, i + 1) +
          member.slice(i + 2),
      ),
  );
}
