import { expect } from 'chai';
import { createValueSetProvider } from '../../src/index.js';
import { ManualClock } from '@argcheck/testing/clock';
import { FakeOwner } from '../helpers/fake-owner.js';

/**
 * Each set drew its refresh jitter (and its retry delay) from `random` when
 * its load ended. Sets refreshing together therefore drew in the order their
 * loads happened to finish, so with an injected clock and a seeded `random`
 * the provider was not deterministic: two `argcheck demo --seed` runs side by
 * side on a loaded machine gave their sets different jitter and sampled
 * different log records (its regression test failed in CI). A set now draws
 * as its attempt starts, in the order its timer fired.
 */
const TTL = 300_000;

/** Draws 0.1, 0.2, 0.3, … in turn. */
function counting(): () => number {
  let i = 0;
  return () => (++i % 10) / 10;
}

/** When each set was loaded, with the second round of loads finishing in `order`. */
async function loadTimes(order: readonly ('a' | 'b')[]): Promise<Record<string, number[]>> {
  const clock = new ManualClock();
  const owners = { a: new FakeOwner(['A1']), b: new FakeOwner(['B1']) };
  const provider = createValueSetProvider({
    sources: { a: owners.a.source(), b: owners.b.source() },
    clock,
    random: counting(),
    refreshJitter: 0.5,
    ttlMs: TTL,
  });
  await provider.ready();
  const loads: Record<string, number[]> = { a: [], b: [] };
  const seen = { a: 1, b: 1 };
  const note = (): void => {
    for (const name of ['a', 'b'] as const) {
      while (owners[name].calls > seen[name]) {
        seen[name] += 1;
        loads[name]!.push(clock.now() - t0);
      }
    }
  };
  const t0 = clock.now();
  // Both refreshes fall due together: the loads of this round are held, then
  // released in `order`.
  const held = { a: owners.a.defers(), b: owners.b.defers() };
  const refreshing = Promise.all([provider.refresh('a'), provider.refresh('b')]);
  note();
  for (const name of order) {
    held[name].resolve([`${name.toUpperCase()}2`]);
    await clock.tick(0);
  }
  await refreshing;
  owners.a.serves(['A3']);
  owners.b.serves(['B3']);
  for (let ms = 1_000; ms <= TTL; ms += 1_000) {
    await clock.tick(1_000);
    note();
  }
  provider.close();
  return loads;
}

describe('regression: sets refreshing together drew their jitter in the order their loads ended', () => {
  it('gives each set the same next refresh whichever of their loads ends first', async () => {
    const aFirst = await loadTimes(['a', 'b']);
    const bFirst = await loadTimes(['b', 'a']);
    expect(bFirst).to.deep.equal(aFirst);
    // The draws follow the order the attempts started (a, then b): 0.3 and 0.4.
    expect(aFirst).to.deep.equal({
      a: [0, TTL * (1 - 0.5 * 0.3)],
      b: [0, TTL * (1 - 0.5 * 0.4)],
    });
  });
});
