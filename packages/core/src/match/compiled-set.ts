/**
 * The `ValueSet` a compile hands out: membership, listing, classification
 * and suggestions over the packed tables (`match-tables.ts`), with the few
 * strings it keeps so that repeated values cost a `Set.has` or a `Map.get`.
 */
import type { Classification, ValueSet } from '../types.js';
import { classify } from './classify.js';
import type { MatchTables } from './match-tables.js';
import { codesOf, type PackedStrings, stringOf } from './packed-strings.js';
import { suggest } from './suggest.js';

/** Sets up to this size keep every member as a string in a `Set`: a check is one `Set.has`. */
const STRING_MEMBERS = 4096;

/**
 * A larger set looks members up in its packed table (a hash of the value and
 * a comparison of code units) and keeps a few it found as strings, so that
 * the values a workload repeats cost a `Set.has`. Few enough that the `Set`
 * stays in a handful of cache lines; once full it starts over, so it follows
 * the traffic rather than keeping whatever came first. Only one lookup in
 * `LEARN_EVERY` adds its member: a value repeated often is soon among them,
 * and traffic spread over the whole set does not pay for a copy per check.
 */
const RECENT_MEMBERS = 64;
const LEARN_EVERY = 16;

/**
 * Classifications of recent mismatches, kept per set: a model that gets a
 * value wrong tends to get it wrong the same way again (`late` for `LATE`),
 * and a repeat then costs a `Map.get` rather than normalising and searching,
 * whose tables and code would push the caller's own out of the CPU's caches.
 * Bounded like the recent members (full, it starts over), and only short
 * values are kept, so a flood of invented values costs nothing more.
 */
const RECENT_MISMATCHES = 64;
const RECENT_MISMATCH_LENGTH = 64;

/**
 * The set over `tables`. Called apart from the compile's generator, whose
 * scope (the entries, the collected values) the set's functions would
 * otherwise keep alive.
 */
export function valueSetOver(tables: MatchTables): ValueSet {
  const { exact, members } = tables;
  const size = members.count;
  const strings = new Set<string>();
  let listed: readonly string[] | undefined;
  let lookups = 0;
  const mismatches = new Map<string, Classification>();
  if (size <= STRING_MEMBERS) {
    listed = Object.freeze(allMembers(members));
    for (const member of listed) strings.add(member);
  }
  const set: ValueSet = Object.freeze({
    size,
    has(value: string): boolean {
      if (strings.has(value)) return true;
      if (size <= STRING_MEMBERS || typeof value !== 'string') return false;
      const member = exact.get(value);
      if (member === undefined) return false;
      if (++lookups % LEARN_EVERY !== 0) return true;
      if (strings.size >= RECENT_MEMBERS) strings.clear();
      // A copy of our own, never the caller's string: that may be a slice of
      // a much larger one (a request body) that it would keep alive.
      strings.add(members.stringAt(member));
      return true;
    },
    // Made on first call for a large set: a million strings are a million objects.
    members: () => (listed ??= Object.freeze(allMembers(members))),
    classify(value: string): Classification {
      const known = mismatches.get(value);
      if (known !== undefined) return known;
      const found = Object.freeze(classify(tables, value));
      if (typeof value === 'string' && value.length <= RECENT_MISMATCH_LENGTH) {
        if (mismatches.size >= RECENT_MISMATCHES) mismatches.clear();
        // Keyed by a copy of our own, as `has` keeps members.
        mismatches.set(copyOf(value), found);
      }
      return found;
    },
    suggest: (value: string, limit: number) => suggest(tables, value, limit),
  });
  compiledTables.set(set, tables);
  return set;
}

let copying: Uint16Array = new Uint16Array(RECENT_MISMATCH_LENGTH);

/** A flat string of our own with the code units of `value` (never a slice of the caller's). */
function copyOf(value: string): string {
  copying = codesOf(value, copying);
  return stringOf(copying, 0, value.length);
}

function allMembers(members: PackedStrings): string[] {
  const out = new Array<string>(members.count);
  for (let i = 0; i < members.count; i++) out[i] = members.stringAt(i);
  return out;
}

const compiledTables = new WeakMap<ValueSet, MatchTables>();

/**
 * The first `limit` members of `set` in code-unit order, without listing the
 * others when the set is one this module compiled.
 */
export function leadingMembers(set: ValueSet, limit: number): string[] {
  const tables = compiledTables.get(set);
  if (tables === undefined) return set.members().slice(0, limit);
  const count = Math.min(limit, tables.members.count);
  const out: string[] = [];
  for (let i = 0; i < count; i++) out.push(tables.members.stringAt(i));
  return out;
}
