import { expect } from 'chai';
import type { ServerResponse } from 'node:http';
import { ArgcheckConfigError, ErrorCode, httpValueSet } from '../../src/index.js';
import { asPayloadError } from '../../src/sources/payload-error.js';
import type { HttpValueSetOptions, ValueSetEntry } from '../../src/types.js';
import { HttpOwner } from '@argcheck/testing/owners';
import { entriesOf } from '../helpers/loaded.js';
import { recordFigure } from '@argcheck/testing/figures';

const load = (url: string, options?: HttpValueSetOptions): Promise<readonly ValueSetEntry[]> =>
  httpValueSet(url, options).load({ signal: new AbortController().signal }).then(entriesOf);

async function failure(loading: Promise<unknown>): Promise<unknown> {
  try {
    await loading;
  } catch (error) {
    return error;
  }
  throw new Error('expected the load to fail');
}

/** Write 16 KiB chunks until the client goes away; resolves with the bytes written. */
function endlessBody(res: ServerResponse): Promise<{ written: number; ended: boolean }> {
  const chunk = Buffer.alloc(16 * 1024, 0x20);
  let written = 0;
  return new Promise((resolve) => {
    res.on('close', () => resolve({ written, ended: res.writableEnded }));
    res.writeHead(200, { 'content-type': 'application/json' });
    const pump = (): void => {
      if (res.destroyed) return;
      written += chunk.length;
      res.write(chunk, (error) => {
        if (!error) pump();
      });
    };
    pump();
  });
}

