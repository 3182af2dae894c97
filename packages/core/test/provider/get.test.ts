import { expect } from 'chai';
import { createValueSetProvider } from '../../src/index.js';
import type { Clock } from '../../src/types.js';
import { ManualClock } from '@argcheck/testing/clock';
import { FakeOwner } from '../helpers/fake-owner.js';
import { CODES, harness, SET } from '../helpers/provider-harness.js';

describe('provider get()', () => {
  it('answers unknown_set for a name no source provides, without fetching anything', () => {
    const { provider, owner, clock } = harness();
    expect(provider.get('warehouse_code')).to.deep.equal({
      state: 'unavailable',
      reason: 'unknown_set',
    });
    expect(owner.calls).to.equal(0);
    expect(clock.pending()).to.equal(0);
  });

  it('answers cold for a cold set and fetches it in the background', async () => {
    const { provider, clock } = harness();
    expect(provider.get(SET)).to.deep.equal({ state: 'unavailable', reason: 'cold' });
    await clock.tick(0);
    const lookup = provider.get(SET);
    expect(lookup.state).to.equal('fresh');
    expect(lookup.state !== 'unavailable' && lookup.set.members()).to.deep.equal(CODES);
  });

  it('starts exactly one fetch for 1,000 concurrent get() calls on a cold set', async () => {
    const { provider, owner, clock } = harness();
    const pending = owner.defers();
    const lookups = Array.from({ length: 1_000 }, () => provider.get(SET));
    expect(new Set(lookups).size).to.equal(1);
    expect(lookups[0]).to.deep.equal({ state: 'unavailable', reason: 'cold' });
    await clock.tick(100);
    expect(owner.calls).to.equal(1);
    pending.resolve([...CODES]);
    await clock.tick(0);
    expect(owner.calls).to.equal(1);
    expect(provider.get(SET).state).to.equal('fresh');
  });

  it('returns at once, from a preallocated object, while a fetch hangs', async () => {
    const { provider, owner, clock } = harness();
    await provider.ready();
    owner.hangs();
    await clock.tick(300_000);
    const first = provider.get(SET);
    expect(first.state).to.equal('stale');
    expect(provider.get(SET)).to.equal(first);
  });

  it('never reads the clock', async () => {
    const fake = new ManualClock();
    let reads = 0;
    const clock: Clock = {
      now: () => {
        reads += 1;
        return fake.now();
      },
      setTimeout: (fn, ms) => fake.setTimeout(fn, ms),
      clearTimeout: (handle) => fake.clearTimeout(handle),
    };
    const owner = new FakeOwner([...CODES]);
    const provider = createValueSetProvider({ sources: { [SET]: owner.source() }, clock });
    await provider.ready();
    reads = 0;
    for (let i = 0; i < 10_000; i++) provider.get(SET);
    provider.get('not_configured');
    expect(reads).to.equal(0);
    provider.close();
  });

  it('hands out frozen lookups, so one caller cannot change what the next one sees', async () => {
    const { provider } = harness();
    expect(Object.isFrozen(provider.get(SET))).to.equal(true);
    expect(Object.isFrozen(provider.get('nope'))).to.equal(true);
    await provider.ready();
    expect(Object.isFrozen(provider.get(SET))).to.equal(true);
  });
});
