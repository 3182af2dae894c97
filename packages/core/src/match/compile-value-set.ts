/**
 * Turns an owner's entries into a `ValueSet`. Every index is built here, at
 * refresh time, so a check is a Set lookup (or, past the members a large set
 * keeps as strings, a hash of the value and one probe) and a mismatch costs a
 * few table lookups plus one near-miss index query, never a scan of the set.
 *
 * A compiled set holds no string per member: members and their normalised
 * forms are packed into typed arrays (`packed-strings.ts`), and the values
 * arrive packed too (`value-collector.ts`), so the strings a refresh parses
 * die young: a million members held as strings cost the event loop long
 * garbage-collection pauses at every refresh (figures in
 * docs/decisions/0012-packed-matching.md).
 *
 * Compiling 100,000 members takes about a third of a second, so there are two
 * ways to run the same steps: `compileValueSet` in one go, and
 * `compileValueSetAsync` in slices with a turn of the event loop between them
 * (`slices.ts`), which the provider uses (`compileCollectedAsync`) so that a
 * refresh never stalls the checks running beside it. Both build the same set
 * and make the same `onCollision` calls in the same order.
 */
import type { ValueSet, ValueSetEntry } from '../types.js';
import { valueSetOver } from './compiled-set.js';
import { type CollisionListener, keyIndexesInSlices } from './key-indexes.js';
import { nearMissIndexInSlices } from './near-miss-index.js';
import { normalise } from './normalise.js';
import { KeyTable } from './key-table.js';
import { compareCodes, PackedStringsBuilder } from './packed-strings.js';
import {
  Budget,
  DEFAULT_SLICE_UNITS,
  inSlices,
  runInTurns,
  runWhole,
  type Slices,
} from './slices.js';
import { sortedOrder } from './sort-in-slices.js';
import { longValueBound } from './thresholds.js';
import { type CollectedValues, ValueCollector } from './value-collector.js';

export interface CompileOptions {
  /**
   * Called once per normalised string that more than one member claims (two
   * members that normalise alike, an alias given to two members, or an alias
   * that normalises like another member), with the claiming members in
   * code-unit order. None of them is a `format` or `alias` match for it.
   * Exceptions it throws are swallowed.
   */
  onCollision?: CollisionListener;
}

export interface AsyncCompileOptions extends CompileOptions {
  /**
   * Units of work between two turns of the event loop (`slices.ts`); a member
   * costs about 7 units in all, so with the default a set of up to about 500
   * members compiles before the call returns.
   * @default 4096
   */
  yieldEvery?: number;
  /** Abandons the compilation: the promise rejects with the signal's reason. */
  signal?: AbortSignal;
}

/**
 * What the provider compiles refreshes with (injected so tests can stand in
 * for it). May answer at once or with a promise.
 */
export type ValueSetCompiler = (
  collected: CollectedValues,
  options: AsyncCompileOptions,
) => ValueSet | Promise<ValueSet>;

// Units of work per item (see `slices.ts`): copying a value's code units in,
// and out in sorted order; claiming a slot of the exact table; normalising a
// member (which makes and drops two short strings); zeroing a table slot.
const COLLECT_WEIGHT = 0.25;
const DISTINCT_WEIGHT = 0.5;
const EXACT_WEIGHT = 1;
const NORMALISE_WEIGHT = 2;
const ZERO_WEIGHT = 1 / 64;

/**
 * Build the immutable, indexed form of a set from its owner's entries.
 * Repeated values are one member; their aliases are merged.
 */
export function compileValueSet(
  entries: readonly ValueSetEntry[],
  options: CompileOptions = {},
): ValueSet {
  return runWhole(compileInSlices(entries, options.onCollision, new Budget(Infinity)));
}

/**
 * `compileValueSet` in slices, giving the event loop a turn (`setImmediate`,
 * not a timer) between them; the first slice runs before this returns. The
 * entries must not change until the promise settles.
 */
