import type { ValueSet, ValueSetLookup, ValueSetProvider } from '../../src/types.js';

/** How much of a set a check used. */
export interface Usage {
  suggestCalls: number;
  /** Elements read from the array `members()` returned. */
  memberReads: number;
}

/**
 * A real compiled set behind a wrapper that counts the work asked of it, so a
 * test can show that a check's work is bounded without timing it.
 */
export function countingSet(set: ValueSet): { set: ValueSet; usage: Usage } {
  const usage: Usage = { suggestCalls: 0, memberReads: 0 };
  const listed = set.members();
  const members = new Proxy(listed, {
    get(target, key, receiver) {
      if (typeof key === 'string' && /^\d+$/.test(key)) usage.memberReads++;
      return Reflect.get(target, key, receiver) as unknown;
    },
  });
  return {
    usage,
    set: {
      size: set.size,
      has: (value) => set.has(value),
      members: () => members,
      classify: (value) => set.classify(value),
      suggest(value, limit) {
        usage.suggestCalls++;
        return set.suggest(value, limit);
      },
    },
  };
}

/** A provider serving fixed sets (always `fresh`). */
export function providerOf(sets: Record<string, ValueSet>): ValueSetProvider {
  return {
    get: (name): ValueSetLookup => {
      const set = sets[name];
      return set ? { state: 'fresh', set } : { state: 'unavailable', reason: 'unknown_set' };
    },
    ready: () => Promise.resolve(),
    refresh: () => Promise.resolve(),
    status: () => [],
    names: () => Object.keys(sets),
    close: () => undefined,
  };
}
