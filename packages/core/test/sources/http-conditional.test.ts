import { expect } from 'chai';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createValueSetProvider, httpValueSet } from '../../src/index.js';
import type { HttpValueSetOptions, ValueSetEvent } from '../../src/types.js';
import { ManualClock } from '@argcheck/testing/clock';
import { HttpOwner } from '@argcheck/testing/owners';
import { CODES, SET, served } from '../helpers/provider-harness.js';

const source = 'http' as const;
const TTL = 300_000;

/** An owner that validates like a web server: 304 when the condition matches. */
function validating(list: () => readonly string[], validators: () => Record<string, string>) {
  return (res: ServerResponse, req: IncomingMessage): void => {
    const v = validators();
    const inm = req.headers['if-none-match'];
    const ims = req.headers['if-modified-since'];
    const notModified =
      inm !== undefined
        ? v.etag !== undefined && inm === v.etag
        : ims !== undefined && v['last-modified'] !== undefined && ims === v['last-modified'];
    if (notModified) return void res.writeHead(304, v).end();
    res.writeHead(200, { 'content-type': 'application/json', ...v }).end(JSON.stringify(list()));
  };
}

/** The conditional headers of each request to `path`. */
function conditions(
  owner: HttpOwner,
  path: string,
): { 'if-none-match'?: string; 'if-modified-since'?: string }[] {
  return owner.requestsTo(path).map(({ headers }) => ({
    'if-none-match': headers['if-none-match'],
    'if-modified-since': headers['if-modified-since'],
  }));
}

