/** Decides which checked values get a log record. */
export interface Sampler {
  /** True for a fraction `ratio` of calls, independently each time. */
  sample(): boolean;
}

/**
 * Sampling by geometric skips: instead of one random draw per call, draw how
 * many calls to skip before the next sampled one. The result is the same
 * Bernoulli(ratio) process, with one draw per sampled call; the hot path only
 * decrements a counter.
 */
export function createSampler(ratio: number, random: () => number): Sampler {
  if (!(ratio > 0)) return { sample: () => false };
  if (ratio >= 1) return { sample: () => true };
  const logMiss = Math.log1p(-ratio);
  const fallbackGap = Math.round(1 / ratio) - 1;
  const gap = (): number => {
    let u: number;
    try {
      u = random();
    } catch {
      return fallbackGap;
    }
    if (!(u >= 0 && u < 1)) return fallbackGap;
    // Failures before the first success of Bernoulli(ratio) trials.
    return Math.floor(Math.log1p(-u) / logMiss);
  };
  let skip = gap();
  return {
    sample() {
      if (skip > 0) {
        skip--;
        return false;
      }
      skip = gap();
      return true;
    },
  };
}
