/**
 * The inverted index behind near-miss search, in packed typed arrays:
 * compressed sparse rows from trigram bucket to the ascending index numbers of
 * the strings containing that trigram (each string once per bucket). For
 * 100,000 catalogue ids this is one Uint32 per distinct trigram per id plus
 * one per bucket, and no object per gram.
 */
import type { PackedStrings } from './packed-strings.js';
import { type Budget, inSlices, type Slices } from './slices.js';
import { gramBuckets, gramCount } from './trigrams.js';

// Units of work per item (see `slices.ts`): hashing a string's trigrams,
// reading its length, and writing one bucket's entry (docs/decisions/0012).
const GRAMS_WEIGHT = 0.5;
const LENGTH_WEIGHT = 1 / 32;
const BUCKET_WEIGHT = 1 / 16;

export interface GramPostings {
  readonly mask: number;
  /** `postings[bucketStart[b] .. bucketStart[b + 1]]` hold bucket b, ascending. */
  readonly bucketStart: Uint32Array;
  readonly postings: Uint32Array;
}

/**
 * Builds the postings of `keys` in slices of `budget` (see `slices.ts`),
 * under index numbers: index number ix is string `memberOf[ix]` of `keys`.
 */
export function* gramPostingsInSlices(
  keys: PackedStrings,
  memberOf: Uint32Array,
  budget: Budget,
): Slices<GramPostings> {
  let gramTotal = 0;
  yield* inSlices(budget, memberOf.length, LENGTH_WEIGHT, (from, to) => {
    for (let ix = from; ix < to; ix++) gramTotal += gramCount(keys.lengthOf(memberOf[ix]!));
  });
  // About eight grams per bucket before deduplication: collisions stay rare
  // for structured ids, whose distinct trigrams are far fewer than their grams.
  const mask = nextPowerOfTwo(Math.max(256, gramTotal / 8)) - 1;

  // Tables of a few million buckets are filled in slices too: writing 16 MB
  // is milliseconds of page faults. That includes the zeros of a fresh table
  // that the passes below write to at random places: its first slice would
  // otherwise fault in nearly every page at once (docs/decisions/0012).
  const bucketStart = new Uint32Array(mask + 2);
  const lastSeen = new Int32Array(mask + 1);
  yield* inSlices(budget, mask + 2, BUCKET_WEIGHT, (from, to) => {
    bucketStart.fill(0, from, to);
    lastSeen.fill(-1, from, Math.min(to, mask + 1));
  });
  // Two passes (count, then fill) avoid a growable list per bucket.
  yield* forEachDistinctBucket(
    keys,
    memberOf,
    mask,
    lastSeen,
    budget,
    (b) => bucketStart[b + 1]!++,
  );
  yield* inSlices(budget, bucketStart.length - 1, BUCKET_WEIGHT, (from, to) => {
    for (let b = from + 1; b <= to; b++) bucketStart[b]! += bucketStart[b - 1]!;
  });
  const postings = new Uint32Array(bucketStart[mask + 1]!);
  yield* inSlices(budget, postings.length, BUCKET_WEIGHT, (from, to) => postings.fill(0, from, to));
  const fill = new Uint32Array(mask + 1);
  yield* inSlices(budget, mask + 1, BUCKET_WEIGHT, (from, to) => {
    fill.set(bucketStart.subarray(from, to), from);
    lastSeen.fill(-1, from, to);
  });
  yield* forEachDistinctBucket(keys, memberOf, mask, lastSeen, budget, (b, ix) => {
    postings[fill[b]!++] = ix;
  });
  return { mask, bucketStart, postings };
}

function forEachDistinctBucket(
  keys: PackedStrings,
  memberOf: Uint32Array,
  mask: number,
  lastSeen: Int32Array,
  budget: Budget,
  visit: (bucket: number, ix: number) => void,
): Slices<void> {
  const { codes, starts } = keys;
  let buckets = new Uint32Array(64);
  return inSlices(budget, memberOf.length, GRAMS_WEIGHT, (from, to) => {
    for (let ix = from; ix < to; ix++) {
      const member = memberOf[ix]!;
      const start = starts[member]!;
      const end = starts[member + 1]!;
      const count = gramCount(end - start);
      if (buckets.length < count) buckets = new Uint32Array(2 * count);
      gramBuckets(codes, start, end, mask, buckets);
      for (let t = 0; t < count; t++) {
        const b = buckets[t]!;
        if (lastSeen[b] !== ix) {
          lastSeen[b] = ix;
          visit(b, ix);
        }
      }
    }
  });
}

function nextPowerOfTwo(x: number): number {
  let p = 1;
  while (p < x) p *= 2;
  return p;
}
