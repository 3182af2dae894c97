/**
 * The members within one edit of a query, found by a few hash lookups rather
 * than by reading trigram lists: the first depth of every near-miss search,
 * and the one that answers most of them (a typo is usually one edit).
 *
 * Every member is filed under a hash of itself and of each string it leaves
 * when one of its characters is deleted (its deletion neighbourhood). Two
 * strings within one edit of optimal string alignment share one of those
 * strings: equal strings, themselves; a substitution at i, both less their
 * i-th character; an insertion, the longer less it and the shorter itself; a
 * swap of neighbours i and i + 1, one less its i-th character and the other
 * less its (i + 1)-th. So a query looks up the hashes of itself and of its
 * own deletions, L + 1 of them for L code units, and every member within one
 * edit is among the members filed there, with a few more (two edits through
 * different deletions, hash collisions) that the caller's verification drops.
 *
 * - Polynomial hashes, so the hash of each deletion follows from the hashes
 *   of its prefix and suffix: a member's whole neighbourhood is O(L).
 * - A run of equal characters leaves the same string whichever of them is
 *   deleted: filed once.
 * - Entries (a hash and a member number side by side) are grouped by the
 *   top bits of the hash, about four to a bucket: a lookup reads the bucket's
 *   bounds and then one or two cache lines of entries. The L + 1 lookups of
 *   a query are independent of one another, so the processor overlaps their
 *   cache misses; a trigram search's binary searches and candidate counts
 *   are chains of them.
 * - Filing hashes each member twice (to count each bucket's entries, then to
 *   place them) rather than keep the hashes between the passes: an array as
 *   large as the entries, for the time of a refresh, to save the cheaper half.
 * - Memory is 8 bytes per entry and a bucket bound per four: members are
 *   filed shortest first (the near-miss index numbers them by length), every
 *   member of one length or none, while the entries fit `ENTRY_BUDGET` and
 *   the length is at most `MAX_FILED_LENGTH`. A query is answered here only
 *   when every member it could be one edit from is filed (`reach`); others go
 *   to the trigram search, as does a query that would read a bucket grown
 *   past `BUCKET_LIMIT` (members built to collide), so the worst case is
 *   never worse than the trigram search's.
 */
import type { PackedStrings } from './packed-strings.js';
import { type Budget, inSlices, type Slices } from './slices.js';

/** Members longer than this are left to the trigram search (they are rarely typed by hand). */
export const MAX_FILED_LENGTH = 64;

/**
 * The most entries filed: 36 MiB with the bucket bounds. A set of 100,000
 * catalogue ids of 20 characters takes about 2 million.
 */
const ENTRY_BUDGET = 1 << 22;

/** A lookup that would scan more entries than this goes to the trigram search instead. */
const BUCKET_LIMIT = 512;

/** Entries per bucket, about, when every member is filed. */
const ENTRIES_PER_BUCKET = 4;

// Units of work per item (see `slices.ts`): hashing a member's neighbourhood
// and filing each entry at a random place, as the trigram postings do.
const MEMBER_WEIGHT = 0.5;
const ZERO_WEIGHT = 1 / 16;

const BASE = 0x01000193;

/** BASE ** j, modulo 2 ** 32, for j up to the longest string hashed. */
const POWERS = new Int32Array(MAX_FILED_LENGTH + 2);
POWERS[0] = 1;
for (let j = 1; j < POWERS.length; j++) POWERS[j] = Math.imul(POWERS[j - 1]!, BASE);

export interface OneEditIndex {
  /**
   * The longest query answered here: every member within one edit of a
   * string this long or shorter is filed. -1 when nothing is.
   */
  readonly reach: number;
  /**
   * Writes to `out` from its start the member numbers filed under the
   * neighbourhood of `codes[0, length)`, each once, for `length` up to
   * `reach`, and returns how many. `out` and `seen` are the caller's scratch
   * of one entry per member; `seen` is all zero, and is left so. Returns -1,
   * having written nothing, when a lookup would scan more than `BUCKET_LIMIT`
   * entries: the caller then searches another way.
   */
  candidates(codes: Uint16Array, length: number, out: Uint32Array, seen: Uint8Array): number;
}

/**
 * Files the members of `normalised` (by member number) shortest first:
 * member `memberOf[ix]` has length `lengths[ix]`, ascending in ix; as many
 * lengths as fit `entryBudget` entries. In slices of `budget`.
 */
