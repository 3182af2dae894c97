import { expect } from 'chai';
import { compileCollectedAsync, type ValueSetCompiler } from '../../src/match/compile-value-set.js';
import { createProvider } from '../../src/provider/create-provider.js';
import { createValueSetProvider, functionValueSet } from '../../src/index.js';
import type { ValueSetEvent, ValueSetProviderOptions } from '../../src/types.js';
import { ManualClock } from '@argcheck/testing/clock';
import { FakeOwner } from '../helpers/fake-owner.js';
import { CODES, SET, served } from '../helpers/provider-harness.js';

const source = 'function' as const;
const UNCHANGED = { unchanged: true } as const;

/** A provider over a scripted owner that counts its compiles; no refresh jitter. */
function versioned(options: Partial<ValueSetProviderOptions> = {}) {
  const clock = new ManualClock();
  const owner = new FakeOwner({ values: [...CODES], version: 'v1' });
  const events: ValueSetEvent[] = [];
  let compiles = 0;
  const compile: ValueSetCompiler = (collected, compileOptions) => {
    compiles++;
    return compileCollectedAsync(collected, compileOptions);
  };
  const provider = createProvider(
    {
      sources: { [SET]: owner.source() },
      clock,
      random: () => 0.5,
      refreshJitter: 0,
      onEvent: (e) => events.push(e),
      // The test decides when the first fetch starts.
      lazy: true,
      ...options,
    },
    compile,
  );
  return { clock, owner, events, provider, compiles: () => compiles, t0: clock.now() };
}

describe('provider: a source that says its list is unchanged', () => {
  it('hands back the version it holds; { unchanged: true } renews the set without a compile', async () => {
    const { provider, owner, clock, events, compiles, t0 } = versioned();
    await provider.ready();
    const first = provider.get(SET);
    owner.serves(UNCHANGED);
    await clock.tick(300_000);

    expect(owner.versions).to.deep.equal([undefined, 'v1']);
    expect(compiles()).to.equal(1);
    expect(provider.get(SET)).to.equal(first);
    expect(provider.status()).to.deep.equal([
      { name: SET, source, state: 'fresh', size: 6, ageSeconds: 0, fetchedAt: t0 + 300_000 },
    ]);
    expect(events).to.deep.equal([
      { type: 'fetch_succeeded', set: SET, source, size: 6, durationMs: 0 },
      { type: 'fetch_succeeded', set: SET, source, size: 6, durationMs: 0, unchanged: true },
    ]);
    // Renewed for a whole TTL: the next refresh is 300 s after the 304, not after the download.
    await clock.tick(299_999);
    expect(owner.calls).to.equal(2);
    await clock.tick(1);
    expect(owner.calls).to.equal(3);
    provider.close();
  });

  it('refuses { unchanged: true } when it passed no version: cold stays unavailable', async () => {
    const { provider, owner, events } = versioned();
    owner.serves(UNCHANGED);
    await provider.ready();
    const detail = 'the source answered { unchanged: true } to a load that passed no ctx.version';
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

  it('refuses { unchanged: true } for a list held without a version', async () => {
    const { provider, owner } = versioned();
    owner.serves([...CODES]);
    await provider.ready();
    owner.serves(UNCHANGED);
    await provider.refresh(SET);
    expect(owner.versions).to.deep.equal([undefined, undefined]);
    expect(provider.status()[0]?.lastError).to.equal(
      'the source answered { unchanged: true } to a load that passed no ctx.version',
    );
    provider.close();
  });

  it('keeps the version of the list it serves when it refuses a new one', async () => {
    const { provider, owner } = versioned();
    await provider.ready();
    owner.serves({ values: ['LATE'], version: 'v2' }); // loses 5 of 6: refused as shrunk
    await provider.refresh(SET);
    owner.serves(UNCHANGED);
    await provider.refresh(SET);
    expect(owner.versions).to.deep.equal([undefined, 'v1', 'v1']);
    expect(served(provider)).to.deep.equal(CODES);
    expect(provider.get(SET).state).to.equal('fresh');
    provider.close();
  });

  it('takes the version of each list it publishes, and none from a list without one', async () => {
    const { provider, owner } = versioned();
    await provider.ready();
    owner.serves({ values: [...CODES, 'WRONG_SIZE'], version: 'v2' });
    await provider.refresh(SET);
    owner.serves([...CODES]);
    await provider.refresh(SET);
    owner.serves({ values: [...CODES], version: 3 });
    await provider.refresh(SET);
    await provider.refresh(SET);
    expect(owner.versions).to.deep.equal([undefined, 'v1', 'v2', undefined, '3']);
    provider.close();
  });

  it('brings an expired set back when the owner vouches for it', async () => {
    const { provider, owner, clock, events } = versioned({ maxStaleMs: 60_000 });
    await provider.ready();
    owner.rejects(new Error('refunds is down'));
    await clock.tick(360_000);
    expect(provider.get(SET)).to.deep.equal({ state: 'unavailable', reason: 'expired' });
    owner.serves(UNCHANGED);
    await provider.refresh(SET);
    expect(provider.get(SET).state).to.equal('fresh');
    expect(served(provider)).to.deep.equal(CODES);
    expect(events.at(-1)).to.deep.equal({
      type: 'fetch_succeeded',
      set: SET,
      source,
      size: 6,
      durationMs: 0,
      unchanged: true,
    });
    provider.close();
  });

  it('lets one source serve two providers: each passes the version of its own list', async () => {
    let revision = 1;
    const seen: (string | undefined)[] = [];
    const shared = functionValueSet(({ version }) => {
      seen.push(version);
      const current = `r${revision}`;
      return version === current ? UNCHANGED : { values: [...CODES], version: current };
    });
    const clock = new ManualClock();
    const a = createValueSetProvider({ sources: { [SET]: shared }, clock, lazy: true });
    const b = createValueSetProvider({ sources: { [SET]: shared }, clock, lazy: true });
    await a.ready();
    await a.refresh(SET);
    revision = 2;
    await b.ready();
    await a.refresh(SET);
    expect(seen).to.deep.equal([undefined, 'r1', undefined, 'r1']);
    expect([a, b].map((p) => p.get(SET).state)).to.deep.equal(['fresh', 'fresh']);
    a.close();
    b.close();
  });
});
