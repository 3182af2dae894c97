import type { CollectedValues } from '../../src/match/value-collector.js';
import type { Collected } from '../../src/sources/collect.js';
import type { LoadedValueSet, ValueSetEntry } from '../../src/types.js';

/** The entries of a load that answered with a list, versioned or not. */
export function entriesOf(
  loaded: readonly ValueSetEntry[] | LoadedValueSet,
): readonly ValueSetEntry[] {
  if (Array.isArray(loaded)) return loaded as readonly ValueSetEntry[];
  const answer = loaded as LoadedValueSet;
  if ('unchanged' in answer) throw new Error('the load answered { unchanged: true }, not a list');
  return answer.values;
}

/** The values of a provider-side read that answered with a list. */
export function collectedOf(read: Collected): CollectedValues {
  if (read.unchanged) throw new Error('the read answered unchanged, not a list');
  return read.collected;
}
