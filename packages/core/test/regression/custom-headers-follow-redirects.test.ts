import { expect } from 'chai';
import { createValueSetProvider, httpValueSet } from '../../src/index.js';
import type { ValueSetEntry, ValueSetEvent } from '../../src/types.js';
import { ManualClock } from '@argcheck/testing/clock';
import { HttpOwner } from '@argcheck/testing/owners';
import { entriesOf } from '../helpers/loaded.js';
import { selfSignedCert } from '@argcheck/testing/certificates';
import { trustOnly } from '@argcheck/testing/certificates';
import { recordFigure } from '@argcheck/testing/figures';

/**
 * `httpValueSet(url, { headers })` followed every redirect with its headers:
 * an owner answering 302 to another origin handed the API key to that origin,
 * and an https owner answering 301 to http:// sent it in clear. The owners
 * here are real servers on loopback; two ports are two origins, and what each
 * one received is what the tests read.
 */
const headers = { 'x-api-key': 'KEY-SECRET', authorization: 'Bearer AUTH-SECRET' };
const configured = Object.keys(headers);

const load = (url: string): Promise<readonly ValueSetEntry[]> =>
  httpValueSet(url, { headers }).load({ signal: new AbortController().signal }).then(entriesOf);

/** The configured headers among those a request carried. */
function configuredHeadersIn(request: { headers: Record<string, unknown> } | undefined): object {
  if (request === undefined) throw new Error('the request never arrived');
  return Object.fromEntries(
    configured.flatMap((n) => (n in request.headers ? [[n, request.headers[n]]] : [])),
  );
}

describe('regression: custom headers follow redirects to other hosts and to plain http', () => {
  const owner = new HttpOwner();
  const elsewhere = new HttpOwner();
  before(async () => {
    await owner.start();
    await elsewhere.start();
  });
  after(async () => {
    await owner.close();
    await elsewhere.close();
  });

  it('does not send the configured headers to another origin a redirect points at', async () => {
    elsewhere.json('/mirror', ['LATE']);
    const url = owner.redirect('/moved', elsewhere.url('/mirror'));
    const entries = await load(url);

    expect(configuredHeadersIn(owner.requestsTo('/moved')[0])).to.deep.equal(headers);
    expect(configuredHeadersIn(elsewhere.requestsTo('/mirror')[0])).to.deep.equal({});
    expect(JSON.stringify(elsewhere.requests)).not.to.match(/SECRET/);
    // The owner chose where its set lives; it is read from there, without the owner's key.
    expect(entries).to.deep.equal([{ value: 'LATE' }]);
    const got = (r: { headers: Record<string, unknown> } | undefined) =>
      Object.keys(configuredHeadersIn(r)).length;
    recordFigure(
      'owner-redirects',
      `another origin got ${got(elsewhere.requestsTo('/mirror')[0])} of ${configured.length} configured headers (the owner ${got(owner.requestsTo('/moved')[0])} of ${configured.length}; the set was read there, ${entries.length} member)`,
    );
  });

  it('keeps sending them through a redirect within the origin', async () => {
    owner.json('/v2/codes', ['LATE']);
    const url = owner.redirect('/v1/codes', owner.url('/v2/codes'), 301);
    await load(url);
    expect(configuredHeadersIn(owner.requestsTo('/v2/codes')[0])).to.deep.equal(headers);
  });

  it('sends them to the configured origin only, even when a chain comes back to it', async () => {
    owner.json('/back', ['LATE']);
    elsewhere.redirect('/bounce', owner.url('/back'), 307);
    const url = owner.redirect('/out', elsewhere.url('/bounce'));
    await load(url);
    expect(configuredHeadersIn(elsewhere.requestsTo('/bounce')[0])).to.deep.equal({});
    expect(configuredHeadersIn(owner.requestsTo('/back')[0])).to.deep.equal(headers);
  });

  describe('from an https owner', () => {
    const tls = selfSignedCert();
    const secure = new HttpOwner(tls);
    let restore: (() => Promise<void>) | undefined;
    before(async () => {
      await secure.start();
      restore = trustOnly(tls.cert);
    });
    after(async () => {
      await restore?.();
      await secure.close();
    });

    it('refuses a redirect to plain http: nothing is sent there, and the fetch fails', async () => {
      elsewhere.json('/clear', ['LATE']);
      const url = secure.redirect('/codes', elsewhere.url('/clear'), 301);
      const events: ValueSetEvent[] = [];
      const provider = createValueSetProvider({
        sources: { codes: httpValueSet(url, { headers }) },
        clock: new ManualClock(),
        random: () => 0.5,
        onEvent: (event) => events.push(event),
      });
      await provider.ready();
      provider.close();

      expect(configuredHeadersIn(secure.requestsTo('/codes')[0])).to.deep.equal(headers);
      expect(elsewhere.requestsTo('/clear')).to.deep.equal([]);
      expect(events).to.deep.equal([
        {
          type: 'fetch_failed',
          set: 'codes',
          source: 'http',
          reason: 'fetch_failed',
          detail: `GET ${url} was redirected from https to plain http (${elsewhere.url('/clear')}); refused`,
          durationMs: 0,
          retryInMs: 750,
        },
      ]);
      const sent = Object.keys(configuredHeadersIn(secure.requestsTo('/codes')[0])).length;
      recordFigure(
        'owner-redirects',
        `https → http: the https owner got ${sent} of ${configured.length}, the http server ${elsewhere.requestsTo('/clear').length} requests, and the load ended \`${events[0]?.type === 'fetch_failed' ? events[0].reason : 'not failed'}\``,
      );
    });

    it('still reads a set over https from the same owner (the certificate is trusted)', async () => {
      secure.json('/plain-codes', ['LATE']);
      expect(await load(secure.url('/plain-codes'))).to.deep.equal([{ value: 'LATE' }]);
    });
  });
});
