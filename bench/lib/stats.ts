// Order statistics for benchmark samples. Benchmarks report medians (robust
// to the other processes on a shared machine) and high percentiles of
// single-shot latencies; means are never used.

function sorted(samples: ArrayLike<number>): Float64Array {
  return Float64Array.from(samples).sort();
}

/** The value at quantile `q` in [0, 1] (nearest rank); NaN for no samples. */
export function quantile(samples: ArrayLike<number>, q: number): number {
  const s = sorted(samples);
  if (s.length === 0) return NaN;
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil(q * s.length) - 1))] ?? NaN;
}

export function median(samples: ArrayLike<number>): number {
  const s = sorted(samples);
  if (s.length === 0) return NaN;
  const mid = s.length >> 1;
  return (s.length % 2 === 1 ? s[mid] : ((s[mid - 1] ?? NaN) + (s[mid] ?? NaN)) / 2) ?? NaN;
}

export interface Summary {
  n: number;
  p50: number;
  p99: number;
  max: number;
}

/** Median, p99 and max of `samples`. */
export function summary(samples: ArrayLike<number>): Summary {
  return {
    n: samples.length,
    p50: median(samples),
    p99: quantile(samples, 0.99),
    max: quantile(samples, 1),
  };
}

/** Nanoseconds since an arbitrary origin, as a number. */
export function nowNs(): number {
  return Number(process.hrtime.bigint());
}

/**
 * Rotate `items` by `round`: interleaved rounds run every variant once per
 * round, each in a different position, so slow patches of a noisy machine and
 * warm-up order fall on all of them alike.
 */
export function rotated<T>(items: readonly T[], round: number): T[] {
  const k = round % items.length;
  return [...items.slice(k), ...items.slice(0, k)];
}
