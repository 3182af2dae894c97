// Owner credentials (issue 11, items 2 and 3): where the headers configured for
// an owner go when it redirects, and whether any text a user can read after a
// failed fetch carries a secret. The real provider and httpValueSet against
// real servers on loopback (HTTPS with a throwaway certificate).
import type { ServerResponse } from 'node:http';
import { inspect } from 'node:util';
import {
  ArgcheckConfigError,
  createValueSetProvider,
  httpValueSet,
  type HttpValueSetOptions,
  type ValueSetEvent,
  type ValueSetSource,
} from '@argcheck/core';
import { ManualClock } from '@argcheck/testing/clock';
import { HttpOwner } from '@argcheck/testing/owners';
import { selfSignedCert, trustOnly } from '@argcheck/testing/certificates';
import { test, type FaultRow } from './table.js';

const REGRESSION = 'packages/core/test/regression';
const REDIRECTS = `${REGRESSION}/custom-headers-follow-redirects.test.ts`;
const ERRORS = `${REGRESSION}/errors-carry-credentials.test.ts`;

// Every secret has SECRET in it: any text that does is a leak.
const HEADERS = { 'x-api-key': 'KEY-SECRET', authorization: 'Bearer AUTH-SECRET' };
const QUERY = '?token=QUERY-SECRET';
const leaks = (texts: readonly string[]): string[] =>
  texts.flatMap((t) => t.match(/[\w-]*SECRET[\w-]*/g) ?? []);

/** How many of the configured headers a server received, over all its requests to `path`. */
const headersAt = (server: HttpOwner, path: string): number =>
  server.requests
    .filter((r) => r.path === path)
    .reduce((n, r) => n + Object.keys(HEADERS).filter((h) => h in r.headers).length, 0);

/** A provider over one http source, loaded once; its events. */
async function loadOnce(source: ValueSetSource) {
  const events: ValueSetEvent[] = [];
  const provider = createValueSetProvider({
    sources: { codes: source },
    clock: new ManualClock(),
    random: () => 0.5,
    onEvent: (e) => events.push(e),
  });
  await provider.ready();
  const [status] = provider.status();
  provider.close();
  return { events, status };
}

interface ErrorPath {
  title: string;
  url(owner: HttpOwner): Promise<string> | string;
  options?: HttpValueSetOptions;
  /** The owner never answers: the load ends by timeout. */
  hangs?: boolean;
}

const serve =
  (status: number, body: string, reason?: string) =>
  (res: ServerResponse): void => {
    const type = { 'content-type': 'application/json' };
    (reason === undefined ? res.writeHead(status, type) : res.writeHead(status, reason, type)).end(
      body,
    );
  };

/** Every way an error text is made, with a secret in each place one can be. */
const ERROR_PATHS: ErrorPath[] = [
  {
    title: 'connection refused',
    async url() {
      const gone = await new HttpOwner().start();
      await gone.close();
      return gone.url(`/codes${QUERY}`);
    },
  },
  {
    title: 'a host DNS does not know',
    url: () => `http://argcheck-no-such-host.invalid/codes${QUERY}`,
  },
  {
    title: 'credentials in the URL',
    url: (o) => o.origin.replace('//', '//USER-SECRET:PASSWORD-SECRET@') + `/codes${QUERY}`,
  },
  {
    title: 'a header value fetch refuses',
    url: (o) => o.url(`/codes${QUERY}`),
    options: { headers: { 'x-api-key': 'KEY-SECRET\nx-injected: 1' } },
  },
  {
    title: 'a non-2xx answer with a body and a reason phrase',
    url: (o) => o.on(`/denied${QUERY}`, serve(403, '{"error":"BODY-SECRET"}', 'REASON-SECRET')),
  },
  { title: 'a timeout', url: (o) => o.on(`/slow${QUERY}`, () => undefined), hangs: true },
  {
    title: 'a body that is not JSON, the secret next to the mistake',
    url: (o) => o.on(`/broken${QUERY}`, serve(200, '["LATE", "BODY-SECRET", oops]')),
  },
  {
    title: 'a body that is not JSON, the secret at its start',
    url: (o) => o.on(`/html${QUERY}`, serve(200, 'BODY-SECRET <html>')),
  },
  {
    title: 'an element that is not a string or an entry',
    url: (o) => o.on(`/element${QUERY}`, serve(200, '["LATE", {"BODY-SECRET": 1}]')),
  },
  {
    title: 'a body of the wrong shape',
    url: (o) => o.on(`/shape${QUERY}`, serve(200, '{"BODY-SECRET": ["LATE"]}')),
  },
  {
    title: 'a body over maxBytes',
    url: (o) => o.on(`/large${QUERY}`, serve(200, JSON.stringify(['BODY-SECRET'.repeat(20)]))),
    options: { maxBytes: 64 },
  },
];

