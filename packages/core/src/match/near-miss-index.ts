/**
 * Finds the members within a few edits of a string without scanning the set:
 * trigram posting lists, a pigeonhole count filter, cheap rejection, exact
 * verification.
 *
 * - Each normalised member is indexed under its padded trigrams
 *   (`trigrams.ts`, `gram-postings.ts`: packed typed arrays).
 * - Members are numbered by normalised length, so every posting list is
 *   ordered by length too, and binary search confines each list to members
 *   whose length is within k of the query's: a length filter for free.
 * - A query reads only a few lists: m of its trigrams that do not touch, so
 *   that k edits damage at most k of them and a match is in at least m - k of
 *   the lists (`chunk-selection.ts` picks rare ones and the m).
 * - Each posting carries its member's character-presence bits, so most
 *   members are rejected while a list is read in order: catalogue ids share
 *   words and differ in digits (`char-signature.ts`). Survivors are counted
 *   in a preallocated typed array, then checked against the finer
 *   character-count signature.
 * - The rest are verified with the banded, early-exit OSA distance
 *   (`edit-distance.ts`).
 * - Searches deepen k = 1, 2, then the maximum, stopping at the first depth
 *   that answers: most misses are a typo or two, and shallow searches read
 *   short lists and let few candidates through.
 * - Depth 1 asks the one-edit index first (`one-edit-index.ts`: deletion
 *   neighbourhoods, a few hash lookups), which answers it for every query
 *   whose possible matches it files; the trigram lists answer the rest.
 *
 * - Built in slices (`nearMissIndexInSlices`, see `slices.ts`) so that a
 *   refresh never holds the event loop; every step is a loop over members or
 *   postings, the length order included (a counting sort, not a comparison
 *   sort of a million indices).
 *
 * Rejected designs: counting shared trigrams over all of the query's
 * overlapping trigrams (a match shares at least D - 4k of D) forces reading
 * the 13 rarest lists of a 20-character id at k = 3, and on catalogue ids,
 * whose words are common, that meant thousands of candidates. Deletion
 * neighbourhoods (SymSpell) are exact and fast for k <= 1, but at k = 3 they
 * need thousands of entries per 20-character member, far over the memory
 * budget: they serve depth 1 only.
 */
import { bitCount, presence, signatureDistance, writeSignature } from './char-signature.js';
import { ChunkSelection } from './chunk-selection.js';
import { boundedOsaDistance } from './edit-distance.js';
import { type GramPostings, gramPostingsInSlices } from './gram-postings.js';
import { type OneEditIndex, oneEditIndexInSlices } from './one-edit-index.js';
import { codesOf, type PackedStrings } from './packed-strings.js';
import { Budget, inSlices, runWhole, type Slices } from './slices.js';
import { MAX_EDITS, maxEdits, NEAR_MISS_MAX_LENGTH } from './thresholds.js';
import { gramBuckets, gramCount } from './trigrams.js';

// Units of work per item (see `slices.ts`): a member's signature, a member's
// place in length order, and one posting's presence bits (a read at a random
// place in `present`, so weighed more than a sequential one: docs/decisions/0012).
const SIGNATURE_WEIGHT = 0.5;
const ORDER_WEIGHT = 0.125;
const POSTING_WEIGHT = 1 / 8;

/** Lengths whose first index number is kept: every window of a query short enough to search. */
const LENGTH_TABLE = NEAR_MISS_MAX_LENGTH + MAX_EDITS + 1;

/** A member within reach of a query: its position in member order, and the distance. */
export interface NearMatch {
  member: number;
  distance: number;
}

export interface NearMissIndex {
  /**
   * Members within `maxEdits` of `query`, closest first, ties by member order.
   * With `enough`, the search may stop early once it has that many: it then
   * holds every member up to some distance d, and none farther than d.
   */
  within(query: string, enough?: number): NearMatch[];
  /** The closest member within `maxEdits` of `query` (ties by member order), or undefined. */
  nearest(query: string): NearMatch | undefined;
}

