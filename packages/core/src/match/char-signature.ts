/**
 * A 64-bit summary of how often each character occurs in a string, for
 * rejecting index candidates without reading the candidate string.
 *
 * Characters fall into 32 buckets (one per digit, 21 for letters and other
 * scripts, one for spaces and punctuation), each holding a count that
 * saturates at 3 in two bits. One edit changes these counts by at most 2 in total (a
 * substitution takes one away and adds one), so two strings within k edits
 * have signatures at most 2k apart, summed over the buckets. Merging
 * characters into a bucket or saturating a count only shrinks that sum, so
 * the test never rejects a real match; it does reject the typical false
 * candidate of a catalogue, which shares the words and differs in the digits.
 */

// Bucket per ASCII code: digits 0-9 their own, a-u 10-30 (v-z, rarer in
// identifiers, share with a-e), everything else 31. Normalised text has no
// upper case.
const ASCII_BUCKET = new Uint8Array(128).map((_, c) => {
  if (c >= 48 && c <= 57) return c - 48;
  if (c >= 97 && c <= 122) return 10 + ((c - 97) % 21);
  return 31;
});

function bucketOf(c: number): number {
  // Other scripts spread over the letter buckets, so sets of Cyrillic or CJK
  // ids are filtered too.
  return c < 128 ? ASCII_BUCKET[c]! : 10 + (c % 21);
}

// DIFF[a << 8 | b]: the summed difference of the four 2-bit counts in bytes a and b.
const DIFF = new Uint8Array(1 << 16).map((_, i) => {
  let sum = 0;
  for (let f = 0; f < 8; f += 2) sum += Math.abs(((i >>> (8 + f)) & 3) - ((i >>> f) & 3));
  return sum;
});

/**
 * Writes the signature of the code units `codes[from, to)` into `out[at]`
 * (buckets 0-15) and `out[at + 1]` (16-31).
 */
export function writeSignature(
  codes: Uint16Array,
  from: number,
  to: number,
  out: Int32Array,
  at: number,
): void {
  let lo = 0;
  let hi = 0;
  for (let i = from; i < to; i++) {
    const c = codes[i]!;
    const bucket = bucketOf(c);
    const shift = (bucket & 15) * 2;
    if (bucket < 16) {
      if (((lo >>> shift) & 3) < 3) lo += 1 << shift;
    } else if (((hi >>> shift) & 3) < 3) hi += 1 << shift;
  }
  out[at] = lo;
  out[at + 1] = hi;
}

/**
 * Which buckets are present in the signature at `a[i]`, one bit each: a
 * cheaper, weaker test to run first (one edit changes at most two bits).
 */
export function presence(a: Int32Array, i: number): number {
  return nonZeroFields(a[i]!) | (nonZeroFields(a[i + 1]!) << 16);
}

/** 16 bits: bit f is set when the 2-bit field f of `x` is non-zero. */
function nonZeroFields(x: number): number {
  x = (x | (x >>> 1)) & 0x55555555;
  x = (x | (x >>> 1)) & 0x33333333;
  x = (x | (x >>> 2)) & 0x0f0f0f0f;
  x = (x | (x >>> 4)) & 0x00ff00ff;
  return (x | (x >>> 8)) & 0x0000ffff;
}

/** The number of set bits of a 32-bit integer. */
export function bitCount(x: number): number {
  x -= (x >>> 1) & 0x55555555;
  x = (x & 0x33333333) + ((x >>> 2) & 0x33333333);
  x = (x + (x >>> 4)) & 0x0f0f0f0f;
  return Math.imul(x, 0x01010101) >>> 24;
}

/** The summed count difference between signatures at `a[i]` and `b[j]`. */
export function signatureDistance(a: Int32Array, i: number, b: Int32Array, j: number): number {
  return wordDistance(a[i]!, b[j]!) + wordDistance(a[i + 1]!, b[j + 1]!);
}

function wordDistance(x: number, y: number): number {
  return (
    DIFF[((x & 0xff) << 8) | (y & 0xff)]! +
    DIFF[(x & 0xff00) | ((y >>> 8) & 0xff)]! +
    DIFF[((x >>> 8) & 0xff00) | ((y >>> 16) & 0xff)]! +
    DIFF[((x >>> 16) & 0xff00) | (y >>> 24)]!
  );
}
