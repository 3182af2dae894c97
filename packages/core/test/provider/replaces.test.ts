import { expect } from 'chai';
import {
  createValueSetProvider,
  ErrorCode,
  functionValueSet,
  staticValueSet,
} from '../../src/index.js';
import type { ValueSetProvider } from '../../src/types.js';
import { ManualClock } from '@argcheck/testing/clock';
import { FakeOwner } from '../helpers/fake-owner.js';
import { CODES, SET } from '../helpers/provider-harness.js';

const MINUTE = 60_000;

/** A provider over `sources` on `clock`, random 0.5, no refresh jitter. */
function make(
  clock: ManualClock,
  sources: Parameters<typeof createValueSetProvider>[0]['sources'],
  options: { ttlMs?: number; replaces?: ValueSetProvider } = {},
) {
  return createValueSetProvider({
    sources,
    clock,
    random: () => 0.5,
    refreshJitter: 0,
    ...options,
  });
}

describe('provider replaces: a configuration change keeps the sets it did not change', () => {
  it('a set from the same source keeps its members, age and state under a new TTL', async () => {
    const clock = new ManualClock();
    const owner = new FakeOwner([...CODES]);
    const source = owner.source();
    const before = make(clock, { [SET]: source });
    await before.ready();
    await clock.tick(2 * MINUTE);
    const after = make(clock, { [SET]: source }, { ttlMs: 10 * MINUTE, replaces: before });
    before.close();
    // No gap: fresh at once, nothing fetched again.
    expect(after.get(SET)).to.deep.include({ state: 'fresh' });
    expect(after.status()[0]).to.include({ state: 'fresh', size: 6, ageSeconds: 120 });
    expect(owner.calls).to.equal(1);
    // The new TTL counts from the fetch the old provider made: due at 10 minutes of age.
    await clock.tick(8 * MINUTE - 1);
    expect(owner.calls).to.equal(1);
    await clock.tick(1);
    expect(owner.calls).to.equal(2);
    after.close();
  });

  it('a set served stale during an outage is still served stale, and expires on the old schedule', async () => {
    const clock = new ManualClock();
    const owner = new FakeOwner([...CODES]);
    const source = owner.source();
    const before = make(clock, { [SET]: source });
    await before.ready();
    owner.rejects(new Error('owner down'));
    await clock.tick(10 * MINUTE); // TTL 5 min: stale, retrying
    expect(before.get(SET).state).to.equal('stale');
    const after = make(clock, { [SET]: source }, { replaces: before });
    before.close();
    expect(after.get(SET)).to.deep.include({ state: 'stale' });
    expect(after.status()[0]).to.include({ state: 'stale', size: 6, ageSeconds: 600 });
    // maxStaleMs (1 h) past the TTL of the fetch, not of the new provider.
    await clock.tick(55 * MINUTE - 1);
    expect(after.get(SET).state).to.equal('stale');
    await clock.tick(1);
    expect(after.get(SET)).to.deep.equal({ state: 'unavailable', reason: 'expired' });
    after.close();
  });

  it('a set whose source changed, or a new set, starts cold', async () => {
    const clock = new ManualClock();
    const before = make(clock, { [SET]: new FakeOwner([...CODES]).source() });
    await before.ready();
    const owner = new FakeOwner(['OTHER']);
    const after = make(
      clock,
      { [SET]: owner.source(), extra: staticValueSet(['A']) },
      { replaces: before },
    );
    before.close();
    expect(after.get(SET)).to.deep.equal({ state: 'unavailable', reason: 'cold' });
    expect(after.get('extra')).to.deep.equal({ state: 'unavailable', reason: 'cold' });
    await after.ready();
    expect(after.status().map((s) => [s.name, s.state, s.size])).to.deep.equal([
      [SET, 'fresh', 1],
      ['extra', 'fresh', 1],
    ]);
    after.close();
  });

  it('a set that had failed keeps its reason and is fetched again at once', async () => {
    const clock = new ManualClock();
    const owner = new FakeOwner().rejects(new Error('owner down'));
    const source = owner.source();
    const before = make(clock, { [SET]: source });
    await before.ready();
    expect(before.get(SET)).to.deep.equal({ state: 'unavailable', reason: 'fetch_failed' });
    const after = make(clock, { [SET]: source }, { replaces: before });
    before.close();
    expect(after.get(SET)).to.deep.equal({ state: 'unavailable', reason: 'fetch_failed' });
    expect(owner.calls).to.equal(2);
    await after.ready();
    owner.serves([...CODES]);
    await after.refresh(SET);
    expect(after.get(SET).state).to.equal('fresh');
    after.close();
  });

  it('a staticValueSet made again with the same members is the same source; a functionValueSet only itself', async () => {
    const clock = new ManualClock();
    const load = () => [...CODES];
    const before = make(clock, { s: staticValueSet([...CODES]), f: functionValueSet(load) });
    await before.ready();
    const after = make(
      clock,
      { s: staticValueSet([...CODES]), f: functionValueSet(load) },
      { replaces: before },
    );
    before.close();
    expect(after.status().map((s) => [s.name, s.state])).to.deep.equal([
      ['s', 'fresh'],
      ['f', 'unavailable'],
    ]);
    after.close();
  });

  it('refuses a replaces that is no provider made by createValueSetProvider, with INVALID_OPTION', () => {
    const clock = new ManualClock();
    for (const bad of [{}, { get() {} }, 'provider']) {
      expect(() => make(clock, {}, { replaces: bad as unknown as ValueSetProvider }))
        .to.throw('replaces must be a provider made by createValueSetProvider')
        .with.property('code', ErrorCode.INVALID_OPTION);
    }
  });
});
