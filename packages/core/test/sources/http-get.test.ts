import { expect } from 'chai';
import type { ServerResponse } from 'node:http';
import { httpGet, MAX_REDIRECTS } from '../../src/sources/http-get.js';
import { HttpOwner } from '@argcheck/testing/owners';

/** Redirect rules beyond the regression cases (test/regression/custom-headers-follow-redirects). */
describe('httpGet (real HTTP servers)', () => {
  const owner = new HttpOwner();
  before(() => owner.start());
  after(() => owner.close());

  const get = (url: string): Promise<Response> =>
    httpGet({
      target: new URL(url),
      headers: new Headers({ accept: 'application/json', 'x-api-key': 'k' }),
      anonymousHeaders: new Headers({ accept: 'application/json' }),
      signal: new AbortController().signal,
    });

  async function failure(url: string): Promise<string> {
    try {
      await get(url);
    } catch (error) {
      return (error as Error).message;
    }
    throw new Error('expected the GET to fail');
  }

  it('answers with the first response that is not a redirect, whatever its status', async () => {
    owner.json('/gone', { error: 'gone' }, 410);
    const response = await get(owner.redirect('/to-gone', owner.url('/gone'), 308));
    expect(response.status).to.equal(410);
    await response.body?.cancel();
  });

  it(`follows ${MAX_REDIRECTS} redirects and refuses the next`, async () => {
    for (let i = 0; i <= MAX_REDIRECTS; i++) owner.redirect(`/hop-${i}`, `/hop-${i + 1}`);
    owner.json(`/hop-${MAX_REDIRECTS}`, ['LATE']);
    expect((await get(owner.url('/hop-0'))).status).to.equal(200);
    owner.redirect(`/hop-${MAX_REDIRECTS}`, '/hop-0');
    expect(await failure(owner.url('/hop-0'))).to.equal(
      `GET ${owner.url('/hop-0')} was redirected more than ${MAX_REDIRECTS} times`,
    );
  });

  const refusals: [string, (res: ServerResponse) => void, string][] = [
    [
      'without a Location',
      (res) => res.writeHead(302).end(),
      'answered HTTP 302 Found without a Location',
    ],
    [
      'to a Location that is not a URL',
      (res) => res.writeHead(302, { location: 'http://[bad' }).end(),
      'answered HTTP 302 Found with a Location that is not a URL',
    ],
    [
      'to another scheme',
      (res) => res.writeHead(301, { location: 'ftp://127.0.0.1/codes' }).end(),
      'answered HTTP 301 Moved Permanently to a ftp: URL; only http(s) is followed',
    ],
    [
      'to a URL with a user name and password',
      (res) => res.writeHead(307, { location: '/codes'.replace('/', '//u:pw@127.0.0.1/') }).end(),
      'answered HTTP 307 Temporary Redirect to a URL with a user name or password; refused',
    ],
  ];
  for (const [title, handler, says] of refusals) {
    it(`refuses a redirect ${title}, naming origin and path only`, async () => {
      const path = `/refused-${title.replace(/\W+/g, '-')}`;
      owner.on(`${path}?token=q`, handler);
      expect(await failure(owner.url(`${path}?token=q`))).to.equal(
        `GET ${owner.url(path)} ${says}`,
      );
    });
  }

  it('names the configured URL and the hop when a redirected request fails', async () => {
    const gone = await new HttpOwner().start();
    const hop = gone.url('/codes');
    await gone.close();
    expect(await failure(owner.redirect('/to-closed', `${hop}?token=q`))).to.equal(
      `GET ${owner.url('/to-closed')} (redirected to ${hop}) failed: connection refused (ECONNREFUSED)`,
    );
  });
});