export interface NearMissIndexOptions {
  /**
   * Whether depth 1 asks the one-edit index (default true). Off, every depth
   * reads trigram lists: the tests check both ways against a scan.
   */
  oneEdit?: boolean;
}

/**
 * Index `normalised` (member order: string i is member i). It is kept for
 * verification (the compiled set keeps it anyway); nothing else about the
 * members is retained.
 */
export function createNearMissIndex(
  normalised: PackedStrings,
  options?: NearMissIndexOptions,
): NearMissIndex {
  return runWhole(nearMissIndexInSlices(normalised, new Budget(Infinity), options));
}

/** `createNearMissIndex` in slices of `budget` (see `slices.ts`). */
export function* nearMissIndexInSlices(
  normalised: PackedStrings,
  budget: Budget,
  { oneEdit = true }: NearMissIndexOptions = {},
): Slices<NearMissIndex> {
  const n = normalised.count;
  const { codes, starts } = normalised;
  // Index numbers: members ordered by (normalised length, member order).
  const memberOf = yield* orderByLength(normalised, budget);
  const lengths = new Uint32Array(n);
  const signatures = new Int32Array(2 * n);
  // Each posting carries its member's presence bits, so most members are
  // rejected while the list is read in order, before any random access.
  const present = new Int32Array(n);
  yield* inSlices(budget, n, SIGNATURE_WEIGHT, (from, to) => {
    for (let ix = from; ix < to; ix++) {
      const member = memberOf[ix]!;
      const start = starts[member]!;
      const end = starts[member + 1]!;
      lengths[ix] = end - start;
      writeSignature(codes, start, end, signatures, 2 * ix);
      present[ix] = presence(signatures, 2 * ix);
    }
  });
  const edits = oneEdit
    ? yield* oneEditIndexInSlices(normalised, memberOf, lengths, budget)
    : undefined;
  const grams = yield* gramPostingsInSlices(normalised, memberOf, budget);
  const postingPresent = new Int32Array(grams.postings.length);
  yield* inSlices(budget, grams.postings.length, POSTING_WEIGHT, (from, to) => {
    for (let i = from; i < to; i++) postingPresent[i] = present[grams.postings[i]!]!;
  });
  // Built apart from this generator, whose scope (the presence bits) the
  // search functions would otherwise keep alive.
  return searchable({
    memberOf,
    normalised,
    lengths,
    signatures,
    postingPresent,
    oneEdit: edits,
    ...grams,
  });
}

/** What a search reads: everything but the strings is packed. */
interface IndexData extends GramPostings {
  /** Member number of each index number. */
  memberOf: Uint32Array;
  /** Normalised member of each member number (member `memberOf[ix]` for index number ix). */
  normalised: PackedStrings;
  lengths: Uint32Array;
  /** Two words of character counts per index number (`char-signature.ts`). */
  signatures: Int32Array;
  /** The presence bits of each posting's member. */
  postingPresent: Int32Array;
  oneEdit: OneEditIndex | undefined;
}

