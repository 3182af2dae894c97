import { MISMATCH_SHAPES } from '@argcheck/core';
import type { MismatchShape } from '@argcheck/core';
import { CHECK_UNAVAILABLE, MISMATCH, REWRITTEN, VALUE_CHECK } from './metric-names.js';
import { sumOf, type Snapshot } from './snapshot.js';

export const SHAPES: readonly MismatchShape[] = MISMATCH_SHAPES;

/** What the counters say about one checked argument, between two collections. */
export interface ArgumentCounts {
  /** Checks that ran (`tool_argument_value_check`). */
  checks: number;
  outOfSet: number;
  outOfSetNormalised: number;
  /** Checks that could not run: the call went through unchecked. */
  unavailable: number;
  rewritten: number;
  shapes: Record<MismatchShape, number>;
}

/** Counts for one argument in `to`, minus those in `from` (omit `from` for the totals). */
export function argumentCounts(
  to: Snapshot | undefined,
  where: { tool: string; argument: string },
  from?: Snapshot,
): ArgumentCounts {
  const { tool, argument } = where;
  const delta = (name: string, extra: Record<string, string> = {}): number =>
    sumOf(to, name, { tool, argument, ...extra }) - sumOf(from, name, { tool, argument, ...extra });
  const shapes = Object.fromEntries(SHAPES.map((shape) => [shape, delta(MISMATCH, { shape })]));
  return {
    checks: delta(VALUE_CHECK),
    outOfSet: delta(VALUE_CHECK, { in_set: 'false' }),
    outOfSetNormalised: delta(VALUE_CHECK, { in_set_normalised: 'false' }),
    unavailable: delta(CHECK_UNAVAILABLE),
    rewritten: delta(REWRITTEN),
    shapes: shapes as Record<MismatchShape, number>,
  };
}

export const rate = (part: number, whole: number): number => (whole === 0 ? 0 : part / whole);

/** One value of an attribution attribute: the argument's checks under it, between two collections. */
export interface SplitCounts {
  /** The attribute's value (`nova-large-1`, a `tool_definition` hash). */
  value: string;
  checks: number;
  outOfSet: number;
  /** outOfSet / checks. */
  outOfSetRate: number;
}

/**
 * The argument's checks in `to` minus `from`, split by the value of `key`
 * (`gen_ai.request.model`, `tool_definition`), as `sum by (key)` would:
 * series without the attribute, and values without checks in between, are
 * left out. Sorted by value.
 */
export function splitCounts(
  to: Snapshot | undefined,
  where: { tool: string; argument: string },
  key: string,
  from?: Snapshot,
): SplitCounts[] {
  const values = new Set<string>();
  for (const point of to?.points ?? []) {
    const value = point.attributes[key];
    if (point.name === VALUE_CHECK && value !== undefined) values.add(value);
  }
  const { tool, argument } = where;
  const delta = (match: Record<string, string>): number =>
    sumOf(to, VALUE_CHECK, { tool, argument, ...match }) -
    sumOf(from, VALUE_CHECK, { tool, argument, ...match });
  return [...values]
    .sort()
    .map((value) => {
      const checks = delta({ [key]: value });
      const outOfSet = delta({ [key]: value, in_set: 'false' });
      return { value, checks, outOfSet, outOfSetRate: rate(outOfSet, checks) };
    })
    .filter((split) => split.checks > 0);
}
