import { ArgcheckConfigError, ErrorCode } from '../errors.js';
import { type CollectedValues, ValueCollector } from '../match/value-collector.js';
import type {
  FetchContext,
  HttpValueSetOptions,
  LoadedValueSet,
  ValueSetEntry,
  ValueSetSource,
} from '../types.js';
import { JsonArrayReader } from './json-array-reader.js';
import { COLLECT, type Collected, UNCHANGED } from './collect.js';
import { httpGet, shownUrl, statusLine } from './http-get.js';
import { conditionFor, versionOf, withCondition } from './http-validators.js';
import { addElement, collectPayloadInTurns, parseValueSetPayloadInTurns } from './parse-payload.js';
import { ValueSetPayloadError } from './payload-error.js';
import { readCappedBody } from './read-capped-body.js';
import { withIdentity } from './source-identity.js';

const DEFAULT_MAX_BYTES = 16 * 1024 * 1024;

/**
 * A value set served over HTTP(S) as JSON by the service that owns it: an array
 * of strings, of `{ value, aliases? }` entries, or `{ values: [...] }`; use
 * `select` to pick the list out of any other shape. A non-2xx status counts as
 * `fetch_failed`; a body that is not JSON, has the wrong shape or is larger than
 * `maxBytes` (16 MiB by default) counts as `invalid_payload`.
 *
 * A list served with an `ETag` (or else a `Last-Modified`) is asked for again
 * conditionally: a `304 Not Modified` renews the set held without a download
 * or a recompile (`FetchContext.version`, `http-validators.ts`).
 *
 * Redirects are followed (up to 20), but `headers` go only to the origin of
 * `url`: a hop to another origin is made without them, and a hop from https
 * to plain http is refused (`fetch_failed`). Error texts name origins and
 * paths only: never a query string, header value or the body.
 *
 * @throws ArgcheckConfigError `INVALID_SOURCE` for a URL that is not absolute
 *   http(s) or that has a user name or password in it; `INVALID_OPTION` for
 *   bad `headers` (a name or value fetch cannot send), `select` or `maxBytes`.
 */
export function httpValueSet(url: string | URL, options: HttpValueSetOptions = {}): ValueSetSource {
  const target = parseUrl(url);
  const { headers = {}, select, maxBytes = DEFAULT_MAX_BYTES } = options;
  if (typeof headers !== 'object' || headers === null) {
    throw invalidOption('headers must be an object of header names to values');
  }
  if (select !== undefined && typeof select !== 'function') {
    throw invalidOption('select must be a function (body) => payload');
  }
  if (!Number.isSafeInteger(maxBytes) || maxBytes < 1) {
    throw invalidOption(`maxBytes must be a positive integer number of bytes, got ${maxBytes}`);
  }
  const anonymousHeaders = new Headers({ accept: 'application/json' });
  const requestHeaders = configuredHeaders(anonymousHeaders, headers);
  const shown = shownUrl(target);

  /**
   * The owner's answer to a GET, conditional when `version` is one of ours;
   * `undefined` for a 304 to a conditional GET (the list held is current).
   */
  async function get(signal: AbortSignal, version?: string): Promise<Response | undefined> {
    const condition = conditionFor(version);
    const response = await httpGet({
      target,
      headers: withCondition(requestHeaders, condition),
      anonymousHeaders: withCondition(anonymousHeaders, condition),
      signal,
    });
    if (!response.ok) {
      await response.body?.cancel().catch(() => undefined);
      if (response.status === 304 && condition !== undefined) return undefined;
      throw new Error(`GET ${shown} answered ${statusLine(response.status)}`);
    }
    return response;
  }

  /** The whole body as JSON, `select` applied, or `undefined` when unchanged. */
  async function payload(
    signal: AbortSignal,
    version?: string,
  ): Promise<{ body: unknown; version: string | undefined } | undefined> {
    const response = await get(signal, version);
    if (response === undefined) return undefined;
    // An array is parsed piece by piece as it arrives (the reader gives the
    // event loop a turn every 256 KiB); any other body, or a malformed one,
    // by one JSON.parse of the whole text at the end.
    const pieces = new JsonArrayReader();
    const text = await readCappedBody(response, maxBytes, (piece) => pieces.push(piece));
    const body = pieces.result() ?? parseWhole(text, shown, response);
    return {
      body: select === undefined ? body : applySelect(select, body),
      version: versionOf(response),
    };
  }

  async function load({
    signal,
    version,
  }: FetchContext): Promise<readonly ValueSetEntry[] | LoadedValueSet> {
    const loaded = await payload(signal, version);
    if (loaded === undefined) return { unchanged: true };
    const values = await parseValueSetPayloadInTurns(loaded.body, signal);
    return loaded.version === undefined ? values : { values, version: loaded.version };
  }

  /**
   * What the provider reads: with no `select`, a body that is an array goes
   * into the collector group by group as it arrives, and its strings die
   * young; anything else is read whole, as `load` reads it.
   */
  async function collect({ signal, version }: FetchContext): Promise<Collected> {
    if (select !== undefined) {
      const loaded = await payload(signal, version);
      if (loaded === undefined) return UNCHANGED;
      const collected = await collectPayloadInTurns(loaded.body, signal);
      return { unchanged: false, collected, version: loaded.version };
    }
    const response = await get(signal, version);
    if (response === undefined) return UNCHANGED;
    return {
      unchanged: false,
      collected: await collectBody(response, signal),
      version: versionOf(response),
    };
  }

  async function collectBody(response: Response, signal: AbortSignal): Promise<CollectedValues> {
    // Sized from the declared length, so that a large list is not copied as
    // it grows: a JSON string takes at least a byte per code unit it holds.
    const declared = Math.min(maxBytes, Number(response.headers.get('content-length')) || 0);
    const collector = new ValueCollector(Math.ceil(declared / 16), declared);
    let invalid: Error | undefined;
    const pieces = new JsonArrayReader((elements) => {
      if (invalid !== undefined) return;
      try {
        for (const element of elements) addElement(collector, element, collector.count);
      } catch (error) {
        // addElement throws only ValueSetPayloadError.
        invalid = error as Error;
      }
    });
    const text = await readCappedBody(response, maxBytes, (piece) => pieces.push(piece));
    if (pieces.result() === undefined) {
      // Not an array read piece by piece (an object, or malformed): what was
      // collected is void; the whole text decides.
      return collectPayloadInTurns(parseWhole(text, shown, response), signal);
    }
    if (invalid !== undefined) throw invalid;
    return collector.finish();
  }

  const identity = [target.href, maxBytes, select, ...[...requestHeaders].flat()];
  return Object.freeze(withIdentity({ kind: 'http' as const, load, [COLLECT]: collect }, identity));
}

