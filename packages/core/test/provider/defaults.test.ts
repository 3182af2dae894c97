import { expect } from 'chai';
import { harness, SET, served } from '../helpers/provider-harness.js';
import { recordFigure } from '@argcheck/testing/figures';

// The harness passes no ttlMs, fetchTimeoutMs, maxStaleMs, maxShrinkRatio or refreshJitter.
describe('provider defaults', () => {
  it('keeps a set fresh for 300 s, then stale for 3,600 s, then expired', async () => {
    const { provider, owner, clock } = harness();
    await provider.ready();
    owner.rejects(new Error('refunds is down'));
    await clock.tick(299_999);
    expect(provider.get(SET).state).to.equal('fresh');
    await clock.tick(1);
    expect(provider.get(SET).state).to.equal('stale');
    await clock.tick(3_599_999);
    expect(provider.get(SET).state).to.equal('stale');
    await clock.tick(1);
    expect(provider.get(SET)).to.deep.equal({ state: 'unavailable', reason: 'expired' });
    recordFigure(
      'no-refresh-for-hours',
      `fresh until 300 s, \`stale\` until 3,900 s, then \`expired\`; ${owner.calls - 1} failed refreshes in between (fake clock)`,
    );
    provider.close();
  });

  it('starts a refresh up to 10 % of the TTL early: at 270.03 s for a draw of 0.999', async () => {
    const { provider, owner, clock } = harness({ random: () => 0.999 });
    await provider.ready();
    await clock.tick(270_029);
    expect(owner.calls).to.equal(1);
    await clock.tick(1);
    expect(owner.calls).to.equal(2);
    provider.close();
  });

  it('times a load out after 2 s', async () => {
    const { provider, owner, clock } = harness();
    owner.hangs();
    provider.get(SET);
    await clock.tick(1_999);
    expect(provider.get(SET)).to.deep.equal({ state: 'unavailable', reason: 'cold' });
    await clock.tick(1);
    expect(provider.get(SET)).to.deep.equal({ state: 'unavailable', reason: 'timeout' });
    provider.close();
  });

  it('refuses a refresh that loses more than half the members', async () => {
    const { provider, owner } = harness();
    owner.serves(['A', 'B', 'C', 'D']);
    await provider.ready();
    owner.serves(['A']);
    await provider.refresh(SET);
    expect(served(provider)).to.deep.equal(['A', 'B', 'C', 'D']);
    owner.serves(['A', 'B']);
    await provider.refresh(SET);
    expect(served(provider)).to.deep.equal(['A', 'B']);
    provider.close();
  });
});