describe('httpValueSet (real HTTP server)', () => {
  const owner = new HttpOwner();
  before(() => owner.start());
  after(() => owner.close());

  it('reads a JSON array of strings', async () => {
    const url = owner.json('/array', ['LATE', 'OTHER']);
    expect(await load(url)).to.deep.equal([{ value: 'LATE' }, { value: 'OTHER' }]);
  });

  it('reads { values: [...] }', async () => {
    const url = owner.json('/wrapped', { values: ['LATE'], version: 12 });
    expect(await load(url)).to.deep.equal([{ value: 'LATE' }]);
  });

  it('reads entries with aliases', async () => {
    const url = owner.json('/entries', {
      values: [{ value: 'DUPLICATE_CHARGE', aliases: ['Charged twice'] }, { value: 'LATE' }],
    });
    expect(await load(url)).to.deep.equal([
      { value: 'DUPLICATE_CHARGE', aliases: ['Charged twice'] },
      { value: 'LATE' },
    ]);
  });

  it('sends the configured headers, and asks for JSON', async () => {
    const url = owner.json('/headers', ['LATE']);
    await load(url, { headers: { authorization: 'Bearer t0k3n', 'x-team': 'refunds' } });
    const { headers } = owner.requests.filter((r) => r.path === '/headers')[0]!;
    expect({
      accept: headers.accept,
      authorization: headers.authorization,
      'x-team': headers['x-team'],
    }).to.deep.equal({
      accept: 'application/json',
      authorization: 'Bearer t0k3n',
      'x-team': 'refunds',
    });
  });

  it('lets the configured headers replace the default Accept, not add to it', async () => {
    const url = owner.json('/accept', ['LATE']);
    await load(url, { headers: { Accept: 'application/vnd.refunds+json' } });
    expect(owner.requestsTo('/accept')[0]?.headers.accept).to.equal('application/vnd.refunds+json');
  });

  it('applies select(body) before parsing', async () => {
    const url = owner.json('/custom', { data: { reasons: [{ code: 'LATE' }, { code: 'OTHER' }] } });
    const select = (body: unknown): unknown =>
      (body as { data: { reasons: { code: string }[] } }).data.reasons.map((r) => r.code);
    expect(await load(url, { select })).to.deep.equal([{ value: 'LATE' }, { value: 'OTHER' }]);
  });

  it('refuses the payload as malformed when select throws, naming the error, never quoting its message', async () => {
    const url = owner.json('/custom-broken', { data: null });
    const error = await failure(
      load(url, {
        select: () => {
          throw new TypeError('no reasons in {"data":"SECRET_MEMBER"}');
        },
      }),
    );
    expect(asPayloadError(error)).to.deep.equal({
      rejection: 'malformed',
      detail: 'select(body) threw TypeError (its message is not kept: it may quote the payload)',
    });
  });

  it('fails a non-2xx answer as a fetch failure, not a payload problem', async () => {
    const url = owner.json('/unavailable?token=s3cr3t', { error: 'maintenance' }, 503);
    const error = await failure(load(url));
    expect(asPayloadError(error)).to.equal(undefined);
    expect((error as Error).message).to.equal(
      `GET ${owner.url('/unavailable')} answered HTTP 503 Service Unavailable`,
    );
  });

  it('refuses a body that is not JSON as malformed', async () => {
    const url = owner.on('/html', (res) =>
      res.writeHead(200, { 'content-type': 'text/html' }).end('<html>maintenance</html>'),
    );
    const error = await failure(load(url));
    expect(asPayloadError(error)).to.deep.equal({
      rejection: 'malformed',
      detail: `GET ${owner.url('/html')} returned a body that is not JSON (content-type text/html, 24 characters)`,
    });
  });

  it('refuses a body that is not UTF-8 as malformed', async () => {
    const url = owner.on('/latin1', (res) =>
      res.writeHead(200).end(Buffer.from([0x5b, 0xff, 0x5d])),
    );
    expect(asPayloadError(await failure(load(url)))).to.deep.equal({
      rejection: 'malformed',
      detail: 'response body is not valid UTF-8',
    });
  });

  it('stops reading a streamed body at maxBytes and drops the connection', async () => {
    let served: Promise<{ written: number; ended: boolean }> | undefined;
    const url = owner.on('/endless', (res) => {
      served = endlessBody(res);
    });
    const error = await failure(load(url, { maxBytes: 64 * 1024 }));
    expect(asPayloadError(error)).to.deep.equal({
      rejection: 'too_large',
      detail:
        'response body went past 65536 bytes, over the maxBytes limit of 65536; raise maxBytes or trim the payload',
    });
    const server = await served!;
    expect(server.ended).to.equal(false);
    expect(server.written).to.be.lessThan(64 * 1024 * 1024);
    recordFigure(
      'owner-endless-body',
      `refused as \`too_large\`; the owner had written ${Math.round(server.written / 1024).toLocaleString('en-US')} KiB when the connection dropped (maxBytes 64 KiB)`,
    );
  });

  it('refuses a body whose declared length is over maxBytes without reading it', async () => {
    const url = owner.on('/declared', (res) =>
      res.writeHead(200, { 'content-length': 2048 }).end(Buffer.alloc(2048, 0x20)),
    );
    expect(asPayloadError(await failure(load(url, { maxBytes: 1024 })))).to.deep.equal({
      rejection: 'too_large',
      detail:
        'response body declares 2048 bytes, over the maxBytes limit of 1024; raise maxBytes or trim the payload',
    });
  });

  it('accepts a body of exactly maxBytes', async () => {
    const body = JSON.stringify(['LATE']);
    const url = owner.json('/exact', body);
    expect(await load(url, { maxBytes: Buffer.byteLength(body) })).to.deep.equal([
      { value: 'LATE' },
    ]);
  });

  it('aborts the request when the signal fires', async () => {
    let closed!: Promise<void>;
    let arrived!: () => void;
    const requested = new Promise<void>((resolve) => (arrived = resolve));
    const url = owner.on('/slow', (res) => {
      closed = new Promise((resolve) => res.on('close', resolve));
      arrived();
    });
    const controller = new AbortController();
    const loading = httpValueSet(url).load({ signal: controller.signal });
    await requested;
    controller.abort();
    expect(asPayloadError(await failure(loading))).to.equal(undefined);
    await closed;
  });

  it('reads a large array streamed in small chunks, as JSON.parse would', async () => {
    const ids = Array.from({ length: 60_000 }, (_, i) => `CMP-Part-"${i}"-\u00E9,]`);
    const text = ` [\n${ids.map((id) => JSON.stringify(id)).join(',\n')}\n] \n`;
    const url = owner.on('/large', (res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      // 1,000-byte chunks cut across strings, escapes and multi-byte characters.
      const bytes = Buffer.from(text);
      for (let at = 0; at < bytes.length; at += 1_000) res.write(bytes.subarray(at, at + 1_000));
      res.end();
    });
    const entries = await load(url);
    expect(entries.map((e) => e.value)).to.deep.equal(JSON.parse(text));
  });

  it('refuses a large array that turns out not to be JSON, as JSON.parse does', async () => {
    const text = `[${Array.from({ length: 50_000 }, (_, i) => `"code-${i}"`).join(',')},]`;
    const url = owner.json('/large-broken', text);
    expect(() => void JSON.parse(text)).to.throw(SyntaxError);
    expect(asPayloadError(await failure(load(url)))).to.deep.equal({
      rejection: 'malformed',
      detail: `GET ${owner.url('/large-broken')} returned a body that is not JSON (content-type application/json, ${text.length} characters)`,
    });
  });

  it('says where a body stops being JSON when JSON.parse says, never what is there', async () => {
    const text = '["LATE" "OTHER"]';
    const url = owner.on('/no-comma', (res) => res.writeHead(200).end(text));
    expect(asPayloadError(await failure(load(url)))).to.deep.equal({
      rejection: 'malformed',
      detail: `GET ${owner.url('/no-comma')} returned a body that is not JSON (error at position 8, ${text.length} characters)`,
    });
  });

  it('says why a connection failed', async () => {
    const gone = await new HttpOwner().start();
    const url = gone.url('/codes');
    await gone.close();
    const error = (await failure(load(url))) as Error;
    expect(error.message).to.equal(`GET ${url} failed: connection refused (ECONNREFUSED)`);
  });
});

