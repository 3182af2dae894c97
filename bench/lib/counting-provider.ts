// A real provider behind a wrapper that counts the work a check asks of the
// sets it hands out, through the public ValueSetProvider interface: how often
// suggest() ran, and how many elements of members() were read. A figure of
// work done, not of time, so it holds on a loaded machine.
import type { ValueSet, ValueSetLookup, ValueSetProvider } from '@argcheck/core';

export interface SetWork {
  suggestCalls: number;
  memberReads: number;
}

export function countingProvider(provider: ValueSetProvider): {
  provider: ValueSetProvider;
  work: SetWork;
} {
  const work: SetWork = { suggestCalls: 0, memberReads: 0 };
  const wrapped = new WeakMap<ValueSet, ValueSet>();
  const counting = (set: ValueSet): ValueSet => {
    const known = wrapped.get(set);
    if (known !== undefined) return known;
    const listed = set.members();
    const members = new Proxy(listed, {
      get(target, key, receiver) {
        if (typeof key === 'string' && /^\d+$/.test(key)) work.memberReads += 1;
        return Reflect.get(target, key, receiver) as unknown;
      },
    });
    const out: ValueSet = {
      size: set.size,
      has: (value) => set.has(value),
      members: () => members,
      classify: (value) => set.classify(value),
      suggest(value, limit) {
        work.suggestCalls += 1;
        return set.suggest(value, limit);
      },
    };
    wrapped.set(set, out);
    return out;
  };
  return {
    work,
    provider: {
      ready: (names) => provider.ready(names),
      refresh: (name) => provider.refresh(name),
      status: () => provider.status(),
      names: () => provider.names(),
      close: () => provider.close(),
      get(name): ValueSetLookup {
        const lookup = provider.get(name);
        return lookup.state === 'unavailable' ? lookup : { ...lookup, set: counting(lookup.set) };
      },
    },
  };
}
