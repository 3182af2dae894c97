import { expect } from 'chai';
import { compileCollectedAsync, type ValueSetCompiler } from '../../src/match/compile-value-set.js';
import { createProvider } from '../../src/provider/create-provider.js';
import type { ValueSet, ValueSetEvent, ValueSetProviderOptions } from '../../src/types.js';
import { ManualClock, settle } from '@argcheck/testing/clock';
import { FakeOwner } from '../helpers/fake-owner.js';
import { CODES, harness, SET, served } from '../helpers/provider-harness.js';
import { realisticIds } from '../match/realistic-ids.js';

const source = 'function' as const;
const BIG = realisticIds(300, 9);
const turn = (): Promise<void> => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * A provider whose compiler is the real one cut into tiny slices (300 ids take
 * hundreds of turns), recording each compile: when it starts and how it ends.
 */
function slicedProvider(options: Partial<ValueSetProviderOptions> = {}) {
  const clock = new ManualClock();
  const owner = new FakeOwner([...CODES]);
  const events: ValueSetEvent[] = [];
  const compiles: Promise<ValueSet>[] = [];
  let onStart: (() => void) | undefined;
  const compile: ValueSetCompiler = (collected, compileOptions) => {
    const compiling = compileCollectedAsync(collected, { ...compileOptions, yieldEvery: 8 });
    compiles.push(compiling);
    onStart?.();
    return compiling;
  };
  const provider = createProvider(
    {
      sources: { [SET]: owner.source() },
      clock,
      random: () => 0.5,
      onEvent: (e) => events.push(e),
      // The test decides when the first fetch starts.
      lazy: true,
      ...options,
    },
    compile,
  );
  /** Resolves when the next compile has started (its first slice has run). */
  const nextCompile = (): Promise<void> => new Promise<void>((resolve) => (onStart = resolve));
  /** Whether the latest compile has settled, after letting promise jobs run. */
  const compiling = async (): Promise<boolean> => {
    let done = false;
    void compiles[compiles.length - 1]!.then(
      () => (done = true),
      () => (done = true),
    );
    await Promise.resolve();
    return !done;
  };
  return { clock, owner, events, provider, compiles, nextCompile, compiling };
}

