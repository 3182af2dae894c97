import { expect } from 'chai';
import type { ValueSetEvent, ValueSetStatus } from '../../src/types.js';
import type { FakeOwner } from '../helpers/fake-owner.js';
import { CODES, harness, SET, served } from '../helpers/provider-harness.js';
import { recordFigure } from '@argcheck/testing/figures';

const source = 'function' as const;
const TIMEOUT_DETAIL = 'no answer within 2000 ms (fetchTimeoutMs); the load was aborted';
const WRONG_SHAPE_DETAIL =
  'got an object without "values"; expected a JSON array of strings or of { value, aliases? } entries, or an object { values: [...] }';

interface FailureCase {
  title: string;
  misbehave(owner: FakeOwner): void;
  /** How long the attempt takes on the fake clock. */
  durationMs: number;
  reason: 'fetch_failed' | 'timeout' | 'invalid_payload';
  detail: string;
  rejection?: 'malformed' | 'empty';
  /** The fault row of docs/reliability.md this case records the figure of. */
  row?: string;
}

// Each failure is checked twice: over a good set (served stale), and cold (unavailable).
const cases: FailureCase[] = [
  {
    title: 'throws synchronously',
    misbehave: (o) => o.throwsSynchronously(new Error('refunds client not initialised')),
    durationMs: 0,
    reason: 'fetch_failed',
    detail: 'refunds client not initialised',
  },
  {
    title: 'rejects',
    misbehave: (o) => o.rejects(new Error('HTTP 503 from refunds')),
    durationMs: 0,
    reason: 'fetch_failed',
    detail: 'HTTP 503 from refunds',
  },
  {
    title: 'hangs past fetchTimeoutMs',
    misbehave: (o) => o.hangs(),
    durationMs: 2_000,
    reason: 'timeout',
    detail: TIMEOUT_DETAIL,
    row: 'owner-hangs',
  },
  {
    title: 'returns the wrong shape',
    misbehave: (o) => o.serves({ codes: ['LATE'] }),
    durationMs: 0,
    reason: 'invalid_payload',
    detail: WRONG_SHAPE_DETAIL,
    rejection: 'malformed',
    row: 'owner-wrong-shape',
  },
  {
    title: 'returns an empty list',
    misbehave: (o) => o.serves([]),
    durationMs: 0,
    reason: 'invalid_payload',
    detail: 'the owner sent an empty list',
    rejection: 'empty',
    row: 'owner-empty-list',
  },
];

function failureEvents(c: FailureCase, retryInMs = 750): ValueSetEvent[] {
  const rejected: ValueSetEvent[] = c.rejection
    ? [{ type: 'refresh_rejected', set: SET, source, reason: c.rejection, detail: c.detail }]
    : [];
  const failed: ValueSetEvent = {
    type: 'fetch_failed',
    set: SET,
    source,
    reason: c.reason,
    detail: c.detail,
    durationMs: c.durationMs,
    retryInMs,
  };
  return [...rejected, failed];
}

/** A refresh the owner failed: how it ended, and what is served meanwhile. */
function whatBecameOf(events: readonly ValueSetEvent[], [status]: readonly ValueSetStatus[]) {
  const failed = events.findLast((e) => e.type === 'fetch_failed');
  const rejected = events.findLast((e) => e.type === 'refresh_rejected');
  const ended =
    rejected?.type === 'refresh_rejected'
      ? `the refresh refused as \`${rejected.reason}\``
      : `the load ended as \`${failed?.type === 'fetch_failed' ? failed.reason : 'none'}\` after ${failed?.durationMs.toLocaleString('en-US')} ms (fake clock)`;
  const retry = failed?.type === 'fetch_failed' ? failed.retryInMs : NaN;
  return `${ended}; ${status?.size} members still served (${status?.state}, ${status?.ageSeconds} s old), the next try after ${retry.toLocaleString('en-US')} ms`;
}

