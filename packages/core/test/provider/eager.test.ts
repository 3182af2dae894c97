import { expect } from 'chai';
import { createValueSetProvider, ErrorCode, staticValueSet } from '../../src/index.js';
import { ManualClock, settle } from '@argcheck/testing/clock';
import { CODES, harness, SET } from '../helpers/provider-harness.js';

describe('provider: first fetches start as it is made', () => {
  it('starts every set loading at creation, before any get()', async () => {
    const { provider, owner, clock } = harness({ lazy: false });
    expect(owner.calls).to.equal(1);
    await clock.tick(0);
    expect(provider.get(SET)).to.deep.include({ state: 'fresh' });
    expect(owner.calls).to.equal(1);
    provider.close();
  });

  it('serves a static set from its first get() once the turn the provider was made in has ended', async () => {
    const provider = createValueSetProvider({
      sources: { codes: staticValueSet([...CODES]) },
      clock: new ManualClock(),
    });
    await settle();
    expect(provider.status()).to.deep.equal([
      {
        name: 'codes',
        source: 'static',
        state: 'fresh',
        size: 6,
        ageSeconds: 0,
        fetchedAt: 1_700_000_000_000,
      },
    ]);
    provider.close();
  });

  it('with lazy: true, fetches nothing until the first get()', async () => {
    const { provider, owner, clock } = harness({ lazy: true });
    await clock.tick(60_000);
    expect(owner.calls).to.equal(0);
    expect(provider.get(SET)).to.deep.equal({ state: 'unavailable', reason: 'cold' });
    expect(owner.calls).to.equal(1);
    provider.close();
  });

  it('refuses a lazy option that is not a boolean, with INVALID_OPTION', () => {
    expect(() => harness({ lazy: 'yes' as unknown as boolean }))
      .to.throw('lazy must be true or false')
      .with.property('code', ErrorCode.INVALID_OPTION);
  });
});
