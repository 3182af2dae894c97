/**
 * What "the same value, written differently" means. `caseFold` decides the
 * `case` shape; `normalise` decides `format`, `alias` and the strings the
 * near-miss index compares.
 *
 * Case folding is `toLowerCase()` (locale-independent in JavaScript, so a
 * Turkish runtime folds `I` like every other) plus the two places where
 * lowercasing and Unicode full case folding disagree on text an agent is
 * likely to emit: the final sigma `ς` folds to `σ` (V8 lowercases a word-final
 * `Σ` to `ς`, so `ΟΔΟΣ` and `οδοσ` would otherwise differ), and `ß`/`ẞ` fold to
 * `ss` (so `STRASSE` and `straße` differ only in case, as they do in German).
 */

import { stringOf } from './packed-strings.js';

const FOLD_SPECIALS = /[ςß]/g;

// Whitespace, dash punctuation (hyphen, non-breaking hyphen, en/em dash; NFKC
// leaves these distinct from `-`), underscore and full stop.
const SEPARATOR_RUN = /[\s\p{Pd}_.]+/gu;

// After separators collapse to one space, the ends are trimmed of spaces and
// quotes together: `-"LATE"-` must lose both layers in a single pass or the
// function would not be idempotent.
const TRIMMED_AT_ENDS = new Set(
  [
    ' ',
    "'",
    '"',
    '`',
    '\u2018',
    '\u2019',
    '\u201A',
    '\u201B',
    '\u201C',
    '\u201D',
    '\u201E',
    '\u201F',
    '\u00AB',
    '\u00BB',
    '\u2039',
    '\u203A',
  ].map((c) => c.charCodeAt(0)),
);

const NON_ASCII = /[\u0080-\uffff]/;

// The ASCII separators of SEPARATOR_RUN: tab, LF, VT, FF, CR, space, `-`, `.`, `_`.
const ASCII_SEPARATOR = new Uint8Array(128).map((_, c) =>
  (c >= 9 && c <= 13) || c === 32 || c === 45 || c === 46 || c === 95 ? 1 : 0,
);

/** Lowercase, with final sigma and sharp s folded; no other change. */
export function caseFold(s: string): string {
  return s.toLowerCase().replace(FOLD_SPECIALS, (c) => (c === 'ß' ? 'ss' : 'σ'));
}

/**
 * Unicode NFKC, case fold, runs of whitespace / `-` / `_` / `.` to one space,
 * surrounding quotes and separators removed. Idempotent; NFC and NFD input
 * normalise alike; lone surrogates pass through unchanged (never throws).
 */
export function normalise(s: string): string {
  if (s.length <= SHORT) {
    const ascii = normaliseAscii(s);
    if (ascii !== undefined) return ascii;
  }
  // NFKC is the identity on ASCII, and ASCII lowercasing cannot produce ς or ß.
  const folded = !NON_ASCII.test(s)
    ? s.toLowerCase()
    : // Folding can leave text that is no longer NFKC (a lowercase letter
      // followed by a combining mark that now composes), hence NFKC again.
      caseFold(s.normalize('NFKC')).normalize('NFKC');
  return trimEnds(folded.replace(SEPARATOR_RUN, ' '));
}

/**
 * Strings up to this long take the one-pass path below when they are ASCII;
 * longer ones, the engine's own lowercasing and replacing, which are faster
 * on megabytes than a loop that builds the result in pieces.
 */
const SHORT = 256;

const units = new Uint16Array(SHORT);

/**
 * `normalise` of an ASCII string in one pass and at most one new string (a
 * check normalises every mismatch, a compile every member), or undefined when
 * `s` is not ASCII. NFKC is the identity on ASCII, and ASCII lowercasing
 * cannot produce ς or ß: what is left is lowercasing, separator runs and
 * trimming, as the general path does them.
 */
function normaliseAscii(s: string): string | undefined {
  const length = s.length;
  let n = 0;
  let changed = false;
  let run = 0;
  for (let i = 0; i < length; i++) {
    let c = s.charCodeAt(i);
    if (c >= 128) return undefined;
    if (ASCII_SEPARATOR[c] === 1) {
      // A run of separators is one space; anything else in its place is a change.
      if (run++ > 0 || c !== 32) changed = true;
      continue;
    }
    if (run > 0) {
      units[n++] = 32;
      run = 0;
    }
    if (c >= 65 && c <= 90) {
      c += 32;
      changed = true;
    }
    units[n++] = c;
  }
  if (run > 0) units[n++] = 32;
  let start = 0;
  let end = n;
  while (start < end && TRIMMED_AT_ENDS.has(units[start]!)) start++;
  while (end > start && TRIMMED_AT_ENDS.has(units[end - 1]!)) end--;
  if (!changed && start === 0 && end === n) return s;
  return stringOf(units, start, end);
}

function trimEnds(s: string): string {
  let start = 0;
  let end = s.length;
  while (start < end && TRIMMED_AT_ENDS.has(s.charCodeAt(start))) start++;
  while (end > start && TRIMMED_AT_ENDS.has(s.charCodeAt(end - 1))) end--;
  return start === 0 && end === s.length ? s : s.slice(start, end);
}
