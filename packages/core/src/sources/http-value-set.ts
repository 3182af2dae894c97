import { ArgcheckConfigError, ErrorCode } from '../errors.js';
import { type CollectedValues, ValueCollector } from '../match/value-collector.js';
import type { FetchContext, HttpValueSetOptions, ValueSetEntry, ValueSetSource } from '../types.js';
import { JsonArrayReader } from './json-array-reader.js';
import { COLLECT } from './collect.js';
import { addElement, collectPayloadInTurns, parseValueSetPayloadInTurns } from './parse-payload.js';
import { ValueSetPayloadError } from './payload-error.js';
import { readCappedBody } from './read-capped-body.js';

const DEFAULT_MAX_BYTES = 16 * 1024 * 1024;

/**
 * A value set served over HTTP(S) as JSON by the service that owns it: an array
 * of strings, of `{ value, aliases? }` entries, or `{ values: [...] }`; use
 * `select` to pick the list out of any other shape. A non-2xx status counts as
 * `fetch_failed`; a body that is not JSON, has the wrong shape or is larger than
 * `maxBytes` (16 MiB by default) counts as `invalid_payload`.
 *
 * @throws ArgcheckConfigError `INVALID_SOURCE` for a URL that is not absolute
 *   http(s); `INVALID_OPTION` for bad `headers`, `select` or `maxBytes`.
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
  const requestHeaders = { accept: 'application/json', ...headers };
  // Query strings and credentials often carry tokens; messages name only origin and path.
  const shown = `${target.origin}${target.pathname}`;

  async function get(signal: AbortSignal): Promise<Response> {
    let response: Response;
    try {
      response = await fetch(target, { headers: requestHeaders, signal });
    } catch (error) {
      throw new Error(`GET ${shown} failed: ${describeFetchError(error)}`, { cause: error });
    }
    if (!response.ok) {
      await response.body?.cancel().catch(() => undefined);
      throw new Error(`GET ${shown} answered HTTP ${response.status} ${response.statusText}`);
    }
    return response;
  }

  /** The whole body as JSON, `select` applied. */
  async function payload(signal: AbortSignal): Promise<unknown> {
    const response = await get(signal);
    // An array is parsed piece by piece as it arrives (the reader gives the
    // event loop a turn every 256 KiB); any other body, or a malformed one,
    // by one JSON.parse of the whole text at the end.
    const pieces = new JsonArrayReader();
    const text = await readCappedBody(response, maxBytes, (piece) => pieces.push(piece));
    const body = pieces.result() ?? parseWhole(text, shown);
    return select === undefined ? body : applySelect(select, body);
  }

  async function load({ signal }: FetchContext): Promise<readonly ValueSetEntry[]> {
    return parseValueSetPayloadInTurns(await payload(signal), signal);
  }

  /**
   * What the provider reads: with no `select`, a body that is an array goes
   * into the collector group by group as it arrives, and its strings die
   * young; anything else is read whole, as `load` reads it.
   */
  async function collect({ signal }: FetchContext): Promise<CollectedValues> {
    if (select !== undefined) return collectPayloadInTurns(await payload(signal), signal);
    const response = await get(signal);
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
      return collectPayloadInTurns(parseWhole(text, shown), signal);
    }
    if (invalid !== undefined) throw invalid;
    return collector.finish();
  }

  return Object.freeze({ kind: 'http', load, [COLLECT]: collect });
}

function parseWhole(text: string, shown: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw new ValueSetPayloadError(
      'malformed',
      `GET ${shown} returned a body that is not JSON (${(error as Error).message})`,
    );
  }
}

function parseUrl(url: string | URL): URL {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new ArgcheckConfigError(
      ErrorCode.INVALID_SOURCE,
      `httpValueSet: ${JSON.stringify(String(url))} is not an absolute URL`,
    );
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    throw new ArgcheckConfigError(
      ErrorCode.INVALID_SOURCE,
      `httpValueSet: only http: and https: URLs are supported, got ${parsed.protocol}`,
    );
  }
  return parsed;
}

function applySelect(select: (body: unknown) => unknown, body: unknown): unknown {
  try {
    return select(body);
  } catch (error) {
    throw new ValueSetPayloadError('malformed', `select(body) threw: ${String(error)}`);
  }
}

// undici reports every network failure as "fetch failed"; the cause says which.
function describeFetchError(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const cause = error.cause instanceof Error ? `: ${error.cause.message}` : '';
  return `${error.message}${cause}`;
}

function invalidOption(message: string): ArgcheckConfigError {
  return new ArgcheckConfigError(ErrorCode.INVALID_OPTION, `httpValueSet: ${message}`);
}
