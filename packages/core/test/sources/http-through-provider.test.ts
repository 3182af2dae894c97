import { expect } from 'chai';
import { createValueSetProvider, httpValueSet } from '../../src/index.js';
import type { ValueSetEvent, ValueSetProvider } from '../../src/types.js';
import { ManualClock } from '@argcheck/testing/clock';
import { HttpOwner } from '@argcheck/testing/owners';
import { CODES, SET, served } from '../helpers/provider-harness.js';
import { recordFigure } from '@argcheck/testing/figures';

const source = 'http' as const;

interface Case {
  title: string;
  /** Make the owner misbehave on `path`. */
  misbehave(owner: HttpOwner, path: string): void;
  rejection: 'malformed' | 'too_large';
  detail(url: string): string;
  /** The fault row of docs/reliability.md this case records the figure of. */
  row?: string;
}

const MAX_BYTES = 4_096;
const cases: Case[] = [
  {
    title: 'returns a body that is not JSON',
    misbehave: (owner, path) =>
      owner.on(path, (res) => res.writeHead(200).end('<html>maintenance</html>')),
    rejection: 'malformed',
    detail: (url) => `GET ${url} returned a body that is not JSON (24 characters)`,
    row: 'owner-not-json',
  },
  {
    title: 'returns a body over maxBytes',
    // Chunked, with no Content-Length, so the cap is enforced while streaming.
    misbehave: (owner, path) =>
      owner.on(path, (res) => {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.write(JSON.stringify([...CODES, 'X'.repeat(MAX_BYTES)]));
        res.end();
      }),
    rejection: 'too_large',
    detail: () =>
      `response body went past ${MAX_BYTES} bytes, over the maxBytes limit of ${MAX_BYTES}; raise maxBytes or trim the payload`,
  },
];

describe('provider over httpValueSet (real HTTP server)', () => {
  const owner = new HttpOwner();
  before(() => owner.start());
  after(() => owner.close());

  let counter = 0;
  /** `random` 0.5 gives a first retry after 750 ms; 0 a refresh at the TTL itself and a retry after 500 ms. */
  function setUp(random = 0.5): {
    path: string;
    url: string;
    clock: ManualClock;
    events: ValueSetEvent[];
    provider: ValueSetProvider;
  } {
    const path = `/codes-${++counter}`;
    const url = owner.json(path, [...CODES]);
    const clock = new ManualClock();
    const events: ValueSetEvent[] = [];
    const provider = createValueSetProvider({
      sources: { [SET]: httpValueSet(url, { maxBytes: MAX_BYTES }) },
      clock,
      random: () => random,
      onEvent: (e) => events.push(e),
    });
    return { path, url, clock, events, provider };
  }

  function failureEvents(c: Case, url: string, retryInMs = 750): ValueSetEvent[] {
    const detail = c.detail(url);
    return [
      { type: 'refresh_rejected', set: SET, source, reason: c.rejection, detail },
      {
        type: 'fetch_failed',
        set: SET,
        source,
        reason: 'invalid_payload',
        detail,
        durationMs: 0,
        retryInMs,
      },
    ];
  }

  it('serves what the owner publishes', async () => {
    const { provider, events } = setUp();
    await provider.ready();
    expect(served(provider)).to.deep.equal(CODES);
    expect(events).to.deep.equal([
      { type: 'fetch_succeeded', set: SET, source, size: 6, durationMs: 0 },
    ]);
    provider.close();
  });

  for (const c of cases) {
    describe(`when the owner ${c.title}`, () => {
      it('keeps serving the previous good set, stale', async () => {
        const { provider, clock, events, path, url } = setUp(0);
        await provider.ready();
        c.misbehave(owner, path);
        await clock.tick(300_000);
        const during = provider.get(SET);
        expect(during.state).to.equal('stale');
        // Joins the refresh the TTL started, or returns at once if real I/O already finished it.
        await provider.ready();

        expect(provider.get(SET)).to.equal(during);
        expect(served(provider)).to.deep.equal(CODES);
        expect(events.slice(1)).to.deep.equal(failureEvents(c, url, 500));
        const [status] = provider.status();
        if (c.row !== undefined) {
          recordFigure(
            c.row,
            `the refresh refused as \`${c.rejection}\`; ${status?.size} members still served (${status?.state}), the next try after 500 ms`,
          );
        }
        provider.close();
      });

      it('is unavailable with reason invalid_payload when there is no previous set', async () => {
        const { provider, events, path, url } = setUp();
        c.misbehave(owner, path);
        expect(provider.get(SET)).to.deep.equal({ state: 'unavailable', reason: 'cold' });
        await provider.ready();

        expect(provider.get(SET)).to.deep.equal({
          state: 'unavailable',
          reason: 'invalid_payload',
        });
        expect(events).to.deep.equal(failureEvents(c, url));
        expect(provider.status()).to.deep.equal([
          {
            name: SET,
            source,
            state: 'unavailable',
            reason: 'invalid_payload',
            size: 0,
            lastError: c.detail(url),
          },
        ]);
        provider.close();
      });
    });
  }

  it('fails a non-2xx answer as fetch_failed and keeps the previous set', async () => {
    const { provider, events, path, url } = setUp();
    await provider.ready();
    owner.json(path, { error: 'maintenance' }, 503);
    await provider.refresh(SET);
    expect(served(provider)).to.deep.equal(CODES);
    expect(events.slice(1)).to.deep.equal([
      {
        type: 'fetch_failed',
        set: SET,
        source,
        reason: 'fetch_failed',
        detail: `GET ${url} answered HTTP 503 Service Unavailable`,
        durationMs: 0,
        retryInMs: 750,
      },
    ]);
    const [status] = provider.status();
    recordFigure(
      'owner-503',
      `HTTP 503 → \`fetch_failed\`; ${status?.size} members still served, the next try after 750 ms`,
    );
    provider.close();
  });
});