function searchable(data: IndexData): NearMissIndex {
  const {
    memberOf,
    normalised,
    lengths,
    signatures,
    postingPresent,
    oneEdit,
    mask,
    bucketStart,
    postings,
  } = data;
  const n = normalised.count;
  const { codes, starts } = normalised;
  const querySignature = new Int32Array(2);
  const maxLength = n === 0 ? 0 : lengths[n - 1]!;
  // The first index number of each length a search may ask for: the length
  // window is two reads, not two binary searches.
  const firstOfLength = new Uint32Array(LENGTH_TABLE + 1);
  for (let length = 0; length <= LENGTH_TABLE; length++) {
    firstOfLength[length] = lowerBound(
      lengths,
      length === 0 ? 0 : firstOfLength[length - 1]!,
      n,
      length,
    );
  }
  const firstOf = (length: number): number =>
    length <= LENGTH_TABLE ? firstOfLength[length]! : lowerBound(lengths, 0, n, length);

  // Per-query scratch, reused: classification is synchronous. `prepare`
  // loads the query's code units into `queryCodes`; its trigram buckets and
  // list sizes are loaded when a depth first reads lists (`gramsLoaded`).
  let queryCodes: Uint16Array = new Uint16Array(64);
  let gramsLoaded = false;
  const counts = new Uint8Array(n);
  // Index numbers of the members counted, then (from the start, as they are
  // read) the member numbers `filter` found: `found[0, foundCount)`.
  const touched = new Uint32Array(n);
  const found = touched;
  let foundCount = 0;
  const chunks = new ChunkSelection();
  let buckets = new Uint32Array(64);
  let sizes = new Uint32Array(64);

  /**
   * Fills `found[0, foundCount)` with the member numbers of every member that
   * may be within `k` edits of `query`, which `prepare` loaded.
   */
  function filter(query: string, k: number): void {
    foundCount = 0;
    const length = query.length;
    const windowLo = firstOf(Math.max(0, length - k));
    const windowHi = firstOf(length + k + 1);
    if (windowLo >= windowHi) return;
    if (k <= 1 && oneEdit !== undefined && length <= oneEdit.reach) {
      const offered = oneEdit.candidates(queryCodes, length, found, counts);
      if (offered >= 0) {
        foundCount = offered;
        return;
      }
    }
    if (!gramsLoaded) loadGrams(length);
    const grams = gramCount(length);
    // Chunks are chosen on whole-list sizes: narrowing every list to the
    // length window first would cost two binary searches per trigram, each a
    // string of cache misses in a large postings array.
    if (!chunks.choose(sizes, grams, k)) {
      for (let ix = windowLo; ix < windowHi; ix++) found[foundCount++] = memberOf[ix]!;
      return;
    }
    const { positions, count, bound } = chunks;
    writeSignature(queryCodes, 0, length, querySignature, 0);
    const queryPresent = presence(querySignature, 0);
    const mostApart = 2 * k;
    let touchedCount = 0;
    for (let c = 0; c < count; c++) {
      const b = buckets[positions[c]!]!;
      const from = lowerBound(postings, bucketStart[b]!, bucketStart[b + 1]!, windowLo);
      const to = lowerBound(postings, from, bucketStart[b + 1]!, windowHi);
      for (let i = from; i < to; i++) {
        if (bitCount(postingPresent[i]! ^ queryPresent) > mostApart) continue;
        const ix = postings[i]!;
        if (counts[ix]!++ === 0) touched[touchedCount++] = ix;
      }
    }
    // `found` overwrites `touched` behind the read position.
    for (let t = 0; t < touchedCount; t++) {
      const ix = touched[t]!;
      if (
        counts[ix]! >= bound &&
        signatureDistance(signatures, 2 * ix, querySignature, 0) <= mostApart
      ) {
        found[foundCount++] = memberOf[ix]!;
      }
      counts[ix] = 0;
    }
  }

  /** Loads the code units of `query`; returns the most edits worth searching, or -1. */
  function prepare(query: string): number {
    const length = query.length;
    if (n === 0 || length > maxLength + MAX_EDITS) return -1;
    queryCodes = codesOf(query, queryCodes);
    gramsLoaded = false;
    return maxEdits(length);
  }

  /** Loads the trigram buckets and list sizes of the query `prepare` loaded. */
  function loadGrams(length: number): void {
    const grams = gramCount(length);
    if (buckets.length < grams) {
      buckets = new Uint32Array(2 * grams);
      sizes = new Uint32Array(2 * grams);
    }
    gramBuckets(queryCodes, 0, length, mask, buckets);
    for (let p = 0; p < grams; p++) {
      const b = buckets[p]!;
      sizes[p] = bucketStart[b + 1]! - bucketStart[b]!;
    }
    gramsLoaded = true;
  }

  /** The distance from `query` to `member` if at most `k` and its own limit, else -1. */
  function distanceTo(query: string, member: number, k: number): number {
    const start = starts[member]!;
    const end = starts[member + 1]!;
    const limit = Math.min(k, maxEdits(Math.min(query.length, end - start)));
    const d = boundedOsaDistance(queryCodes, 0, query.length, codes, start, end, limit);
    return d <= limit ? d : -1;
  }

  // A search at depth k finds every member within k, so stopping at the first
  // depth that satisfies the caller loses nothing closer: searches deepen
  // from `shallowest(most)` to `most` one edit at a time. Distance 0 (members
  // that collide under normalisation) needs no depth of its own: depth 1
  // finds it. Depth 2 sits between because two typos are common and k = 3 is
  // dear. (Indexed loops, not iterators, here and below: a classification
  // should allocate its answer and little else.)
  function shallowest(most: number): number {
    return Math.min(most, 1);
  }

  /** Members within `k` of `query`, unordered. */
  function hitsWithin(query: string, k: number): NearMatch[] {
    filter(query, k);
    const hits: NearMatch[] = [];
    for (let i = 0; i < foundCount; i++) {
      const member = found[i]!;
      const distance = distanceTo(query, member, k);
      if (distance >= 0) hits.push({ member, distance });
    }
    return hits;
  }

  return {
    within(query, enough = Infinity) {
      const most = prepare(query);
      if (most < 0) return [];
      let hits: NearMatch[] = [];
      for (let k = enough === Infinity ? most : shallowest(most); k <= most; k++) {
        hits = hitsWithin(query, k);
        if (hits.length >= enough) break;
      }
      return hits.sort((x, y) => x.distance - y.distance || x.member - y.member);
    },
    nearest(query) {
      const most = prepare(query);
      if (most < 0) return undefined;
      let below = 0;
      for (let k = shallowest(most); k <= most; k++) {
        filter(query, k);
        let best: NearMatch | undefined;
        for (let i = 0; i < foundCount; i++) {
          const member = found[i]!;
          // Nothing is closer than `below`: once a hit is there, only an
          // earlier member at the same distance can beat it.
          if (best && best.distance === below && member > best.member) continue;
          const distance = distanceTo(query, member, best ? best.distance : k);
          if (distance < 0) continue;
          if (!best || distance < best.distance || member < best.member) {
            best = { member, distance };
          }
        }
        if (best) return best;
        below = k + 1;
      }
      return undefined;
    },
  };
}

