import type { Classification, ValueSet, ValueSetEntry } from '../types.js';

export interface CompileOptions {
  /** Called once per group of members that normalise to the same string. */
  onCollision?: (members: readonly string[], normalised: string) => void;
}

/**
 * Build the immutable, indexed form of a set from its owner's entries.
 * Runs at refresh time so that checks never scan the set.
 */
export function compileValueSet(
  entries: readonly ValueSetEntry[],
  _options: CompileOptions = {},
): ValueSet {
  const exact = new Set<string>();
  for (const entry of entries) exact.add(entry.value);
  const sorted = [...exact].sort();
  return {
    size: exact.size,
    has: (value) => exact.has(value),
    members: () => sorted,
    classify: (): Classification => ({ shape: 'invented' }),
    suggest: () => [],
  };
}