describe('httpValueSet conditional requests (real HTTP server)', () => {
  const owner = new HttpOwner();
  before(() => owner.start());
  after(() => owner.close());

  function provider(url: string, options?: HttpValueSetOptions) {
    const clock = new ManualClock();
    const events: ValueSetEvent[] = [];
    const p = createValueSetProvider({
      sources: { [SET]: httpValueSet(url, options) },
      clock,
      random: () => 0,
      onEvent: (e) => events.push(e),
    });
    // Each refresh: the TTL on the fake clock, then the real request it started.
    const nextRefresh = async (): Promise<void> => {
      await clock.tick(TTL);
      await p.ready();
    };
    return { provider: p, clock, events, nextRefresh, t0: clock.now() };
  }

  it('asks again with If-None-Match; a 304 renews the set, fresh, with nothing downloaded', async () => {
    const url = owner.on(
      '/etag',
      validating(
        () => CODES,
        () => ({ etag: '"v1"' }),
      ),
    );
    const { provider: p, events, nextRefresh, t0 } = provider(url);
    await p.ready();
    const first = p.get(SET);
    await nextRefresh();

    expect(conditions(owner, '/etag')).to.deep.equal([
      { 'if-none-match': undefined, 'if-modified-since': undefined },
      { 'if-none-match': '"v1"', 'if-modified-since': undefined },
    ]);
    expect(p.get(SET)).to.equal(first);
    expect(p.status()).to.deep.equal([
      { name: SET, source, state: 'fresh', size: 6, ageSeconds: 0, fetchedAt: t0 + TTL },
    ]);
    expect(events.map((e) => e.type === 'fetch_succeeded' && e.unchanged)).to.deep.equal([
      undefined,
      true,
    ]);
    p.close();
  });

  it('downloads and publishes a changed list, and asks with its new ETag next', async () => {
    let version = 1;
    const list = (): string[] => (version === 1 ? [...CODES] : [...CODES, 'WRONG_SIZE']);
    const url = owner.on(
      '/changing',
      validating(list, () => ({ etag: `"v${version}"` })),
    );
    const { provider: p, nextRefresh } = provider(url);
    await p.ready();
    version = 2;
    await nextRefresh();
    expect(served(p)).to.include('WRONG_SIZE');
    await nextRefresh();
    expect(conditions(owner, '/changing').map((c) => c['if-none-match'])).to.deep.equal([
      undefined,
      '"v1"',
      '"v2"',
    ]);
    p.close();
  });

  it('uses If-Modified-Since when the owner sends Last-Modified alone', async () => {
    const date = 'Wed, 01 Jan 2025 00:00:00 GMT';
    const url = owner.on(
      '/dated',
      validating(
        () => CODES,
        () => ({ 'last-modified': date }),
      ),
    );
    const { provider: p, events, nextRefresh } = provider(url);
    await p.ready();
    await nextRefresh();
    expect(conditions(owner, '/dated')[1]).to.deep.equal({
      'if-none-match': undefined,
      'if-modified-since': date,
    });
    expect(events.at(-1)).to.deep.include({ type: 'fetch_succeeded', unchanged: true });
    p.close();
  });

  it('sends If-None-Match alone when the owner sent both validators', async () => {
    const v = { etag: 'W/"7"', 'last-modified': 'Wed, 01 Jan 2025 00:00:00 GMT' };
    const url = owner.on(
      '/both',
      validating(
        () => CODES,
        () => v,
      ),
    );
    const { provider: p, nextRefresh } = provider(url);
    await p.ready();
    await nextRefresh();
    expect(conditions(owner, '/both')[1]).to.deep.equal({
      'if-none-match': 'W/"7"',
      'if-modified-since': undefined,
    });
    p.close();
  });

  it('fails a 304 to a request that was not conditional: no set is held to renew', async () => {
    const url = owner.on('/always-304', (res) => res.writeHead(304, { etag: '"x"' }).end());
    const { provider: p, events } = provider(url);
    await p.ready();
    expect(p.get(SET)).to.deep.equal({ state: 'unavailable', reason: 'fetch_failed' });
    expect(events).to.deep.equal([
      {
        type: 'fetch_failed',
        set: SET,
        source,
        reason: 'fetch_failed',
        detail: `GET ${url} answered HTTP 304 Not Modified`,
        durationMs: 0,
        retryInMs: 500,
      },
    ]);
    p.close();
  });

  it('behind replicas that disagree on the ETag, downloads each time and serves each list', async () => {
    // A load balancer alternating between two replicas, each with its own ETag and list.
    let turn = 0;
    const replicas = [
      { etag: '"a"', list: [...CODES] },
      { etag: '"b"', list: [...CODES, 'WRONG_SIZE'] },
    ];
    const url = owner.on('/balanced', (res, req) => {
      const r = replicas[turn++ % 2]!;
      validating(
        () => r.list,
        () => ({ etag: r.etag }),
      )(res, req);
    });
    const { provider: p, events, nextRefresh } = provider(url);
    await p.ready();
    const sizes = [(p.get(SET) as { set: { size: number } }).set.size];
    for (let i = 0; i < 3; i++) {
      await nextRefresh();
      sizes.push((p.get(SET) as { set: { size: number } }).set.size);
    }
    expect(sizes).to.deep.equal([6, 7, 6, 7]);
    expect(events.filter((e) => e.type === 'fetch_succeeded' && e.unchanged)).to.deep.equal([]);
    p.close();
  });

  it('carries the condition through a redirect to another origin, without the configured headers', async () => {
    const cdn = await new HttpOwner().start();
    try {
      cdn.on(
        '/codes.json',
        validating(
          () => CODES,
          () => ({ etag: '"cdn-1"' }),
        ),
      );
      const url = owner.redirect('/to-cdn', cdn.url('/codes.json'));
      const {
        provider: p,
        events,
        nextRefresh,
      } = provider(url, {
        headers: { 'x-api-key': 'k' },
      });
      await p.ready();
      await nextRefresh();
      const [, second] = cdn.requestsTo('/codes.json');
      expect({
        'if-none-match': second?.headers['if-none-match'],
        'x-api-key': second?.headers['x-api-key'],
      }).to.deep.equal({ 'if-none-match': '"cdn-1"', 'x-api-key': undefined });
      expect(owner.requestsTo('/to-cdn')[1]?.headers['if-none-match']).to.equal('"cdn-1"');
      expect(events.at(-1)).to.deep.include({ type: 'fetch_succeeded', unchanged: true });
      p.close();
    } finally {
      await cdn.close();
    }
  });

  it('renews a set read through select on a 304 as well', async () => {
    const url = owner.on('/selected', (res, req) => {
      if (req.headers['if-none-match'] === '"s1"') return void res.writeHead(304).end();
      res.writeHead(200, { etag: '"s1"' }).end(JSON.stringify({ data: CODES }));
    });
    const {
      provider: p,
      events,
      nextRefresh,
    } = provider(url, {
      select: (body) => (body as { data: unknown }).data,
    });
    await p.ready();
    await nextRefresh();
    expect(events.at(-1)).to.deep.include({ type: 'fetch_succeeded', unchanged: true });
    expect(served(p)).to.deep.equal(CODES);
    p.close();
  });

  it("load() answers { values, version } with the owner's validator, and { unchanged: true } to it", async () => {
    const url = owner.on(
      '/direct',
      validating(
        () => ['LATE'],
        () => ({ etag: '"d"' }),
      ),
    );
    const source = httpValueSet(url);
    const signal = new AbortController().signal;
    expect(await source.load({ signal })).to.deep.equal({
      values: [{ value: 'LATE' }],
      version: 'etag "d"',
    });
    expect(await source.load({ signal, version: 'etag "d"' })).to.deep.equal({ unchanged: true });
  });
});
