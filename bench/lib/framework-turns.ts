// What the framework benchmark needs: the arguments' reason codes, and
// side-by-side timing of agent turns, variant against variant, interleaved
// round by round. The AI SDK's scripted mock model is in
// framework-setups-node22.ts, with the frameworks that use it.
import { median, nowNs, quantile, rotated } from './stats.js';

export const CODES = [
  'DAMAGED',
  'LATE',
  'NOT_AS_DESCRIBED',
  'DUPLICATE_CHARGE',
  'WRONG_ITEM',
  'OTHER',
];

/** Mostly in-set codes; one turn in 20 out of set (a case variant or an invented code). */
export function reasonCode(i: number): string {
  const k = i % 40;
  return k === 13 ? 'late' : k === 33 ? 'CUSTOMER_UNHAPPY' : (CODES[k % CODES.length] ?? '');
}

export interface Variant {
  readonly key: string;
  /** One agent turn. */
  turn(i: number): Promise<unknown>;
  /** Runs before each of the variant's rounds (switches the instrumentation on or off). */
  select?(): void;
}

export interface Timings {
  /** Median µs of a turn, per variant. */
  medianUs: Record<string, number>;
  /** µs at the 10th and 90th percentiles, per variant. */
  p10Us: Record<string, number>;
  p90Us: Record<string, number>;
  turns: number;
}

/** `rounds` rounds of `perRound` turns per variant, in rotated order, after a warm-up. */
export async function timeTurns(
  variants: readonly Variant[],
  rounds: number,
  perRound: number,
): Promise<Timings> {
  const samples: Record<string, number[]> = {};
  for (const v of variants) {
    samples[v.key] = [];
    v.select?.();
    for (let i = 0; i < perRound * 3; i++) await v.turn(i);
  }
  let turns = 0;
  for (let round = 0; round < rounds; round++) {
    for (const v of rotated(variants, round)) {
      v.select?.();
      for (let i = 0; i < perRound; i++) {
        const t0 = nowNs();
        await v.turn(round * perRound + i);
        samples[v.key]?.push((nowNs() - t0) / 1000);
        turns++;
      }
    }
  }
  const per = (f: (s: number[]) => number) =>
    Object.fromEntries(variants.map((v) => [v.key, f(samples[v.key] ?? [])]));
  return {
    medianUs: per(median),
    p10Us: per((s) => quantile(s, 0.1)),
    p90Us: per((s) => quantile(s, 0.9)),
    turns,
  };
}
