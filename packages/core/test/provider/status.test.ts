import { expect } from 'chai';
import { createValueSetProvider, staticValueSet } from '../../src/index.js';
import { ManualClock } from '@argcheck/testing/clock';
import { FakeOwner } from '../helpers/fake-owner.js';
import { CODES } from '../helpers/provider-harness.js';

describe('provider status() and names()', () => {
  it('reports every set, in configuration order, through its life', async () => {
    const clock = new ManualClock();
    const t0 = clock.now();
    const refunds = new FakeOwner([...CODES]);
    const warehouses = new FakeOwner().rejects(new Error('warehouses: HTTP 500'));
    const provider = createValueSetProvider({
      sources: {
        refund_reason: refunds.source('http'),
        warehouse_code: warehouses.source(),
        currency: staticValueSet(['EUR', 'USD']),
      },
      clock,
      // No refresh jitter: the refresh comes at the TTL, 300 s.
      random: () => 0,
    });
    expect(provider.names()).to.deep.equal(['refund_reason', 'warehouse_code', 'currency']);
    expect(provider.status()).to.deep.equal([
      { name: 'refund_reason', source: 'http', state: 'unavailable', reason: 'cold', size: 0 },
      { name: 'warehouse_code', source: 'function', state: 'unavailable', reason: 'cold', size: 0 },
      { name: 'currency', source: 'static', state: 'unavailable', reason: 'cold', size: 0 },
    ]);

    await provider.ready();
    await clock.tick(301_500);
    expect(provider.status()).to.deep.equal([
      {
        name: 'refund_reason',
        source: 'http',
        state: 'fresh',
        size: 6,
        ageSeconds: 1.5,
        fetchedAt: t0 + 300_000,
      },
      {
        name: 'warehouse_code',
        source: 'function',
        state: 'unavailable',
        reason: 'fetch_failed',
        size: 0,
        lastError: 'warehouses: HTTP 500',
      },
      {
        name: 'currency',
        source: 'static',
        state: 'fresh',
        size: 2,
        ageSeconds: 1.5,
        fetchedAt: t0 + 300_000,
      },
    ]);
    provider.close();
  });
});