describe('provider: when the owner fails', () => {
  for (const c of cases) {
    describe(`and ${c.title}`, () => {
      it('keeps serving the previous good set, stale', async () => {
        // random() = 0: the refresh starts at the TTL itself, the first retry is 500 ms later.
        const { provider, owner, clock, events, t0 } = harness({ random: () => 0 });
        await provider.ready();
        c.misbehave(owner);
        await clock.tick(300_000);
        expect(provider.get(SET).state).to.equal('stale');
        await clock.tick(c.durationMs);

        expect(served(provider)).to.deep.equal(CODES);
        expect(provider.get(SET).state).to.equal('stale');
        expect(events).to.deep.equal([
          { type: 'fetch_succeeded', set: SET, source, size: 6, durationMs: 0 },
          ...failureEvents(c, 500),
        ]);
        expect(provider.status()).to.deep.equal([
          {
            name: SET,
            source,
            state: 'stale',
            size: 6,
            ageSeconds: 300 + c.durationMs / 1000,
            fetchedAt: t0,
            lastError: c.detail,
          },
        ]);
        if (c.row !== undefined) recordFigure(c.row, whatBecameOf(events, provider.status()));
        provider.close();
      });

      it(`is unavailable with reason ${c.reason} when there is no previous set`, async () => {
        const { provider, owner, clock, events } = harness();
        c.misbehave(owner);
        expect(provider.get(SET)).to.deep.equal({ state: 'unavailable', reason: 'cold' });
        await clock.tick(c.durationMs);

        expect(provider.get(SET)).to.deep.equal({ state: 'unavailable', reason: c.reason });
        expect(events).to.deep.equal(failureEvents(c));
        expect(provider.status()).to.deep.equal([
          {
            name: SET,
            source,
            state: 'unavailable',
            reason: c.reason,
            size: 0,
            lastError: c.detail,
          },
        ]);
        provider.close();
      });
    });
  }

  describe('and returns a list that lost more than half its members', () => {
    const detail =
      'the owner sent 2 members, down from 6 (67% lost, more than maxShrinkRatio 0.5 allows)';

    it('rejects it and keeps serving the previous set', async () => {
      const { provider, owner, clock, events } = harness();
      await provider.ready();
      owner.serves(['LATE', 'OTHER']);
      await provider.refresh(SET);

      expect(served(provider)).to.deep.equal(CODES);
      expect(provider.get(SET).state).to.equal('fresh');
      expect(events.slice(1)).to.deep.equal([
        { type: 'refresh_rejected', set: SET, source, reason: 'shrunk', detail },
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
      await clock.tick(300_000);
      expect(served(provider)).to.deep.equal(CODES);
      expect(provider.get(SET).state).to.equal('stale');
      recordFigure('owner-shrunk', whatBecameOf(events, provider.status()));
    });

    it('accepts a loss of exactly maxShrinkRatio', async () => {
      const { provider, owner } = harness();
      await provider.ready();
      owner.serves(['LATE', 'OTHER', 'WRONG_ITEM']);
      await provider.refresh(SET);
      expect(served(provider)).to.deep.equal(['LATE', 'OTHER', 'WRONG_ITEM']);
    });

    it('honours a stricter maxShrinkRatio', async () => {
      const { provider, owner } = harness({ maxShrinkRatio: 0.1 });
      await provider.ready();
      owner.serves(CODES.slice(1));
      await provider.refresh(SET);
      expect(served(provider)).to.deep.equal(CODES);
    });

    it('accepts a small list when no set is being served', async () => {
      const { provider, owner } = harness();
      owner.serves(['LATE', 'OTHER']);
      await provider.ready();
      expect(served(provider)).to.deep.equal(['LATE', 'OTHER']);
    });
  });

  it('aborts the signal of a load that timed out, and ignores its late answer', async () => {
    const { provider, owner, clock, events } = harness();
    const late = owner.defers();
    provider.get(SET);
    await clock.tick(2_000);
    expect(owner.signals[0]?.aborted).to.equal(true);
    expect((owner.signals[0]?.reason as Error).name).to.equal('TimeoutError');
    late.resolve([...CODES]);
    await clock.tick(0);
    expect(provider.get(SET)).to.deep.equal({ state: 'unavailable', reason: 'timeout' });
    expect(events.map((e) => e.type)).to.deep.equal(['fetch_failed']);
    provider.close();
  });

  it('turns a load that throws a non-Error into fetch_failed', async () => {
    const { provider, owner, events } = harness();
    owner.rejects('socket hang up');
    await provider.ready();
    expect(provider.get(SET)).to.deep.equal({ state: 'unavailable', reason: 'fetch_failed' });
    expect(events).to.deep.equal([
      {
        type: 'fetch_failed',
        set: SET,
        source,
        reason: 'fetch_failed',
        detail: 'load failed with a non-Error value: socket hang up',
        durationMs: 0,
        retryInMs: 750,
      },
    ]);
    provider.close();
  });
});