describe('httpValueSet configuration', () => {
  const invalidUrls: [string, unknown][] = [
    ['a relative URL', '/codes'],
    ['garbage', 'not a url'],
    ['a non-http scheme', 'file:///etc/passwd'],
    ['a number', 42],
    ['a URL with a user name and password', 'https://svc:pw@refunds.internal/codes'],
    ['a URL with a user name only', 'https://svc@refunds.internal/codes'],
  ];
  for (const [title, url] of invalidUrls) {
    it(`rejects ${title} with INVALID_SOURCE`, () => {
      expect(() => httpValueSet(url as string))
        .to.throw(ArgcheckConfigError)
        .with.property('code', ErrorCode.INVALID_SOURCE);
    });
  }

  const invalidOptions: [string, unknown][] = [
    ['a zero maxBytes', { maxBytes: 0 }],
    ['a fractional maxBytes', { maxBytes: 1.5 }],
    ['a string maxBytes', { maxBytes: '16MiB' }],
    ['a select that is not a function', { select: 'values' }],
    ['null headers', { headers: null }],
    ['a header name with a space', { headers: { 'x api key': 'k' } }],
    ['a header value with a line break', { headers: { 'x-api-key': 'k\nx-injected: 1' } }],
  ];
  for (const [title, options] of invalidOptions) {
    it(`rejects ${title} with INVALID_OPTION`, () => {
      expect(() => httpValueSet('https://refunds.internal/codes', options as HttpValueSetOptions))
        .to.throw(ArgcheckConfigError)
        .with.property('code', ErrorCode.INVALID_OPTION);
    });
  }

  it('is reported as kind http', () => {
    expect(httpValueSet(new URL('https://refunds.internal/codes')).kind).to.equal('http');
  });
});