describe('provider: a set that compiles in slices', () => {
  it('serves the previous set until the new one is published, then the new one', async () => {
    const { provider, owner, events, nextCompile, compiling } = slicedProvider();
    await provider.ready();
    const before = provider.get(SET);
    owner.serves(BIG);
    const started = nextCompile();
    const refreshing = provider.refresh(SET);
    await started;
    for (let i = 0; i < 20; i++) {
      await turn();
      expect(await compiling()).to.equal(true);
      expect(provider.get(SET)).to.equal(before);
    }
    expect(provider.status()[0]).to.include({ state: 'fresh', size: CODES.length });
    await refreshing;
    expect(served(provider)).to.deep.equal([...BIG].sort());
    expect(provider.get(SET).state).to.equal('fresh');
    expect(events).to.deep.equal([
      { type: 'fetch_succeeded', set: SET, source, size: 6, durationMs: 0 },
      { type: 'fetch_succeeded', set: SET, source, size: 300, durationMs: 0 },
    ]);
    provider.close();
  });

  it('counts a compile in progress as the attempt in flight', async () => {
    const { provider, owner, nextCompile, compiles } = slicedProvider();
    await provider.ready();
    owner.serves(BIG);
    const started = nextCompile();
    const refreshing = provider.refresh(SET);
    await started;
    expect(provider.refresh(SET)).to.equal(refreshing);
    const readying = provider.ready();
    provider.get(SET);
    await Promise.all([refreshing, readying]);
    expect(owner.calls).to.equal(2);
    expect(compiles).to.have.length(2);
    provider.close();
  });

  it('keeps a cold set cold while it compiles; ready() resolves once it is published', async () => {
    const { provider, owner, nextCompile, compiling } = slicedProvider();
    owner.serves(BIG);
    const started = nextCompile();
    let ready = false;
    const readying = provider.ready().then(() => (ready = true));
    await started;
    for (let i = 0; i < 20; i++) await turn();
    expect(await compiling()).to.equal(true);
    expect(ready).to.equal(false);
    expect(provider.get(SET)).to.deep.equal({ state: 'unavailable', reason: 'cold' });
    await readying;
    expect(provider.get(SET).state).to.equal('fresh');
    expect(provider.status()[0]).to.include({ state: 'fresh', size: 300 });
    provider.close();
  });

  it('abandons a compile on close(): nothing is published and nothing is left queued', async () => {
    const { provider, owner, clock, events, compiles, nextCompile } = slicedProvider();
    await provider.ready();
    owner.serves(BIG);
    const started = nextCompile();
    const refreshing = provider.refresh(SET);
    await started;
    await turn();
    provider.close();
    await refreshing;
    const outcome = await compiles[1]!.then(
      () => 'published',
      (e: unknown) => (e as Error).name,
    );
    expect(outcome).to.equal('AbortError');
    expect(clock.pending()).to.equal(0);
    for (let i = 0; i < 20; i++) await turn();
    await clock.tick(1_000_000);
    expect(events).to.deep.equal([
      { type: 'fetch_succeeded', set: SET, source, size: 6, durationMs: 0 },
    ]);
    expect(provider.get(SET).state).to.equal('stale');
    expect(served(provider)).to.deep.equal([...CODES]);
  });

  it('abandons the first compile of a cold set on close()', async () => {
    const { provider, owner, clock, events, nextCompile } = slicedProvider();
    owner.serves(BIG);
    const started = nextCompile();
    const readying = provider.ready();
    await started;
    provider.close();
    await readying;
    await clock.tick(1_000_000);
    expect(events).to.deep.equal([]);
    expect(clock.pending()).to.equal(0);
    expect(provider.get(SET)).to.deep.equal({ state: 'unavailable', reason: 'cold' });
  });

  it('bounds the load with fetchTimeoutMs, not the compile', async () => {
    const { provider, owner, clock, events, nextCompile, compiling } = slicedProvider({
      fetchTimeoutMs: 1_000,
    });
    owner.serves(BIG);
    const started = nextCompile();
    const readying = provider.ready();
    await started;
    // The load is over, so its timeout is gone; the compile runs on past it.
    expect(clock.pending()).to.equal(0);
    await clock.tick(5_000);
    expect(await compiling()).to.equal(true);
    await readying;
    expect(provider.get(SET).state).to.equal('fresh');
    // durationMs is the load's: the clock moved only while the set compiled.
    expect(events).to.deep.equal([
      { type: 'fetch_succeeded', set: SET, source, size: 300, durationMs: 0 },
    ]);
    provider.close();
  });

  it('refuses a set whose compile rejects, as malformed', async () => {
    const events: ValueSetEvent[] = [];
    const provider = createProvider(
      {
        sources: { [SET]: new FakeOwner([...CODES]).source() },
        clock: new ManualClock(),
        random: () => 0.5,
        onEvent: (e) => events.push(e),
      },
      () => turn().then(() => Promise.reject(new Error('index overflow'))),
    );
    await provider.ready();
    const detail = 'the set could not be compiled: Error: index overflow';
    expect(provider.get(SET)).to.deep.equal({ state: 'unavailable', reason: 'invalid_payload' });
    expect(events.map((e) => [e.type, 'detail' in e ? e.detail : undefined])).to.deep.equal([
      ['refresh_rejected', detail],
      ['fetch_failed', detail],
    ]);
    provider.close();
  });

  it('createValueSetProvider compiles a large set in slices: cold for many turns, then fresh', async function () {
    this.timeout(20_000);
    const ids = realisticIds(20_000, 4);
    const { provider, owner } = harness();
    owner.serves(ids);
    const readying = provider.ready();
    await settle();
    await settle();
    expect(provider.get(SET)).to.deep.equal({ state: 'unavailable', reason: 'cold' });
    await readying;
    expect(provider.status()[0]).to.include({ state: 'fresh', size: 20_000 });
    provider.close();
  });
});
