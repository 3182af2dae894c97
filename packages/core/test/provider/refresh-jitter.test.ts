import { expect } from 'chai';
import { createValueSetProvider } from '../../src/index.js';
import { ManualClock } from '@argcheck/testing/clock';
import { FakeOwner } from '../helpers/fake-owner.js';
import { CODES, harness, SET } from '../helpers/provider-harness.js';

const TTL = 300_000;

/** Draws from `values` in turn, then repeats the last. */
function draws(...values: number[]): () => number {
  let i = 0;
  return () => values[Math.min(i++, values.length - 1)]!;
}

describe('provider: refresh jitter', () => {
  it('starts each refresh at ttlMs × (1 − refreshJitter × random()), the set fresh throughout', async () => {
    const { provider, owner, clock, t0 } = harness({ random: () => 0.5, refreshJitter: 0.2 });
    const at = async (ms: number): Promise<void> => clock.tick(t0 + ms - clock.now());
    await provider.ready();
    await at(270_000 - 1);
    expect(owner.calls).to.equal(1);
    await at(270_000);
    expect(owner.calls).to.equal(2);
    expect(provider.get(SET).state).to.equal('fresh');
    // Counted from the good fetch at 270 s.
    await at(540_000 - 1);
    expect(owner.calls).to.equal(2);
    await at(540_000);
    expect(owner.calls).to.equal(3);
    expect(provider.status()[0]).to.deep.include({ state: 'fresh', fetchedAt: t0 + 540_000 });
    provider.close();
  });

  it('draws again after every good fetch', async () => {
    const { provider, owner, clock, t0 } = harness({ random: draws(0, 0.5, 0.9) });
    const at = async (ms: number): Promise<void> => clock.tick(t0 + ms - clock.now());
    const calls: number[] = [];
    await provider.ready();
    for (let ms = 1_000; ms <= 3 * TTL; ms += 1_000) {
      const before = owner.calls;
      await at(ms);
      if (owner.calls > before) calls.push(ms);
    }
    // 300 s × 1, then + 300 s × 0.95, then + 300 s × 0.91.
    expect(calls).to.deep.equal([300_000, 585_000, 858_000]);
    provider.close();
  });

  it('with refreshJitter 0, refreshes at the TTL whatever random() says', async () => {
    const { provider, owner, clock } = harness({ random: () => 0.99, refreshJitter: 0 });
    await provider.ready();
    const next = owner.defers();
    await clock.tick(TTL - 1);
    expect(owner.calls).to.equal(1);
    await clock.tick(1);
    expect(owner.calls).to.equal(2);
    expect(provider.get(SET).state).to.equal('stale');
    next.resolve([...CODES]);
    await clock.tick(0);
    expect(provider.get(SET).state).to.equal('fresh');
    provider.close();
  });

  it('a refresh still in flight at the TTL leaves the set stale until it lands', async () => {
    const { provider, owner, clock } = harness({ fetchTimeoutMs: 30_000 });
    await provider.ready();
    const next = owner.defers();
    await clock.tick(285_000);
    expect(owner.calls).to.equal(2);
    await clock.tick(15_000);
    expect(provider.get(SET).state).to.equal('stale');
    expect(owner.calls).to.equal(2);
    next.resolve([...CODES]);
    await clock.tick(0);
    expect(provider.get(SET).state).to.equal('fresh');
    provider.close();
  });

  it('spreads providers started together over the last 10 % of the TTL', async () => {
    const clock = new ManualClock();
    const t0 = clock.now();
    let seed = 42;
    // A fixed linear congruential sequence: deterministic, and spread like Math.random.
    const random = (): number => (seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31;
    const owner = new FakeOwner([...CODES]);
    const asked: number[] = [];
    const source = owner.source();
    const counting = {
      kind: source.kind,
      load: (ctx: Parameters<typeof source.load>[0]) => (
        asked.push(clock.now() - t0),
        source.load(ctx)
      ),
    };
    const providers = Array.from({ length: 100 }, () =>
      createValueSetProvider({ sources: { [SET]: counting }, clock, random }),
    );
    await Promise.all(providers.map((p) => p.ready()));
    asked.length = 0;
    await clock.tick(TTL);
    for (const p of providers) p.close();

    expect(asked).to.have.length(100);
    expect(Math.min(...asked)).to.be.at.least(0.9 * TTL);
    expect(Math.max(...asked)).to.be.at.most(TTL);
    const perSecond = new Map<number, number>();
    for (const ms of asked)
      perSecond.set(Math.floor(ms / 1_000), (perSecond.get(Math.floor(ms / 1_000)) ?? 0) + 1);
    // 100 requests over 30 s: without jitter all 100 came in the same millisecond.
    expect(Math.max(...perSecond.values())).to.be.at.most(10);
    expect(perSecond.size).to.be.at.least(20);
  });
});
