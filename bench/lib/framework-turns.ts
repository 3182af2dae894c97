// What the framework benchmark needs: a scripted mock model (the AI SDK's own,
// from `ai/test`) whose first turn calls refund_order, and side-by-side timing
// of agent turns, variant against variant, interleaved round by round.
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

const usage = { inputTokens: { total: 1 }, outputTokens: { total: 1 } };

/**
 * A mock model for one turn at a time: `next(code)` scripts the next turn's
 * tool call. Mastra and the AI SDK both accept it.
 */
export async function scriptedModel(): Promise<{ model: unknown; next: (code: string) => void }> {
  const { MockLanguageModelV4 } = await import('ai/test');
  let code = 'DAMAGED';
  let step = 0;
  const model = new MockLanguageModelV4({
    doGenerate: (() => {
      const first = step++ % 2 === 0;
      return Promise.resolve(
        first
          ? {
              content: [
                {
                  type: 'tool-call',
                  toolCallId: `call-${step}`,
                  toolName: 'refund_order',
                  input: JSON.stringify({ order_id: 'A-1001', reason_code: code }),
                },
              ],
              finishReason: { unified: 'tool-calls' },
              usage,
              warnings: [],
            }
          : {
              content: [{ type: 'text', text: 'done' }],
              finishReason: { unified: 'stop' },
              usage,
              warnings: [],
            },
      );
    }) as never,
  });
  return {
    model,
    next: (c) => {
      code = c;
    },
  };
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