export function compileValueSetAsync(
  entries: readonly ValueSetEntry[],
  options: AsyncCompileOptions = {},
): Promise<ValueSet> {
  return inTurns((budget) => compileInSlices(entries, options.onCollision, budget), options);
}

/**
 * `compileValueSetAsync` of values a collector already holds (what the
 * provider compiles: sources are read straight into a collector).
 */
export function compileCollectedAsync(
  collected: CollectedValues,
  options: AsyncCompileOptions = {},
): Promise<ValueSet> {
  return inTurns((budget) => compileCollected(collected, options.onCollision, budget), options);
}

function inTurns(
  work: (budget: Budget) => Slices<ValueSet>,
  { yieldEvery = DEFAULT_SLICE_UNITS, signal }: AsyncCompileOptions,
): Promise<ValueSet> {
  if (!(yieldEvery >= 1)) {
    return Promise.reject(new RangeError(`yieldEvery must be at least 1, got ${yieldEvery}`));
  }
  return runInTurns(work(new Budget(yieldEvery)), signal);
}

function* compileInSlices(
  entries: readonly ValueSetEntry[],
  onCollision: CollisionListener | undefined,
  budget: Budget,
): Slices<ValueSet> {
  const collector = new ValueCollector(entries.length);
  yield* inSlices(budget, entries.length, COLLECT_WEIGHT, (from, to) => {
    for (let i = from; i < to; i++) {
      const { value, aliases } = entries[i]!;
      collector.add(value, aliases);
    }
  });
  return yield* compileCollected(collector.finish(), onCollision, budget);
}

/** The steps after collecting: sort, drop repeats, index. */
function* compileCollected(
  collected: CollectedValues,
  onCollision: CollisionListener | undefined,
  budget: Budget,
): Slices<ValueSet> {
  const { values, aliases: given } = collected;
  const order = yield* sortedOrder(values, budget);
  // Members in code-unit order, once each; a repeated value's aliases are merged.
  const distinct = new PackedStringsBuilder(values.count, values.codes.length);
  const aliases = new Map<number, string[]>();
  const { codes, starts } = values;
  let last = -1;
  yield* inSlices(budget, order.length, DISTINCT_WEIGHT, (from, to) => {
    for (let k = from; k < to; k++) {
      const i = order[k]!;
      const start = starts[i]!;
      const end = starts[i + 1]!;
      if (last < 0 || compareCodes(codes, starts[last]!, starts[last + 1]!, start, end) !== 0) {
        distinct.pushCodes(codes, start, end);
      }
      last = i;
      const more = given.get(i);
      if (more === undefined) continue;
      const member = distinct.count - 1;
      const merged = aliases.get(member);
      if (merged === undefined) aliases.set(member, [...more]);
      else merged.push(...more);
    }
  });
  const members = distinct.build();
  const exact = new KeyTable(members);
  yield* inSlices(budget, exact.size, ZERO_WEIGHT, (from, to) => exact.zero(from, to));
  yield* inSlices(budget, members.count, EXACT_WEIGHT, (from, to) => {
    for (let i = from; i < to; i++) exact.claim(i);
  });
  // Packed as they are made: the normalised strings themselves die young.
  // Normalising rarely changes a length (it folds case and drops separators).
  const packing = new PackedStringsBuilder(members.count, members.codes.length);
  yield* inSlices(budget, members.count, NORMALISE_WEIGHT, (from, to) => {
    for (let i = from; i < to; i++) packing.push(normalise(members.stringAt(i)));
  });
  const normalised = packing.build();
  const keys = yield* keyIndexesInSlices(
    members,
    normalised,
    (member) => aliases.get(member),
    onCollision,
    budget,
  );
  return valueSetOver({
    members,
    exact,
    normalised,
    ...keys,
    near: yield* nearMissIndexInSlices(normalised, budget),
    longValueBound: longValueBound(collected.longest),
  });
}
