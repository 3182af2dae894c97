import { expect } from 'chai';
import type { ValueSetEvent } from '../../src/types.js';
import { CODES, harness, SET, served } from '../helpers/provider-harness.js';
import { recordFigure } from '@argcheck/testing/figures';

const source = 'function' as const;
const MINUTE = 60_000;

// ttl 5 min, maxStale 30 min, random() = 0.5, so the refresh starts at
// 0.95 × the TTL (refreshJitter 0.1) and the retry delays are 750 ms, 1.5 s,
// 3 s, 6 s, 12 s, 24 s, then 45 s each (60 s cap, equal jitter).
// The owner is down from just after the first fetch (t = 0) until t = 40 min.
//   failure 1 at the refresh, t = 285 s; failures 2..7 at 285.75, 287.25,
//   290.25, 296.25, 308.25 and 332.25 s; failure 7 + n at 332.25 s + n * 45 s.
//   The set stays fresh until the TTL, 300 s, after failure 5.
//   The last failure before 2,400 s is n = 45 (2,357.25 s): 52 failures.
//   Expiry at 300 s + 1,800 s = 2,100 s, after failure 46 (2,087.25 s).
//   Recovery at the next retry, 2,402.25 s.
const DELAYS = [750, 1_500, 3_000, 6_000, 12_000, 24_000];
const retryInMs = (failure: number): number => DELAYS[failure - 1] ?? 45_000;

function failed(failure: number): ValueSetEvent {
  return {
    type: 'fetch_failed',
    set: SET,
    source,
    reason: 'fetch_failed',
    detail: 'refunds is down',
    durationMs: 0,
    retryInMs: retryInMs(failure),
  };
}

describe('provider: a 40-minute owner outage', () => {
  it('serves stale until maxStale, then expired, retrying with backoff, then fresh', async () => {
    const { provider, owner, clock, events, t0 } = harness({ maxStaleMs: 30 * MINUTE });
    const at = async (ms: number): Promise<void> => clock.tick(t0 + ms - clock.now());
    await provider.ready();
    owner.rejects(new Error('refunds is down'));

    await at(285_000 - 1);
    expect(owner.calls).to.equal(1);
    await at(285_000);
    expect(owner.calls).to.equal(2);
    await at(5 * MINUTE - 1);
    expect(provider.get(SET).state).to.equal('fresh');
    await at(5 * MINUTE);
    expect(provider.get(SET).state).to.equal('stale');
    expect(owner.calls).to.equal(1 + 5);

    await at(35 * MINUTE - 1);
    expect(provider.get(SET).state).to.equal('stale');
    expect(served(provider)).to.deep.equal(CODES);
    await at(35 * MINUTE);
    expect(provider.get(SET)).to.deep.equal({ state: 'unavailable', reason: 'expired' });
    expect(events.at(-1)).to.deep.equal({ type: 'expired', set: SET, source });
    expect(provider.status()).to.deep.equal([
      {
        name: SET,
        source,
        state: 'unavailable',
        reason: 'expired',
        size: 0,
        ageSeconds: 2_100,
        fetchedAt: t0,
        lastError: 'refunds is down',
      },
    ]);

    await at(40 * MINUTE);
    expect(owner.calls).to.equal(1 + 52);
    owner.serves([...CODES]);
    await at(2_402_250 - 1);
    expect(provider.get(SET)).to.deep.equal({ state: 'unavailable', reason: 'expired' });
    await at(2_402_250);
    expect(provider.get(SET).state).to.equal('fresh');
    expect(served(provider)).to.deep.equal(CODES);
    expect(owner.calls).to.equal(54);

    const succeeded: ValueSetEvent = {
      type: 'fetch_succeeded',
      set: SET,
      source,
      size: 6,
      durationMs: 0,
    };
    const failures = Array.from({ length: 52 }, (_, i) => failed(i + 1));
    expect(events).to.deep.equal([
      succeeded,
      ...failures.slice(0, 46),
      { type: 'expired', set: SET, source },
      ...failures.slice(46),
      succeeded,
    ]);
    expect(provider.status()).to.deep.equal([
      { name: SET, source, state: 'fresh', size: 6, ageSeconds: 0, fetchedAt: t0 + 2_402_250 },
    ]);
    const retries = events.flatMap((e) => (e.type === 'fetch_failed' ? [e.retryInMs] : []));
    recordFigure(
      'outage-40-minutes',
      `\`stale\` from 300 s, \`expired\` at 2,100 s; ${retries.length} failed fetches in the 40 minutes, retried after ${retries
        .slice(0, 3)
        .map((ms) => ms.toLocaleString('en-US'))
        .join(
          ', ',
        )} ms … up to ${Math.max(...retries).toLocaleString('en-US')} ms apart; fresh ${((t0 + 2_402_250 - (t0 + 40 * MINUTE)) / 1000).toLocaleString('en-US')} s after the owner came back, at the next retry (fake clock)`,
    );
    provider.close();
    expect(clock.pending()).to.equal(0);
  });
});
