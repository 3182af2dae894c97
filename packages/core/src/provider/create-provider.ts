import { ArgcheckConfigError, ErrorCode } from '../errors.js';
import type { ValueSetCompiler } from '../match/compile-value-set.js';
import type { ValueSetLookup, ValueSetProvider, ValueSetProviderOptions } from '../types.js';
import { UNAVAILABLE } from './lookups.js';
import { sameSource } from '../sources/source-identity.js';
import { resolveOptions } from './resolve-options.js';
import { ValueSetSlot } from './value-set-slot.js';

/** The slots behind each provider, for the one that replaces it (`replaces`). */
const SLOTS = new WeakMap<ValueSetProvider, ReadonlyMap<string, ValueSetSlot>>();

/**
 * The provider with its compiler injected; `createValueSetProvider` passes the
 * real one (`compileCollectedAsync`). Tests use this to drive compile-time
 * behaviour (collisions, failures, slices) without depending on how the
 * compiler normalises. The compiler may answer at once or with a promise.
 */
export function createProvider(
  options: ValueSetProviderOptions,
  compile: ValueSetCompiler,
): ValueSetProvider {
  const { resolved, sources, lazy, replaces } = resolveOptions(options, compile);
  const previous = replaces === undefined ? undefined : SLOTS.get(replaces);
  if (replaces !== undefined && previous === undefined) {
    throw new ArgcheckConfigError(
      ErrorCode.INVALID_OPTION,
      'createValueSetProvider: replaces must be a provider made by createValueSetProvider',
    );
  }
  const slots = new Map<string, ValueSetSlot>();
  for (const [name, source] of sources) {
    const slot = new ValueSetSlot(name, source, resolved);
    const before = previous?.get(name);
    if (before !== undefined && sameSource(before.source, source)) slot.adopt(before);
    slots.set(name, slot);
  }
  const names: readonly string[] = Object.freeze([...slots.keys()]);
  if (!lazy) for (const slot of slots.values()) if (slot.idle) slot.start();

  // The slot of the previous `get`: a checker asks for the same set call
  // after call with the same name string, which `===` settles by pointer where
  // the map lookup hashes and probes. Slots are fixed at creation, so a cached
  // one never goes stale; `lookup` and `idle` are still read from it each time.
  let lastName: string | undefined;
  let lastSlot: ValueSetSlot | undefined;

  const provider: ValueSetProvider = Object.freeze({
    get(name: string): ValueSetLookup {
      let slot: ValueSetSlot | undefined;
      if (name === lastName) slot = lastSlot;
      else {
        slot = slots.get(name);
        if (slot !== undefined) {
          lastName = name;
          lastSlot = slot;
        }
      }
      if (slot === undefined) return UNAVAILABLE.unknown_set;
      if (slot.idle) slot.start();
      return slot.lookup;
    },
    async ready(wanted: readonly string[] = names): Promise<void> {
      await Promise.all(wanted.map((name) => slots.get(name)?.ready() ?? Promise.resolve()));
    },
    refresh(name: string): Promise<void> {
      return slots.get(name)?.refresh() ?? Promise.resolve();
    },
    status() {
      const now = resolved.clock.now();
      return [...slots.values()].map((slot) => slot.status(now));
    },
    names: () => names,
    close(): void {
      for (const slot of slots.values()) slot.close();
    },
  });
  SLOTS.set(provider, slots);
  return provider;
}
