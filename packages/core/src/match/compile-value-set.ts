/**
 * Turns an owner's entries into a `ValueSet`. Every index is built here, at
 * refresh time, so a check is a Set lookup and a mismatch costs a few map
 * lookups plus one near-miss index query, never a scan of the set.
 *
 * Compiling 100,000 members takes about half a second, so there are two ways
 * to run the same steps: `compileValueSet` in one go, and
 * `compileValueSetAsync` in slices with a turn of the event loop between them
 * (`slices.ts`), which the provider uses so that a refresh never stalls the
 * checks running beside it. Both build the same set and make the same
 * `onCollision` calls in the same order.
 */
import type { ValueSet, ValueSetEntry } from '../types.js';
import { classify } from './classify.js';
import { type CollisionListener, keyIndexesInSlices } from './key-indexes.js';
import type { MatchTables } from './match-tables.js';
import { nearMissIndexInSlices } from './near-miss-index.js';
import { normalise } from './normalise.js';
import { PackedStringsBuilder } from './packed-strings.js';
import {
  Budget,
  DEFAULT_SLICE_UNITS,
  inSlices,
  runInTurns,
  runWhole,
  type Slices,
} from './slices.js';
import { sortInSlices } from './sort-in-slices.js';
import { suggest } from './suggest.js';
import { longValueBound } from './thresholds.js';

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
   * members compiles before the call returns, and a slice takes 1-4 ms.
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
  entries: readonly ValueSetEntry[],
  options: AsyncCompileOptions,
) => ValueSet | Promise<ValueSet>;

// Units of work per entry (see `slices.ts`): adding a value to a Set (as dear
// as normalising, once the Set is large), and normalising a member.
const COLLECT_WEIGHT = 1;
const NORMALISE_WEIGHT = 1;

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
  const { yieldEvery = DEFAULT_SLICE_UNITS, signal, onCollision } = options;
  if (!(yieldEvery >= 1)) {
    return Promise.reject(new RangeError(`yieldEvery must be at least 1, got ${yieldEvery}`));
  }
  return runInTurns(compileInSlices(entries, onCollision, new Budget(yieldEvery)), signal);
}

function* compileInSlices(
  entries: readonly ValueSetEntry[],
  onCollision: CollisionListener | undefined,
  budget: Budget,
): Slices<ValueSet> {
  const exact = new Set<string>();
  const distinct: string[] = [];
  const aliases = new Map<string, string[]>();
  let longest = 0;
  let totalLength = 0;
  yield* inSlices(budget, entries.length, COLLECT_WEIGHT, (from, to) => {
    for (let i = from; i < to; i++) {
      const { value, aliases: given } = entries[i]!;
      const size = exact.size;
      exact.add(value);
      if (exact.size !== size) {
        distinct.push(value);
        totalLength += value.length;
      }
      longest = Math.max(longest, value.length);
      if (!given || given.length === 0) continue;
      const merged = aliases.get(value) ?? [];
      for (const alias of given) {
        merged.push(alias);
        longest = Math.max(longest, alias.length);
      }
      aliases.set(value, merged);
    }
  });
  // Code-unit order, the order the contract promises.
  const members = Object.freeze(yield* sortInSlices(distinct, budget));
  // Packed as they are made: the normalised strings themselves die young.
  // Normalising rarely changes a length (it folds case and drops separators).
  const packing = new PackedStringsBuilder(members.length, totalLength);
  yield* inSlices(budget, members.length, NORMALISE_WEIGHT, (from, to) => {
    for (let i = from; i < to; i++) packing.push(normalise(members[i]!));
  });
  const normalised = packing.build();
  const keys = yield* keyIndexesInSlices(
    members,
    normalised,
    (m) => aliases.get(m),
    onCollision,
    budget,
  );
  return valueSetOver({
    members,
    exact,
    normalised,
    ...keys,
    near: yield* nearMissIndexInSlices(normalised, budget),
    longValueBound: longValueBound(longest),
  });
}

// Apart from the generator, whose scope (the entries, the normalised members)
// the set's functions would otherwise keep alive.
function valueSetOver(tables: MatchTables): ValueSet {
  const { exact, members } = tables;
  return Object.freeze({
    size: exact.size,
    has: (value: string) => exact.has(value),
    members: () => members,
    classify: (value: string) => classify(tables, value),
    suggest: (value: string, limit: number) => suggest(tables, value, limit),
  });
}
