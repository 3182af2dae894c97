/**
 * Sorting packed strings in code-unit order (what `Array.prototype.sort`
 * does to strings with no comparator) without holding the event loop: a
 * bottom-up merge sort of their positions, whose runs are sorted natively and
 * whose merges proceed in slices. Equal strings keep their order, so the
 * first of a repeated value comes first.
 */
import { compareCodes, type PackedStrings } from './packed-strings.js';
import { type Budget, inSlices, type Slices } from './slices.js';

// Units of work per item (see `slices.ts`): one item of a natively sorted run,
// and one item moved by a merge (a comparison of two strings each).
const RUN_WEIGHT = 2;
const MERGE_WEIGHT = 0.25;
const FILL_WEIGHT = 1 / 64;

/** The positions 0 … count - 1 of `values`, ordered by string, then by position. */
export function* sortedOrder(values: PackedStrings, budget: Budget): Slices<Uint32Array> {
  const n = values.count;
  const { codes, starts } = values;
  const before = (a: number, b: number): number =>
    compareCodes(codes, starts[a]!, starts[a + 1]!, starts[b]!, starts[b + 1]!) || a - b;
  let source = new Uint32Array(n);
  yield* inSlices(budget, n, FILL_WEIGHT, (from, to) => {
    for (let i = from; i < to; i++) source[i] = i;
  });
  // Items per natively sorted run: one run per slice.
  const run = Math.max(2, Math.min(n, Math.floor(budget.size / RUN_WEIGHT)));
  yield* inSlices(budget, Math.ceil(n / run), run * RUN_WEIGHT, (from, to) => {
    for (let r = from; r < to; r++)
      source.subarray(r * run, Math.min(n, (r + 1) * run)).sort(before);
  });
  let target = new Uint32Array(n);
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
        dst[k] = b >= bEnd || (a < aEnd && before(src[a]!, src[b]!) < 0) ? src[a++]! : src[b++]!;
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