function parseWhole(text: string, shown: string, response: Response): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    // V8's message may quote the body around the mistake; only its position is kept.
    const at = /at position (\d+)/.exec((error as Error).message)?.[1];
    const type = /^[\w.+-]{1,64}\/[\w.+-]{1,64}/.exec(
      response.headers.get('content-type') ?? '',
    )?.[0];
    const facts = [
      at === undefined ? undefined : `error at position ${at}`,
      type === undefined ? undefined : `content-type ${type}`,
      `${text.length} characters`,
    ].filter((fact) => fact !== undefined);
    throw new ValueSetPayloadError(
      'malformed',
      `GET ${shown} returned a body that is not JSON (${facts.join(', ')})`,
    );
  }
}

function parseUrl(url: string | URL): URL {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    // Not quoted: a URL may carry a token, and one that does not parse cannot be trimmed to its origin.
    throw new ArgcheckConfigError(
      ErrorCode.INVALID_SOURCE,
      'httpValueSet: the URL is not absolute (it needs http:// or https:// and a host)',
    );
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    throw new ArgcheckConfigError(
      ErrorCode.INVALID_SOURCE,
      `httpValueSet: only http: and https: URLs are supported, got ${parsed.protocol}`,
    );
  }
  if (parsed.username !== '' || parsed.password !== '') {
    // fetch refuses such a URL at every request, quoting it whole in its message.
    throw new ArgcheckConfigError(
      ErrorCode.INVALID_SOURCE,
      `httpValueSet: ${shownUrl(parsed)} has a user name or password in it; pass credentials in headers instead, e.g. { headers: { authorization: 'Basic ...' } }`,
    );
  }
  return parsed;
}

/**
 * The headers sent to the configured origin: `base`, then `headers` over it
 * (so `Accept` may be replaced, not doubled). Checked now, so that a bad one
 * fails at construction, and named in the error without its value.
 */
function configuredHeaders(base: Headers, headers: Readonly<Record<string, string>>): Headers {
  const result = new Headers(base);
  for (const [name, value] of Object.entries(headers)) {
    if (!/^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/.test(name)) {
      throw invalidOption('headers has a name that is not a valid HTTP header name');
    }
    try {
      result.set(name, value);
    } catch {
      throw invalidOption(
        `headers[${JSON.stringify(name)}] has a value fetch cannot send (a line break or NUL in it?)`,
      );
    }
  }
  return result;
}

function applySelect(select: (body: unknown) => unknown, body: unknown): unknown {
  try {
    return select(body);
  } catch (error) {
    // Its name only: the message of an error thrown over the body may quote it.
    const name = error instanceof Error ? error.name : typeof error;
    throw new ValueSetPayloadError(
      'malformed',
      `select(body) threw ${/^[A-Za-z][A-Za-z0-9_]{0,63}$/.test(name) ? name : 'an error'} (its message is not kept: it may quote the payload)`,
    );
  }
}

function invalidOption(message: string): ArgcheckConfigError {
  return new ArgcheckConfigError(ErrorCode.INVALID_OPTION, `httpValueSet: ${message}`);
}
