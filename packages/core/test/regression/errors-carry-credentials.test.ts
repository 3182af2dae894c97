import { expect } from 'chai';
import type { ServerResponse } from 'node:http';
import { inspect } from 'node:util';
import {
  ArgcheckConfigError,
  createValueSetProvider,
  ErrorCode,
  httpValueSet,
} from '../../src/index.js';
import type { HttpValueSetOptions, ValueSetEvent, ValueSetSource } from '../../src/types.js';
import { ManualClock } from '@argcheck/testing/clock';
import { HttpOwner } from '@argcheck/testing/owners';
import { recordFigure } from '@argcheck/testing/figures';

/**
 * `status().lastError`, `fetch_failed` details and thrown errors quoted
 * undici's and V8's messages, which carry the request URL with its user,
 * password and query token, a header's value, or a piece of the body. The
 * runbooks have operators paste `status()` into bug reports. Every way an
 * error text is made is driven here with a secret in each place one can be,
 * and the secrets must appear nowhere a user can read.
 */
// Every secret below has SECRET in it; any text that does is a leak.
const query = '?token=QUERY-SECRET';
const headers = { 'x-api-key': 'KEY-SECRET', authorization: 'Bearer AUTH-SECRET' };

interface Case {
  title: string;
  /** The URL to configure, with the owner (which may misbehave) set up. */
  url(owner: HttpOwner): Promise<string> | string;
  options?: HttpValueSetOptions;
  /** The owner never answers: the load ends by timeout. */
  hangs?: boolean;
  /** The source is refused at configuration with this code. */
  refused?: ErrorCode;
  /** What `status().lastError` still says, when the source was not refused. */
  says?: RegExp;
}

const serve =
  (status: number, body: string, reason?: string) =>
  (res: ServerResponse): void => {
    const type = { 'content-type': 'application/json' };
    (reason === undefined ? res.writeHead(status, type) : res.writeHead(status, reason, type)).end(
      body,
    );
  };

const at = (path: string): RegExp => new RegExp(`^GET http://127\\.0\\.0\\.1:\\d+/${path} `);

const cases: Case[] = [
  {
    title: 'connection refused',
    async url() {
      const gone = await new HttpOwner().start();
      await gone.close();
      return gone.url(`/codes${query}`);
    },
    says: /^GET http:\/\/127\.0\.0\.1:\d+\/codes failed: connection refused \(ECONNREFUSED\)$/,
  },
  {
    title: 'a host DNS does not know',
    url: () => `http://argcheck-no-such-host.invalid/codes${query}`,
    // A resolver that cannot be reached answers EAI_AGAIN instead.
    says: /^GET http:\/\/argcheck-no-such-host\.invalid\/codes failed: .* \((ENOTFOUND|EAI_AGAIN)\)$/,
  },
  {
    title: 'credentials in the URL',
    url: (owner) => owner.origin.replace('//', '//USER-SECRET:PASSWORD-SECRET@') + `/codes${query}`,
    refused: ErrorCode.INVALID_SOURCE,
  },
  {
    title: 'a header value fetch refuses',
    url: (owner) => owner.url(`/codes${query}`),
    options: { headers: { 'x-api-key': 'KEY-SECRET\nx-injected: 1' } },
    refused: ErrorCode.INVALID_OPTION,
  },
  {
    title: 'a non-2xx answer with a body and a reason phrase',
    url: (owner) =>
      owner.on(`/denied${query}`, serve(403, '{"error":"BODY-SECRET"}', 'REASON-SECRET')),
    says: /^GET http:\/\/127\.0\.0\.1:\d+\/denied answered HTTP 403 Forbidden$/,
  },
  {
    title: 'a timeout',
    url: (owner) => owner.on(`/slow${query}`, () => undefined),
    hangs: true,
    says: /^no answer within 1000 ms/,
  },
  {
    title: 'a body that is not JSON, the secret next to the mistake',
    url: (owner) => owner.on(`/broken${query}`, serve(200, '["LATE", "BODY-SECRET", oops]')),
    says: at('broken'),
  },
  {
    title: 'a body that is not JSON, the secret at its start',
    url: (owner) => owner.on(`/html${query}`, serve(200, 'BODY-SECRET <html>')),
    says: at('html'),
  },
  {
    title: 'an element that is not a string or an entry',
    url: (owner) => owner.on(`/element${query}`, serve(200, '["LATE", {"BODY-SECRET": 1}]')),
    says: /^element 1 is an object without a string "value"; /,
  },
  {
    title: 'a body of the wrong shape',
    url: (owner) => owner.on(`/shape${query}`, serve(200, '{"BODY-SECRET": ["LATE"]}')),
    says: /^got an object without "values"; /,
  },
  {
    title: 'a body over maxBytes',
    url: (owner) =>
      owner.on(`/large${query}`, serve(200, JSON.stringify(['BODY-SECRET'.repeat(20)]))),
    options: { maxBytes: 64 },
    says: /^response body (declares 224|went past 64) bytes, over the maxBytes limit of 64;/,
  },
];

