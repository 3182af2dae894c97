import { compileValueSet } from '../../src/match/compile-value-set.js';
import type {
  UnavailableReason,
  ValueSetEntry,
  ValueSetLookup,
  ValueSetProvider,
} from '../../src/types.js';

/**
 * A provider whose sets never change, built with the real value-set compiler:
 * checker tests exercise membership and shapes without timers or fetches.
 */
export function fixedProvider(
  sets: Record<string, readonly (string | ValueSetEntry)[] | UnavailableReason>,
): ValueSetProvider & { gets: number } {
  const lookups = new Map<string, ValueSetLookup>();
  for (const [name, spec] of Object.entries(sets)) {
    lookups.set(
      name,
      typeof spec === 'string'
        ? { state: 'unavailable', reason: spec }
        : {
            state: 'fresh',
            set: compileValueSet(spec.map((e) => (typeof e === 'string' ? { value: e } : e))),
          },
    );
  }
  const provider = {
    gets: 0,
    get(name: string): ValueSetLookup {
      provider.gets++;
      return lookups.get(name) ?? { state: 'unavailable', reason: 'unknown_set' };
    },
    ready: () => Promise.resolve(),
    refresh: () => Promise.resolve(),
    status: () => [],
    names: () => [...lookups.keys()],
    close: () => undefined,
  };
  return provider;
}

export const REFUND_CODES = [
  'DAMAGED',
  'LATE',
  'NOT_AS_DESCRIBED',
  { value: 'DUPLICATE_CHARGE', aliases: ['Charged twice'] },
  'WRONG_ITEM',
  'OTHER',
];

/** Freeze a value and everything inside it, so a mutation throws in strict mode. */
export function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null) {
    for (const key of Reflect.ownKeys(value))
      deepFreeze((value as Record<PropertyKey, unknown>)[key]);
    Object.freeze(value);
  }
  return value;
}
