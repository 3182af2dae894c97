/**
 * The grams the near-miss index is keyed on: trigrams of the string padded
 * with two start and two end sentinels (so a string of length L has L + 2 of
 * them, and its first and last characters sit in grams of their own). Each is
 * hashed straight to a bucket of a power-of-two table, with no substring
 * allocated; two grams sharing a bucket only merge their posting lists, which
 * adds candidates and never loses a match.
 */

const PAD_START = 0x10000;
const PAD_END = 0x10001;

/** The number of padded trigrams of a string of this length. */
export function gramCount(length: number): number {
  return length + 2;
}

/**
 * Writes the bucket of the trigram at each padded position of the code units
 * `codes[from, to)` into `out` (which must hold `gramCount(to - from)`);
 * position p covers padded characters p, p + 1, p + 2.
 */
export function gramBuckets(
  codes: Uint16Array,
  from: number,
  to: number,
  mask: number,
  out: Uint32Array,
): void {
  let c0 = PAD_START;
  let c1 = PAD_START;
  const length = to - from;
  const count = gramCount(length);
  for (let i = 0; i < count; i++) {
    const c2 = i < length ? codes[from + i]! : PAD_END;
    out[i] = mix(Math.imul(c0, 0x9e3779b1) ^ Math.imul(c1, 0x85ebca77) ^ c2) & mask;
    c0 = c1;
    c1 = c2;
  }
}

/** murmur3's 32-bit finaliser, so neighbouring trigrams land far apart. */
function mix(h: number): number {
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
}
