/**
 * Sorting in code-unit order (what `Array.prototype.sort` does with no
 * comparator) without holding the event loop: a bottom-up merge sort whose
 * runs are sorted natively and whose merges proceed in slices. The members of
 * a set are distinct, so the result is the same as one native sort.
 */
import { type Budget, inSlices, type Slices } from './slices.js';

// Units of work per item (see `slices.ts`): one item of a natively sorted run,
// and one item moved by a merge.
const RUN_WEIGHT = 0.5;
const MERGE_WEIGHT = 0.0625;

/** `values` (distinct strings), sorted in place or into a new array; returns the sorted array. */
export function* sortInSlices(values: string[], budget: Budget): Slices<string[]> {
  const n = values.length;
  // Items per natively sorted run: one run per slice.
  const run = Math.max(2, Math.floor(budget.size / RUN_WEIGHT));
  if (n <= run) {
    // One native sort (always, with an unlimited budget).
    values.sort();
    budget.left -= n * RUN_WEIGHT;
    return values;
  }
  let source = values;
  yield* inSlices(budget, Math.ceil(n / run), run * RUN_WEIGHT, (from, to) => {
    for (let r = from; r < to; r++) {
      const lo = r * run;
      const sorted = source.slice(lo, Math.min(n, lo + run)).sort();
      for (let i = 0; i < sorted.length; i++) source[lo + i] = sorted[i]!;
    }
  });
  let target = values.slice();
  for (let width = run; width < n; width *= 2) {
    const src = source;
    const dst = target;
    // The merge's position, kept across slices: the pair of runs
    // [i, iEnd) and [j, jEnd) being merged into dst.
    let i = 0;
    let iEnd = Math.min(n, width);
    let j = iEnd;
    let jEnd = Math.min(n, 2 * width);
    yield* inSlices(budget, n, MERGE_WEIGHT, (from, to) => {
      let a = i;
      let aEnd = iEnd;
      let b = j;
      let bEnd = jEnd;
      for (let k = from; k < to; k++) {
        if (a === aEnd && b === bEnd) {
          a = k;
          aEnd = Math.min(n, k + width);
          b = aEnd;
          bEnd = Math.min(n, k + 2 * width);
        }
        dst[k] = b >= bEnd || (a < aEnd && src[a]! < src[b]!) ? src[a++]! : src[b++]!;
      }
      i = a;
      iEnd = aEnd;
      j = b;
      jEnd = bEnd;
    });
    source = dst;
    target = src;
  }
  return source;
}
