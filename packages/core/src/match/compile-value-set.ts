/**
 * Turns an owner's entries into a `ValueSet`. Every index is built here, at
 * refresh time, so a check is a Set lookup and a mismatch costs a few map
 * lookups plus one near-miss index query, never a scan of the set.
 */
import type { ValueSet, ValueSetEntry } from '../types.js';
import { classify } from './classify.js';
import { buildKeyIndexes, type CollisionListener } from './key-indexes.js';
import type { MatchTables } from './match-tables.js';
import { createNearMissIndex } from './near-miss-index.js';
import { normalise } from './normalise.js';
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

/**
 * Build the immutable, indexed form of a set from its owner's entries.
 * Repeated values are one member; their aliases are merged.
 */
export function compileValueSet(
  entries: readonly ValueSetEntry[],
  options: CompileOptions = {},
): ValueSet {
  const exact = new Set<string>();
  const aliases = new Map<string, string[]>();
  let longest = 0;
  for (const { value, aliases: given } of entries) {
    exact.add(value);
    longest = Math.max(longest, value.length);
    if (!given || given.length === 0) continue;
    const merged = aliases.get(value) ?? [];
    for (const alias of given) {
      merged.push(alias);
      longest = Math.max(longest, alias.length);
    }
    aliases.set(value, merged);
  }
  // Default sort compares UTF-16 code units, the order the contract promises.
  const members = Object.freeze([...exact].sort());
  const normalised = members.map((m) => normalise(m));
  const tables: MatchTables = {
    members,
    exact,
    ...buildKeyIndexes(members, normalised, (m) => aliases.get(m), options.onCollision),
    near: createNearMissIndex(normalised),
    longValueBound: longValueBound(longest),
  };
  return Object.freeze({
    size: exact.size,
    has: (value: string) => exact.has(value),
    members: () => members,
    classify: (value: string) => classify(tables, value),
    suggest: (value: string, limit: number) => suggest(tables, value, limit),
  });
}
