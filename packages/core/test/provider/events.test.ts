import { expect } from 'chai';
import { compileCollectedAsync, type ValueSetCompiler } from '../../src/match/compile-value-set.js';
import { createProvider } from '../../src/provider/create-provider.js';
import type { ValueSetEvent } from '../../src/types.js';
import { ManualClock } from '@argcheck/testing/clock';
import { FakeOwner } from '../helpers/fake-owner.js';
import { CODES, harness, SET } from '../helpers/provider-harness.js';

const source = 'function' as const;

// A compiler that reports one collision group, so these tests do not depend
// on which strings the real normaliser considers equal.
const collidingCompile: ValueSetCompiler = (collected, options) => {
  options.onCollision?.(['NOT_AS_DESCRIBED', 'Not-As-Described'], 'not as described');
  return compileCollectedAsync(collected, options);
};

function providerWith(compile: ValueSetCompiler, owner: FakeOwner, events: ValueSetEvent[]) {
  return createProvider(
    {
      sources: { [SET]: owner.source() },
      clock: new ManualClock(),
      random: () => 0.5,
      onEvent: (e) => events.push(e),
    },
    compile,
  );
}

describe('provider events', () => {
  it('publishes normalisation collisions after the fetch that brought them', async () => {
    const events: ValueSetEvent[] = [];
    const provider = providerWith(collidingCompile, new FakeOwner([...CODES]), events);
    await provider.ready();
    expect(events).to.deep.equal([
      { type: 'fetch_succeeded', set: SET, source, size: 6, durationMs: 0 },
      {
        type: 'normalisation_collision',
        set: SET,
        members: ['NOT_AS_DESCRIBED', 'Not-As-Described'],
        normalised: 'not as described',
      },
    ]);
    provider.close();
  });

  it('publishes no collisions for a refresh it refuses', async () => {
    const events: ValueSetEvent[] = [];
    const owner = new FakeOwner([...CODES]);
    const provider = providerWith(collidingCompile, owner, events);
    await provider.ready();
    owner.serves(['LATE']);
    await provider.refresh(SET);
    expect(events.slice(2).map((e) => e.type)).to.deep.equal(['refresh_rejected', 'fetch_failed']);
    provider.close();
  });

  it('refuses a set the compiler throws on, as malformed', async () => {
    const events: ValueSetEvent[] = [];
    const throwing: ValueSetCompiler = () => {
      throw new Error('index overflow');
    };
    const provider = providerWith(throwing, new FakeOwner([...CODES]), events);
    await provider.ready();
    const detail = 'the set could not be compiled: Error: index overflow';
    expect(provider.get(SET)).to.deep.equal({ state: 'unavailable', reason: 'invalid_payload' });
    expect(events).to.deep.equal([
      { type: 'refresh_rejected', set: SET, source, reason: 'malformed', detail },
      {
        type: 'fetch_failed',
        set: SET,
        source,
        reason: 'invalid_payload',
        detail,
        durationMs: 0,
        retryInMs: 750,
      },
    ]);
    provider.close();
  });

  it('swallows exceptions thrown by onEvent and keeps working', async () => {
    const unhandled: unknown[] = [];
    const record = (reason: unknown): void => void unhandled.push(reason);
    process.on('unhandledRejection', record);
    try {
      const { provider, owner, clock } = harness({
        onEvent: () => {
          throw new Error('listener bug');
        },
      });
      await provider.ready();
      expect(provider.get(SET).state).to.equal('fresh');
      owner.rejects(new Error('refunds is down'));
      await clock.tick(300_000 + 60_000);
      expect(provider.get(SET).state).to.equal('stale');
      expect(owner.calls).to.be.greaterThan(2);
      provider.close();
      await clock.tick(0);
      expect(unhandled).to.deep.equal([]);
    } finally {
      process.off('unhandledRejection', record);
    }
  });

  it('survives a random() that returns garbage, retrying at the midpoint delay', async () => {
    const { provider, owner, events } = harness({ random: () => Number.NaN });
    owner.rejects(new Error('refunds is down'));
    await provider.ready();
    expect(events).to.deep.equal([
      {
        type: 'fetch_failed',
        set: SET,
        source,
        reason: 'fetch_failed',
        detail: 'refunds is down',
        durationMs: 0,
        retryInMs: 750,
      },
    ]);
    provider.close();
  });
});
