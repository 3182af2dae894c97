/**
 * The inverted index behind near-miss search, in packed typed arrays:
 * compressed sparse rows from trigram bucket to the ascending index numbers of
 * the strings containing that trigram (each string once per bucket). For
 * 100,000 catalogue ids this is one Uint32 per distinct trigram per id plus
 * one per bucket, and no object per gram.
 */
import { gramBuckets, gramCount } from './trigrams.js';

export interface GramPostings {
  readonly mask: number;
  /** `postings[bucketStart[b] .. bucketStart[b + 1]]` hold bucket b, ascending. */
  readonly bucketStart: Uint32Array;
  readonly postings: Uint32Array;
}

export function buildGramPostings(strings: readonly string[]): GramPostings {
  let gramTotal = 0;
  for (const s of strings) gramTotal += gramCount(s.length);
  // About eight grams per bucket before deduplication: collisions stay rare
  // for structured ids, whose distinct trigrams are far fewer than their grams.
  const mask = nextPowerOfTwo(Math.max(256, gramTotal / 8)) - 1;

  const bucketStart = new Uint32Array(mask + 2);
  const lastSeen = new Int32Array(mask + 1).fill(-1);
  // Two passes (count, then fill) avoid a growable list per bucket.
  forEachDistinctBucket(strings, mask, lastSeen, (b) => bucketStart[b + 1]!++);
  for (let b = 1; b < bucketStart.length; b++) bucketStart[b]! += bucketStart[b - 1]!;
  const postings = new Uint32Array(bucketStart[mask + 1]!);
  const fill = bucketStart.slice(0, mask + 1);
  lastSeen.fill(-1);
  forEachDistinctBucket(strings, mask, lastSeen, (b, ix) => {
    postings[fill[b]!++] = ix;
  });
  return { mask, bucketStart, postings };
}

function forEachDistinctBucket(
  strings: readonly string[],
  mask: number,
  lastSeen: Int32Array,
  visit: (bucket: number, ix: number) => void,
): void {
  let buckets = new Uint32Array(64);
  for (let ix = 0; ix < strings.length; ix++) {
    const s = strings[ix]!;
    const count = gramCount(s.length);
    if (buckets.length < count) buckets = new Uint32Array(2 * count);
    gramBuckets(s, mask, buckets);
    for (let t = 0; t < count; t++) {
      const b = buckets[t]!;
      if (lastSeen[b] !== ix) {
        lastSeen[b] = ix;
        visit(b, ix);
      }
    }
  }
}

function nextPowerOfTwo(x: number): number {
  let p = 1;
  while (p < x) p *= 2;
  return p;
}
