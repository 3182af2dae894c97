import type { Random } from './prng.js';

/**
 * Decides "does this call go wrong?" so that the share of yeses tracks the
 * target closely even over a few hundred calls (error diffusion with a random
 * threshold), while which calls go wrong stays random. Independent coin flips
 * would let a 1.1 % phase come out anywhere from 0.5 % to 2 % in a short demo.
 */
export function createQuota(random: Random): (rate: number) => boolean {
  let owed = 0;
  let threshold = random();
  return (rate) => {
    owed += rate;
    if (owed < threshold) return false;
    owed -= 1;
    threshold = random();
    return true;
  };
}

/**
 * Picks categories in proportion to their weights, always the one furthest
 * behind its share (random among near ties), so a handful of mismatches
 * already shows the intended partition.
 */
export function createMix<K extends string>(
  random: Random,
): (weights: Readonly<Partial<Record<K, number>>>) => K {
  const owed = new Map<K, number>();
  return (weights) => {
    const entries = Object.entries(weights) as [K, number | undefined][];
    const total = entries.reduce((sum, [, w]) => sum + (w ?? 0), 0);
    let best: K | undefined;
    let bestScore = -Infinity;
    for (const [key, weight] of entries) {
      if (weight === undefined || weight <= 0) continue;
      const next = (owed.get(key) ?? 0) + weight / total;
      owed.set(key, next);
      const score = next + random() * 0.25;
      if (score > bestScore) {
        best = key;
        bestScore = score;
      }
    }
    if (best === undefined) throw new Error('a mix needs a positive weight');
    owed.set(best, (owed.get(best) ?? 0) - 1);
    return best;
  };
}
