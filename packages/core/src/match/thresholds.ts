/**
 * How close is "near", and how long is "too long to be a typo". Both are
 * judged on normalised forms, so `NOT_AS_DESCRIBD` is one edit from
 * `NOT_AS_DESCRIBED` whatever the separators and case.
 */

/**
 * Most edits (optimal string alignment: insert, delete, substitute, swap two
 * neighbours) a value may be from a member and still be a `near_miss`, given
 * the length of the shorter of the two normalised strings, in UTF-16 code
 * units. One- and two-character strings must match exactly: `UK` is not a typo
 * of `US`. Longer ids get more slack because a typo is per character.
 */
export function maxEdits(shorterLength: number): number {
  if (shorterLength <= 2) return 0;
  if (shorterLength < 8) return 1;
  if (shorterLength < 16) return 2;
  return 3;
}

/** The largest value `maxEdits` returns; the index never searches wider. */
export const MAX_EDITS = 3;

/**
 * Values longer than this (UTF-16 code units) are `invented` without being
 * normalised or searched, so a 10 MB string costs a length comparison. Four
 * times the longest member or alias leaves room for any amount of quoting,
 * padding and decomposed accents on a real attempt at a member; the constant
 * keeps the bound useful for sets of very short codes.
 */
export function longValueBound(longestMemberOrAlias: number): number {
  return 4 * longestMemberOrAlias + 64;
}

/**
 * Values whose normalised form is longer than this (UTF-16 code units) are
 * not searched for near misses: they can still be `case`, `format` or
 * `alias` matches (hash lookups), but a near-miss search reads the trigram
 * lists of every position of the value, and a few edits in text this long
 * are not a typo of an identifier. Members this long are never the near
 * miss of a shorter value either (the search looks at lengths within a few
 * edits of the value's). See docs/decisions/0005-bounded-check-work.md.
 */
export const NEAR_MISS_MAX_LENGTH = 1_024;
