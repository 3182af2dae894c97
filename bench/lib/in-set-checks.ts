import { Buffer } from 'node:buffer';
import { createArgumentChecker, type ValueSetProvider } from '@argcheck/core';
import { seededRandom } from './ids.js';
import { median, nowNs, rotated } from './stats.js';

const PATTERNS = ['six', 'sixLarge', 'uniform', 'hot'] as const;
type Pattern = (typeof PATTERNS)[number];

/** Median ns per in-set check, per pattern, through `check()` and a bare `Set.has`. */
export type InSetFigures = Record<Pattern | `set_${Pattern}`, number> & {
  /** Median of the per-round ratios of `sixLarge` to `six`. */
  sameTrafficRatio: number;
};

const LEN = 65_536;
const BATCH = 10_000;

/**
 * Median ns per in-set check for a six-member set and a large one, served by
 * `provider` as `six`, `catalog` and `catalog_same_traffic`, interleaved
 * round by round with a bare `Set.has` over the same strings.
 */
export function inSetChecks(
  provider: ValueSetProvider,
  ids: readonly string[],
  six: readonly string[],
  rounds: number,
): InSetFigures {
  const checker = createArgumentChecker({
    valueSets: provider,
    checkedArguments: {
      pick_part: { component_id: 'six' },
      create_ticket: { component_id: 'catalog' },
      reorder_part: { component_id: 'catalog_same_traffic' },
    },
  });
  const random = seededRandom(3);
  const anyId = () => ids[Math.floor(random() * ids.length)] ?? '';
  const hot = Array.from({ length: 1_000 }, anyId);
  // Fresh copies: emitted values arrive as new strings, never as the very
  // string objects the set holds, so every lookup compares contents.
  const copy = (s: string): string => Buffer.from(s).toString();
  const sixValues = () => Array.from({ length: LEN }, (_, i) => copy(six[i % six.length] ?? ''));
  // Every pattern walks an array of the same length, so the arguments' own
  // memory traffic is alike and only the set lookups differ.
  const values: Record<Pattern, string[]> = {
    six: sixValues(),
    // The same traffic as `six` (six values, over and over) on the large set:
    // what the size of the set alone does to a check. A copy of the large set
    // of its own, which sees only this traffic: a large set keeps the members
    // it found last as strings, and the other patterns would leave theirs there.
    sixLarge: sixValues(),
    uniform: Array.from({ length: LEN }, () => copy(anyId())),
    hot: Array.from({ length: LEN }, () => copy(hot[Math.floor(random() * hot.length)] ?? '')),
  };
  const tools: Record<Pattern, string> = {
    six: 'pick_part',
    sixLarge: 'reorder_part',
    uniform: 'create_ticket',
    hot: 'create_ticket',
  };
  const sets = { six: new Set(six.map(copy)), large: new Set(ids.map(copy)) };

  const variants = PATTERNS.flatMap((p) => {
    const args = values[p].map((component_id) => ({ component_id }));
    const tool = tools[p];
    const set = p === 'six' ? sets.six : sets.large;
    const probe = values[p];
    return [
      {
        key: p,
        run(n: number, offset: number): number {
          let inSet = 0;
          for (let i = 0; i < n; i++) {
            const f = checker.check(tool, args[(offset + i) & (LEN - 1)] ?? {}).findings[0];
            if (f?.status === 'checked' && f.inSet) inSet++;
          }
          return inSet;
        },
      },
      {
        key: `set_${p}` as keyof InSetFigures,
        run(n: number, offset: number): number {
          let inSet = 0;
          for (let i = 0; i < n; i++) if (set.has(probe[(offset + i) & (LEN - 1)] ?? '')) inSet++;
          return inSet;
        },
      },
    ];
  });
  for (const v of variants) v.run(LEN * 2, 0); // warm up; hashes of the strings are cached
  const perCheck = new Map<string, number[]>(variants.map((v) => [v.key, []]));
  let offset = 0;
  for (let round = 0; round < rounds; round++) {
    for (const v of rotated(variants, round)) {
      const t0 = nowNs();
      const inSet = v.run(BATCH, offset);
      perCheck.get(v.key)?.push((nowNs() - t0) / BATCH);
      if (inSet !== BATCH) throw new Error(`${v.key}: ${BATCH - inSet} checks were not in set`);
    }
    offset += BATCH;
  }
  const at = (key: string) => perCheck.get(key) ?? [];
  // The two six-value patterns ran side by side in every round: the median of
  // their per-round ratios is steadier than the ratio of their medians.
  const sameTrafficRatio = median(at('sixLarge').map((ns, r) => ns / (at('six')[r] ?? NaN)));
  const medians = Object.fromEntries(variants.map((v) => [v.key, median(at(v.key))]));
  return { ...(medians as Record<keyof InSetFigures, number>), sameTrafficRatio };
}
