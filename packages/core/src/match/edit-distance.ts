/**
 * Optimal string alignment distance (Damerau-Levenshtein without edits inside
 * a transposed pair) with an upper bound, for verifying index candidates.
 *
 * Three things keep a verification cheap: a common prefix and suffix are
 * skipped (index candidates usually share a long one with the query); only
 * the diagonal band of width 2 × bound + 1 is filled; and the computation
 * stops as soon as no cell of a row can still lead to a result within the
 * bound, counting the length difference left to cover (Ukkonen's cut-off).
 */

// Three reusable rows; classification is synchronous, so sharing is safe.
let rowA = new Int32Array(64);
let rowB = new Int32Array(64);
let rowC = new Int32Array(64);

/**
 * The OSA distance between `a[aFrom, aTo)` and `b[bFrom, bTo)` (UTF-16 code
 * units) if it is at most `bound`, otherwise `bound + 1`.
 */
export function boundedOsaDistance(
  a: Uint16Array,
  aFrom: number,
  aTo: number,
  b: Uint16Array,
  bFrom: number,
  bTo: number,
  bound: number,
): number {
  const over = bound + 1;
  if (Math.abs(aTo - aFrom - (bTo - bFrom)) > bound) return over;
  // A common prefix or suffix costs nothing in an optimal alignment.
  while (aFrom < aTo && bFrom < bTo && a[aFrom] === b[bFrom]) {
    aFrom++;
    bFrom++;
  }
  while (aTo > aFrom && bTo > bFrom && a[aTo - 1] === b[bTo - 1]) {
    aTo--;
    bTo--;
  }
  const la = aTo - aFrom;
  const lb = bTo - bFrom;
  if (la === 0 || lb === 0) return Math.max(la, lb);
  if (rowA.length <= lb) {
    const size = 2 * (lb + 1);
    rowA = new Int32Array(size);
    rowB = new Int32Array(size);
    rowC = new Int32Array(size);
  }
  let before = rowA; // row i - 2
  let prev = rowB; // row i - 1
  let cur = rowC; // row i
  for (let j = 0; j <= lb; j++) prev[j] = j <= bound ? j : over;
  for (let i = 1; i <= la; i++) {
    const lo = Math.max(1, i - bound);
    const hi = Math.min(lb, i + bound);
    // Cells left of the band are at least i - j > bound edits away.
    cur[lo - 1] = lo === 1 && i <= bound ? i : over;
    const ai = a[aFrom + i - 1]!;
    const aPrev = i > 1 ? a[aFrom + i - 2]! : -1;
    // What is left after cell (i, j) differs in length by |rest|, one edit each.
    let rest = la - i - (lb - lo + 1);
    let rowBest = cur[lo - 1]! + (rest < 0 ? -rest : rest);
    rest++;
    for (let j = lo; j <= hi; j++, rest++) {
      const bj = b[bFrom + j - 1]!;
      let v = prev[j - 1]! + (ai === bj ? 0 : 1);
      const del = prev[j]! + 1;
      if (del < v) v = del;
      const ins = cur[j - 1]! + 1;
      if (ins < v) v = ins;
      if (j > 1 && ai === b[bFrom + j - 2] && aPrev === bj) {
        const swap = before[j - 2]! + 1;
        if (swap < v) v = swap;
      }
      cur[j] = v;
      const reach = v + (rest < 0 ? -rest : rest);
      if (reach < rowBest) rowBest = reach;
    }
    // The next row reads one cell right of this band.
    if (hi < lb) cur[hi + 1] = over;
    if (rowBest > bound) return over;
    const spare = before;
    before = prev;
    prev = cur;
    cur = spare;
  }
  const d = prev[lb]!;
  return d > bound ? over : d;
}
