import type { ValueSet } from '@argcheck/core';
import { inventedValue, seededRandom, typo } from './ids.js';
import { median, nowNs, summary, type Summary } from './stats.js';

/** Values of one kind: a warm-up half and a measured half, drawn alike, never the same value. */
export interface Workload {
  warmUp: string[];
  measured: string[];
}

/** Mismatch workloads: typos of members, and invented values, `perKind` of each half. */
export function workloads(
  set: ValueSet,
  ids: readonly string[],
  perKind: number,
): Record<string, Workload> {
  const random = seededRandom(11);
  const member = () => ids[Math.floor(random() * ids.length)] ?? '';
  const some = (make: () => string): Workload => {
    const seen = new Set<string>();
    const out: string[] = [];
    while (out.length < 2 * perKind) {
      const v = make();
      if (!set.has(v) && !seen.has(v)) {
        seen.add(v);
        out.push(v);
      }
    }
    return { warmUp: out.slice(0, perKind), measured: out.slice(perKind) };
  };
  return {
    'near: 1 typo': some(() => typo(member(), random)),
    'near: 2 typos': some(() => typo(typo(member(), random), random)),
    invented: some(() => inventedValue(random)),
  };
}

export interface Latencies extends Summary {
  /** The first pass alone. */
  firstPass: Summary;
  /** How many values got each answer (first pass). */
  answers: Record<string, number>;
}

/**
 * Single-shot latency in µs of `fn` on each measured value, and the answers
 * it gave. The warm-up values run first, so the code is optimised as in a
 * long-running process. The measured values then run in `passes` passes, each
 * value timed alone once per pass (passes, not repeats, so no value finds the
 * index warm from its own previous run, nor its classification among the
 * set's last 64). A value's latency is the median of its passes: one pass on
 * a shared machine catches interrupts and other processes' time slices, which
 * land on a different value each pass. The first pass alone is reported too.
 */
export function mismatchLatencies<R>(
  fn: (value: string) => R,
  { warmUp, measured }: Workload,
  passes: number,
  answer: (result: R) => string,
): Latencies {
  for (const v of warmUp) fn(v);
  const times = Array.from({ length: passes }, () => new Float64Array(measured.length));
  const answers: Record<string, number> = {};
  for (let p = 0; p < passes; p++) {
    const pass = times[p] ?? new Float64Array(0);
    for (let i = 0; i < measured.length; i++) {
      const value = measured[i] ?? '';
      const t0 = nowNs();
      const r = fn(value);
      pass[i] = (nowNs() - t0) / 1000;
      if (p === 0) {
        const a = answer(r);
        answers[a] = (answers[a] ?? 0) + 1;
      }
    }
  }
  const perValue = measured.map((_, i) => median(times.map((pass) => pass[i] ?? NaN)));
  return { ...summary(perValue), firstPass: summary(times[0] ?? []), answers };
}