export function* oneEditIndexInSlices(
  normalised: PackedStrings,
  memberOf: Uint32Array,
  lengths: Uint32Array,
  budget: Budget,
  entryBudget = ENTRY_BUDGET,
): Slices<OneEditIndex> {
  const { codes, starts } = normalised;
  const n = memberOf.length;
  // Members filed: those in [0, filed), a whole number of lengths.
  let filed = 0;
  let filing = 0;
  let allFiled = true;
  yield* inSlices(budget, n, ZERO_WEIGHT, (from, to) => {
    for (let ix = from; ix < to && allFiled; ix++) {
      const length = lengths[ix]!;
      if (length > MAX_FILED_LENGTH) {
        allFiled = false;
        break;
      }
      filing += length + 1;
      if (filing > entryBudget) {
        allFiled = false;
        break;
      }
      if (ix + 1 === n || lengths[ix + 1] !== length) filed = ix + 1;
    }
  });
  // Entries counted above assume no runs; the real count is at most that.
  let bits = 4;
  while (bits < 30 && 2 ** bits * ENTRIES_PER_BUCKET < filing) bits++;
  const shift = 32 - bits;
  const bucketCount = 2 ** bits;
  const bounds = new Uint32Array(bucketCount + 1);
  yield* inSlices(budget, bucketCount + 1, ZERO_WEIGHT, (from, to) => bounds.fill(0, from, to));

  const keys = new Int32Array(MAX_FILED_LENGTH + 2);
  const prefix = new Int32Array(MAX_FILED_LENGTH + 2);
  // Count each bucket's entries (into the bound after it), then sum.
  yield* inSlices(budget, filed, MEMBER_WEIGHT, (from, to) => {
    for (let ix = from; ix < to; ix++) {
      const member = memberOf[ix]!;
      const count = neighbourhood(codes, starts[member]!, starts[member + 1]!, keys, prefix);
      for (let q = 0; q < count; q++) bounds[(keys[q]! >>> shift) + 1]!++;
    }
  });
  yield* inSlices(budget, bucketCount, ZERO_WEIGHT, (from, to) => {
    for (let b = from + 1; b <= to; b++) bounds[b]! += bounds[b - 1]!;
  });
  const total = bounds[bucketCount]!;
  // Entry e: its hash at 2e, its member number at 2e + 1.
  const entries = new Int32Array(2 * total);
  const next = new Uint32Array(bucketCount);
  yield* inSlices(budget, 2 * total, ZERO_WEIGHT, (from, to) => entries.fill(0, from, to));
  yield* inSlices(budget, bucketCount, ZERO_WEIGHT, (from, to) => {
    next.set(bounds.subarray(from, to), from);
  });
  yield* inSlices(budget, filed, MEMBER_WEIGHT, (from, to) => {
    for (let ix = from; ix < to; ix++) {
      const member = memberOf[ix]!;
      const count = neighbourhood(codes, starts[member]!, starts[member + 1]!, keys, prefix);
      for (let q = 0; q < count; q++) {
        const at = next[keys[q]! >>> shift]!++;
        entries[2 * at] = keys[q]!;
        entries[2 * at + 1] = member;
      }
    }
  });
  const longestFiled = filed === 0 ? 0 : lengths[filed - 1]!;
  return searchable({
    // A member is at most one longer than a query it is one edit from.
    reach: allFiled ? MAX_FILED_LENGTH + 1 : filed === 0 ? -1 : longestFiled - 1,
    shift,
    bounds,
    entries,
  });
}

interface IndexData {
  reach: number;
  shift: number;
  bounds: Uint32Array;
  entries: Int32Array;
}

function searchable({ reach, shift, bounds, entries }: IndexData): OneEditIndex {
  const keys = new Int32Array(MAX_FILED_LENGTH + 2);
  const prefix = new Int32Array(MAX_FILED_LENGTH + 2);
  return {
    reach,
    candidates(codes, length, out, seen) {
      const count = neighbourhood(codes, 0, length, keys, prefix);
      for (let q = 0; q < count; q++) {
        const b = keys[q]! >>> shift;
        if (bounds[b + 1]! - bounds[b]! > BUCKET_LIMIT) return -1;
      }
      let offered = 0;
      for (let q = 0; q < count; q++) {
        const key = keys[q]!;
        const b = key >>> shift;
        const end = bounds[b + 1]!;
        for (let e = bounds[b]!; e < end; e++) {
          if (entries[2 * e] !== key) continue;
          const member = entries[2 * e + 1]!;
          if (seen[member] === 0) {
            seen[member] = 1;
            out[offered++] = member;
          }
        }
      }
      for (let i = 0; i < offered; i++) seen[out[i]!] = 0;
      return offered;
    },
  };
}

/**
 * Writes the hashes of `codes[from, to)` and of each distinct string it
 * leaves with one code unit deleted into `keys`; returns how many. `prefix`
 * is scratch. Both hold `to - from + 1` entries.
 */
export function neighbourhood(
  codes: Uint16Array,
  from: number,
  to: number,
  keys: Int32Array,
  prefix: Int32Array,
): number {
  const length = to - from;
  let h = 0;
  prefix[0] = 0;
  for (let i = 0; i < length; i++) {
    h = (Math.imul(h, BASE) + codes[from + i]!) | 0;
    prefix[i + 1] = h;
  }
  let count = 0;
  keys[count++] = finish(h, length);
  // `suffix`: the hash of codes[from + i + 1, to).
  let suffix = 0;
  for (let i = length - 1; i >= 0; i--) {
    const c = codes[from + i]!;
    // Deleting any character of a run leaves the same string: its first stands for all.
    if (i === 0 || codes[from + i - 1] !== c) {
      keys[count++] = finish(
        (Math.imul(prefix[i]!, POWERS[length - 1 - i]!) + suffix) | 0,
        length - 1,
      );
    }
    suffix = (Math.imul(c, POWERS[length - 1 - i]!) + suffix) | 0;
  }
  return count;
}

/**
 * The polynomial hash of a string of `length` code units, its length mixed
 * in and its bits spread (murmur3's finaliser).
 */
function finish(h: number, length: number): number {
  h ^= Math.imul(length, 0x9e3779b1);
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  return h ^ (h >>> 16);
}
