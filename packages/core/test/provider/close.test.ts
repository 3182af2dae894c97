import { expect } from 'chai';
import { CODES, harness, SET, served } from '../helpers/provider-harness.js';

describe('provider close()', () => {
  it('stops the TTL timer of a fresh set', async () => {
    const { provider, clock } = harness();
    await provider.ready();
    expect(clock.pending()).to.equal(1);
    provider.close();
    expect(clock.pending()).to.equal(0);
  });

  it('stops the retry and expiry timers of a failing set', async () => {
    const { provider, owner, clock } = harness();
    await provider.ready();
    owner.rejects(new Error('refunds is down'));
    await clock.tick(300_000);
    expect(clock.pending()).to.equal(2);
    provider.close();
    expect(clock.pending()).to.equal(0);
  });

  it('aborts a fetch in flight, clears its timeout and settles refresh()', async () => {
    const { provider, owner, clock, events } = harness();
    owner.hangs();
    const refreshing = provider.refresh(SET);
    expect(clock.pending()).to.equal(1);
    provider.close();
    await refreshing;
    expect(owner.signals[0]?.aborted).to.equal(true);
    expect((owner.signals[0]?.reason as Error).name).to.equal('AbortError');
    expect(clock.pending()).to.equal(0);
    expect(events).to.deep.equal([]);
    expect(provider.get(SET)).to.deep.equal({ state: 'unavailable', reason: 'cold' });
  });

  it('ignores a load that answers after close', async () => {
    const { provider, owner, clock, events } = harness();
    const late = owner.defers();
    provider.get(SET);
    provider.close();
    late.resolve([...CODES]);
    await clock.tick(1_000_000);
    expect(events).to.deep.equal([]);
    expect(clock.pending()).to.equal(0);
  });

  it('serves a held set as stale afterwards and never fetches again', async () => {
    const { provider, owner, clock } = harness();
    await provider.ready();
    provider.close();
    expect(provider.get(SET).state).to.equal('stale');
    expect(served(provider)).to.deep.equal(CODES);
    await provider.refresh(SET);
    await clock.tick(1_000_000);
    expect(owner.calls).to.equal(1);
  });

  it('does not start fetching a cold set on get() after close', async () => {
    const { provider, owner, clock } = harness();
    provider.close();
    expect(provider.get(SET)).to.deep.equal({ state: 'unavailable', reason: 'cold' });
    await provider.ready();
    await clock.tick(1_000);
    expect(owner.calls).to.equal(0);
  });
});
