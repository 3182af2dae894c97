/**
 * Call latencies in fixed log-scale buckets (1 % wide, 1 µs to 100 s), so
 * that the soak's own bookkeeping does not grow with the calls it makes and
 * show up as heap growth.
 */
export interface LatencyHistogram {
  add(ms: number): void;
  readonly n: number;
  /** Upper edge of the bucket holding quantile `q`, in ms. */
  quantile(q: number): number;
}

export function latencyHistogram(): LatencyHistogram {
  const STEP = Math.log(1.01);
  const counts = new Float64Array(Math.ceil(Math.log(1e8) / STEP) + 1);
  let n = 0;
  return {
    add(ms) {
      const us = Math.max(1, ms * 1000);
      const bucket = Math.min(counts.length - 1, Math.floor(Math.log(us) / STEP));
      counts[bucket] = (counts[bucket] ?? 0) + 1;
      n += 1;
    },
    get n() {
      return n;
    },
    quantile(q) {
      if (n === 0) return NaN;
      let seen = 0;
      for (let b = 0; b < counts.length; b++) {
        seen += counts[b] ?? 0;
        if (seen >= q * n) return Math.exp((b + 1) * STEP) / 1000;
      }
      return NaN;
    },
  };
}

/** The least-squares slope of `points` (MiB at seconds), per minute; NaN for fewer than two. */
export function slopePerMinute(points: readonly { at: number; mib: number }[]): number {
  const n = points.length;
  if (n < 2) return NaN;
  const mx = points.reduce((a, h) => a + h.at, 0) / n;
  const my = points.reduce((a, h) => a + h.mib, 0) / n;
  const sxy = points.reduce((a, h) => a + (h.at - mx) * (h.mib - my), 0);
  const sxx = points.reduce((a, h) => a + (h.at - mx) ** 2, 0);
  return (sxy / sxx) * 60;
}