/**
 * Member numbers ordered by (length of normalised member, member number): a
 * stable counting sort on the length, in slices.
 */
function* orderByLength(normalised: PackedStrings, budget: Budget): Slices<Uint32Array> {
  const n = normalised.count;
  // Distinct lengths are few (at most about the square root of twice the
  // total length), so a map beats an array indexed by length.
  const counts = new Map<number, number>();
  yield* inSlices(budget, n, ORDER_WEIGHT, (from, to) => {
    for (let i = from; i < to; i++) {
      const length = normalised.lengthOf(i);
      counts.set(length, (counts.get(length) ?? 0) + 1);
    }
  });
  const next = new Map<number, number>();
  let start = 0;
  for (const length of [...counts.keys()].sort((a, b) => a - b)) {
    next.set(length, start);
    start += counts.get(length)!;
  }
  const order = new Uint32Array(n);
  yield* inSlices(budget, n, ORDER_WEIGHT, (from, to) => {
    for (let i = from; i < to; i++) {
      const length = normalised.lengthOf(i);
      const at = next.get(length)!;
      order[at] = i;
      next.set(length, at + 1);
    }
  });
  return order;
}

/** First position in `a[from, to)` (ascending) whose value is >= `value`. */
function lowerBound(a: Uint32Array, from: number, to: number, value: number): number {
  let lo = from;
  let hi = to;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (a[mid]! < value) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
