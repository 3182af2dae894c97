import { createValueSetProvider } from '../../src/index.js';
import type { ValueSetEvent, ValueSetProvider, ValueSetProviderOptions } from '../../src/types.js';
import { ManualClock } from '@argcheck/testing/clock';
import { FakeOwner } from './fake-owner.js';

/** The six refund reason codes the owner serves at first. */
export const CODES = [
  'DAMAGED',
  'DUPLICATE_CHARGE',
  'LATE',
  'NOT_AS_DESCRIBED',
  'OTHER',
  'WRONG_ITEM',
] as const;

export const SET = 'refund_reason';

export interface Harness {
  clock: ManualClock;
  owner: FakeOwner;
  events: ValueSetEvent[];
  provider: ValueSetProvider;
  /** Clock time at creation, epoch ms. */
  t0: number;
}

/**
 * A provider over one set, `refund_reason`, served by a scripted owner that
 * starts with `CODES`; fake clock, `random` fixed at 0.5 (so the first retry
 * comes after 750 ms), events recorded. Lazy unless `options` say otherwise:
 * the test decides when the first fetch starts (its first `get`, `ready` or
 * `refresh`); the eager default has tests of its own (provider/eager.test.ts).
 */
export function harness(options: Partial<ValueSetProviderOptions> = {}): Harness {
  const clock = new ManualClock();
  const owner = new FakeOwner([...CODES]);
  const events: ValueSetEvent[] = [];
  const provider = createValueSetProvider({
    sources: { [SET]: owner.source() },
    clock,
    random: () => 0.5,
    onEvent: (event) => events.push(event),
    lazy: true,
    ...options,
  });
  return { clock, owner, events, provider, t0: clock.now() };
}

/** The members `get()` currently serves, or the unavailable reason. */
export function served(provider: ValueSetProvider, name = SET): string | readonly string[] {
  const lookup = provider.get(name);
  return lookup.state === 'unavailable' ? lookup.reason : lookup.set.members();
}