/**
 * Every text a user can read after `c` has run: thrown errors (as a logger
 * prints them, causes included), events, status.
 */
async function textsAfter(
  c: Case,
  owner: HttpOwner,
): Promise<{ texts: string[]; refused?: unknown; lastError?: string }> {
  const url = await c.url(owner);
  const options = { headers, ...c.options };
  const texts: string[] = [];
  let source: ValueSetSource;
  try {
    source = httpValueSet(url, options);
  } catch (error) {
    return {
      texts: [inspect(error)],
      refused: error instanceof ArgcheckConfigError ? error.code : error,
    };
  }
  const direct = new AbortController();
  const loading = source.load({ signal: direct.signal });
  if (c.hangs) setImmediate(() => direct.abort(new Error('test timeout')));
  await loading.then(
    () => texts.push('load resolved'),
    (error: unknown) => texts.push(inspect(error)),
  );

  const clock = new ManualClock();
  const events: ValueSetEvent[] = [];
  const provider = createValueSetProvider({
    sources: { codes: source },
    clock,
    random: () => 0.5,
    fetchTimeoutMs: 1_000,
    onEvent: (event) => events.push(event),
  });
  const refreshing = provider.refresh('codes');
  if (c.hangs) await clock.tick(1_000);
  await refreshing;
  const [status] = provider.status();
  texts.push(JSON.stringify(events), JSON.stringify(status));
  provider.close();
  return { texts, lastError: status?.lastError };
}

// Any part of a secret: V8 quotes ten characters around a JSON mistake.
const leaks = (texts: readonly string[]): string[] =>
  texts.flatMap((t) => t.match(/[\w-]*SECRET[\w-]*/g) ?? []);

describe('regression: errors carry credentials', () => {
  const owner = new HttpOwner();
  before(() => owner.start());
  after(() => owner.close());

  for (const c of cases) {
    it(`names no secret after ${c.title}`, async () => {
      const { texts, refused, lastError } = await textsAfter(c, owner);
      expect(leaks(texts), texts.join('\n')).to.deep.equal([]);
      expect(refused).to.equal(c.refused);
      if (c.says !== undefined) expect(lastError).to.match(c.says);
    });
  }

  it('names no secret in any text after every kind of failure, one after another', async () => {
    let texts = 0;
    let refused = 0;
    const leaked: string[] = [];
    for (const c of cases) {
      const after = await textsAfter(c, owner);
      texts += after.texts.length;
      if (after.refused !== undefined) refused += 1;
      leaked.push(...leaks(after.texts));
    }
    expect(leaked).to.deep.equal([]);
    recordFigure(
      'error-texts-credentials',
      `${leaked.length} secret fragments in ${texts} texts (thrown errors as inspected, events, \`status()\`) after ${cases.length} kinds of failure; ${refused} refused when the source was made`,
    );
  });
});
