import { expect } from 'chai';
import { CODES, harness, SET, served } from '../helpers/provider-harness.js';
import { recordFigure } from '@argcheck/testing/figures';

const source = 'function' as const;

describe('provider refresh', () => {
  it('picks up a seventh code once the TTL has passed and the background refresh completes', async () => {
    // random() = 0: no refresh jitter, the refresh starts at the TTL itself.
    const { provider, owner, clock, events } = harness({ random: () => 0 });
    await provider.ready();
    const next = owner.defers();

    await clock.tick(299_999);
    expect(provider.get(SET).state).to.equal('fresh');
    expect(owner.calls).to.equal(1);
    await clock.tick(1);
    expect(owner.calls).to.equal(2);
    const during = provider.get(SET);
    expect(during.state).to.equal('stale');
    expect(during.state !== 'unavailable' && during.set.has('WRONG_SIZE')).to.equal(false);

    next.resolve([...CODES, 'WRONG_SIZE']);
    await clock.tick(0);
    const after = provider.get(SET);
    expect(after.state).to.equal('fresh');
    expect(after.state !== 'unavailable' && after.set.has('WRONG_SIZE')).to.equal(true);
    expect(events).to.deep.equal([
      { type: 'fetch_succeeded', set: SET, source, size: 6, durationMs: 0 },
      { type: 'fetch_succeeded', set: SET, source, size: 7, durationMs: 0 },
    ]);
    recordFigure(
      'owner-adds-member',
      `a mismatch until the TTL (300 s, no jitter), \`stale\` while the refresh is in flight, in set once it completes; ${owner.calls} fetches in all`,
    );
    provider.close();
  });

  it('keeps one load in flight however often refresh() and get() are called', async () => {
    const { provider, owner, clock } = harness();
    const pending = owner.defers();
    const refreshes: Promise<void>[] = [];
    for (let i = 0; i < 1_000; i++) {
      refreshes.push(provider.refresh(SET));
      provider.get(SET);
    }
    const joined = provider.ready();
    expect(new Set(refreshes).size).to.equal(1);
    await clock.tick(1_000);
    expect(owner.calls).to.equal(1);
    pending.resolve([...CODES]);
    await Promise.all([...refreshes, joined]);
    expect(provider.get(SET).state).to.equal('fresh');
    recordFigure(
      'single-flight',
      `${owner.calls} load for 1,000 \`refresh()\` and 1,000 \`get()\` calls, all joining it`,
    );
    provider.close();
  });

  it('resolves refresh() and ready() on failure instead of rejecting', async () => {
    const { provider, owner } = harness();
    owner.rejects(new Error('refunds is down'));
    await provider.refresh(SET);
    await provider.ready();
    expect(provider.get(SET)).to.deep.equal({ state: 'unavailable', reason: 'fetch_failed' });
    expect(owner.calls).to.equal(1);
    provider.close();
  });

  it('resolves refresh() and ready() of unknown names at once', async () => {
    const { provider, owner } = harness();
    await provider.refresh('nope');
    await provider.ready(['nope']);
    expect(owner.calls).to.equal(0);
  });

  it('ready() fetches only sets that have not been attempted yet', async () => {
    const { provider, owner } = harness();
    await provider.ready([SET]);
    await provider.ready();
    expect(owner.calls).to.equal(1);
  });

  it('a refresh() that fails while fresh keeps the set fresh and retries with backoff', async () => {
    const { provider, owner, clock } = harness();
    await provider.ready();
    owner.rejects(new Error('refunds is down'));
    await provider.refresh(SET);
    expect(provider.get(SET).state).to.equal('fresh');
    owner.serves([...CODES, 'WRONG_SIZE']);
    await clock.tick(749);
    expect(owner.calls).to.equal(2);
    await clock.tick(1);
    expect(owner.calls).to.equal(3);
    expect(served(provider)).to.include('WRONG_SIZE');
    provider.close();
  });

  it('once a set has expired, accepts a list much smaller than the one that expired', async () => {
    const { provider, owner, clock } = harness({ maxStaleMs: 60_000 });
    await provider.ready();
    owner.rejects(new Error('refunds is down'));
    await clock.tick(360_000);
    expect(provider.get(SET)).to.deep.equal({ state: 'unavailable', reason: 'expired' });
    owner.serves(['LATE']);
    await provider.refresh(SET);
    expect(provider.get(SET).state).to.equal('fresh');
    expect(served(provider)).to.deep.equal(['LATE']);
    recordFigure(
      'back-after-expiry-smaller',
      `\`expired\` → ${provider.get(SET).state} with ${served(provider).length} member (was ${CODES.length})`,
    );
    provider.close();
  });

  it('counts duplicate values once when guarding against shrinking', async () => {
    const { provider, owner } = harness();
    owner.serves(['LATE', 'LATE', 'OTHER', 'OTHER']);
    await provider.ready();
    owner.serves(['LATE']);
    await provider.refresh(SET);
    expect(served(provider)).to.deep.equal(['LATE']);
    provider.close();
  });
});
