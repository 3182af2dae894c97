/**
 * Chooses which of a query's trigrams to look up, by pigeonhole.
 *
 * Take m trigrams of the (padded) query that neither overlap nor touch: each
 * starts at least four positions after the previous one. One edit (insert,
 * delete, substitute, or swap two neighbours) then damages at most one of
 * them, so a member within k edits still contains at least m - k of them
 * intact. Looking up m >= k + 1 such trigrams and keeping members found in at
 * least m - k of the lists loses no match.
 *
 * Which m, and which trigrams: dynamic programming finds, for each m, the
 * placement with the fewest postings to read; the m chosen then balances
 * reading (cheap, per posting) against candidates to verify (dear, and many
 * more when a member needs to appear in only one list).
 */
import { MAX_EDITS } from './thresholds.js';

/** A chunk is 3 characters plus one untouched character before the next. */
const STRIDE = 4;
// Requiring a member in more than this many lists buys nothing measurable.
const MAX_EXTRA_CHUNKS = 3;
// The most chunks ever chosen.
const MAX_CHUNKS = MAX_EDITS + 1 + MAX_EXTRA_CHUNKS;

export class ChunkSelection {
  /** Positions of the chosen trigrams, in `positions[0 .. count)`. */
  positions = new Int32Array(MAX_CHUNKS);
  count = 0;
  /** Lists a member must appear in to be a candidate (m - k). */
  bound = 0;
  private best = new Float64Array(0);
  private parent = new Int32Array(0);

  /**
   * Choose for `edits` = k, given `sizes[p]`, the postings behind the trigram
   * at each of `grams` positions. Returns false when fewer than k + 1 chunks
   * fit, which the thresholds rule out for every length.
   */
  choose(sizes: Uint32Array, grams: number, edits: number): boolean {
    const fit = Math.floor((grams - 1) / STRIDE) + 1;
    const most = Math.min(fit, edits + 1 + MAX_EXTRA_CHUNKS);
    if (most < edits + 1) return false;
    if (this.best.length < most * grams) {
      this.best = new Float64Array(2 * most * grams);
      this.parent = new Int32Array(2 * most * grams);
    }
    const { best, parent } = this;
    // best[(j - 1) * grams + i]: fewest postings for j chunks, the last at i.
    for (let i = 0; i < grams; i++) best[i] = sizes[i]!;
    let chosenCost = Infinity;
    let chosenM = 0;
    let chosenLast = -1;
    for (let j = 1; j <= most; j++) {
      const row = (j - 1) * grams;
      if (j > 1) {
        let runMin = Infinity;
        let runArg = -1;
        for (let i = 0; i < grams; i++) {
          const from = i - STRIDE;
          if (from >= 0 && best[row - grams + from]! < runMin) {
            runMin = best[row - grams + from]!;
            runArg = from;
          }
          best[row + i] = runMin + sizes[i]!;
          parent[row + i] = runArg;
        }
      }
      if (j < edits + 1) continue;
      let last = -1;
      for (let i = 0; i < grams; i++) {
        if (best[row + i]! < Infinity && (last < 0 || best[row + i]! < best[row + last]!)) last = i;
      }
      if (last < 0) continue;
      const cost = best[row + last]! * costPerPosting(j - edits);
      if (cost < chosenCost) {
        chosenCost = cost;
        chosenM = j;
        chosenLast = last;
      }
    }
    if (chosenM === 0) return false;
    for (let j = chosenM, i = chosenLast; j >= 1; j--) {
      this.positions[j - 1] = i;
      i = parent[(j - 1) * grams + i]!;
    }
    this.count = chosenM;
    this.bound = chosenM - edits;
    return true;
  }
}

/**
 * Relative cost of one posting read when members must appear in `bound`
 * lists: reading it (most are rejected right there by the presence bits they
 * carry), plus counting and checking the survivors, whose share halves with
 * each further list required. The constants came from a sweep on catalogue
 * ids (bench/match-scale.mjs); latency barely moved across a fourfold range
 * of the second term, so they are not fragile.
 */
function costPerPosting(bound: number): number {
  return 1 + 2 ** (1 - bound);
}