/** Every text a user can read after `path` ran: thrown errors as inspected, events, status. */
async function textsAfter(
  path: ErrorPath,
  owner: HttpOwner,
): Promise<{ texts: string[]; refused: boolean }> {
  const url = await path.url(owner);
  let source: ValueSetSource;
  try {
    source = httpValueSet(url, { headers: HEADERS, ...path.options });
  } catch (error) {
    return { texts: [inspect(error)], refused: error instanceof ArgcheckConfigError };
  }
  const texts: string[] = [];
  const direct = new AbortController();
  const loading = source.load({ signal: direct.signal });
  if (path.hangs) setImmediate(() => direct.abort(new Error('measurement timeout')));
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
    onEvent: (e) => events.push(e),
  });
  const refreshing = provider.refresh('codes');
  if (path.hangs) await clock.tick(1_000);
  await refreshing;
  texts.push(JSON.stringify(events), JSON.stringify(provider.status()));
  provider.close();
  return { texts, refused: false };
}

export const ownerCredentials: FaultRow[] = [
  {
    area: 'Owner credentials',
    fault:
      'The owner redirects: the headers configured for it (an API key) followed the redirect to another origin, and from https to plain http',
    expected:
      'The headers go to the configured origin only; a redirect elsewhere is followed without them. A redirect from https to plain http is refused (`fetch_failed`) and nothing is sent there.',
    provedBy: [
      test(
        REDIRECTS,
        'does not send the configured headers to another origin a redirect points at',
      ),
      test(
        REDIRECTS,
        'refuses a redirect to plain http: nothing is sent there, and the fetch fails',
      ),
    ],
    async measure() {
      const owner = await new HttpOwner().start();
      const elsewhere = await new HttpOwner().start();
      const tls = selfSignedCert();
      const secure = await new HttpOwner(tls).start();
      let restore = (): Promise<void> => Promise.resolve();
      try {
        elsewhere.json('/mirror', ['LATE']);
        const moved = owner.redirect('/moved', elsewhere.url('/mirror'));
        const across = await loadOnce(httpValueSet(moved, { headers: HEADERS }));
        // After a first fetch: Node installs fetch's dispatcher when fetch is first used.
        restore = trustOnly(tls.cert);
        elsewhere.json('/clear', ['LATE']);
        const down = secure.redirect('/codes', elsewhere.url('/clear'), 301);
        const plain = await loadOnce(httpValueSet(down, { headers: HEADERS }));
        const failed = plain.events.find((e) => e.type === 'fetch_failed');
        const n = Object.keys(HEADERS).length;
        const clear = elsewhere.requests.filter((r) => r.path === '/clear').length;
        return {
          figure:
            `another origin got ${headersAt(elsewhere, '/mirror')} of ${n} configured headers (the owner ${headersAt(owner, '/moved')} of ${n}; ` +
            `the set was read there, ${across.status?.size} member); https → http: the https owner got ${headersAt(secure, '/codes')} of ${n}, ` +
            `the http server ${clear} requests, and the load ended \`${failed?.type === 'fetch_failed' ? failed.reason : 'not failed'}\``,
          data: { across: across.status, plain: plain.events, clear },
        };
      } finally {
        await restore();
        await Promise.all([owner.close(), elsewhere.close(), secure.close()]);
      }
    },
  },
  {
    area: 'Owner credentials',
    fault:
      'Error texts carried credentials: the URL’s user, password and query token, a header’s value, or a piece of the body, in `status().lastError`, `fetch_failed` details and thrown errors',
    expected:
      'Error texts name the origin and path only, and describe a bad body without quoting it; a URL with credentials or a header value fetch would refuse is refused when the source is made (`ArgcheckConfigError`).',
    provedBy: [
      test(ERRORS, 'names no secret after a non-2xx answer with a body and a reason phrase'),
      test(ERRORS, 'names no secret after a body that is not JSON, the secret next to the mistake'),
      test(ERRORS, 'names no secret after credentials in the URL'),
      test(ERRORS, 'names no secret after a timeout'),
    ],
    async measure() {
      const owner = await new HttpOwner().start();
      let texts = 0;
      let refused = 0;
      const leaked: string[] = [];
      try {
        for (const path of ERROR_PATHS) {
          const after = await textsAfter(path, owner);
          texts += after.texts.length;
          if (after.refused) refused += 1;
          leaked.push(...leaks(after.texts));
        }
      } finally {
        await owner.close();
      }
      return {
        figure: `${leaked.length} secret fragments in ${texts} texts (thrown errors as inspected, events, \`status()\`) after ${ERROR_PATHS.length} kinds of failure; ${refused} refused when the source was made`,
        data: { paths: ERROR_PATHS.map((p) => p.title), texts, refused, leaked },
      };
    },
  },
];
