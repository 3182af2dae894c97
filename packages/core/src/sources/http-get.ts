import { STATUS_CODES } from 'node:http';

/** Statuses whose `Location` is followed (every one means "GET it there" for a GET). */
const REDIRECTS: ReadonlySet<number> = new Set([301, 302, 303, 307, 308]);

/** The limit `fetch` itself applies. */
export const MAX_REDIRECTS = 20;

export interface HttpGet {
  /** The URL configured: its origin alone receives `headers`. */
  target: URL;
  /** Sent to `target`'s origin only. */
  headers: Headers;
  /** Sent on every hop: they say what is asked for, not who asks. */
  anonymousHeaders: Headers;
  signal: AbortSignal;
}

/**
 * GET `target`, following redirects by hand so that what is sent where is
 * decided here, not by `fetch`'s defaults (which forward every header but
 * `authorization` and `cookie` to any origin, and follow https to http):
 *
 * - the configured headers go to the configured origin only (scheme, host and
 *   port); a hop to any other origin is followed without them, with
 *   `anonymousHeaders` alone;
 * - a redirect from https to plain http is refused, whatever the headers:
 *   the set would arrive unauthenticated and could be altered on the way;
 * - at most {@link MAX_REDIRECTS} hops.
 *
 * Resolves with the first answer that is not a redirect, whatever its status.
 * Every error's message names origins and paths only ({@link shownUrl}), never
 * a user name, password, query string, header value or what the owner sent.
 */
export async function httpGet(request: HttpGet): Promise<Response> {
  const { target, signal } = request;
  let url = target;
  for (let hops = 0; ; hops++) {
    const headers = url.origin === target.origin ? request.headers : request.anonymousHeaders;
    const asked =
      hops === 0
        ? `GET ${shownUrl(url)}`
        : `GET ${shownUrl(target)} (redirected to ${shownUrl(url)})`;
    let response: Response;
    try {
      response = await fetch(url, { headers, signal, redirect: 'manual' });
    } catch (error) {
      // No cause attached: undici's errors quote the URL and header values,
      // and a logger prints an error's cause with it.
      // eslint-disable-next-line preserve-caught-error
      throw new Error(`${asked} failed: ${describeFetchError(error)}`);
    }
    if (!REDIRECTS.has(response.status)) return response;
    await response.body?.cancel().catch(() => undefined);
    const next = redirectTarget(response, url, asked);
    if (hops === MAX_REDIRECTS) {
      throw new Error(`GET ${shownUrl(target)} was redirected more than ${MAX_REDIRECTS} times`);
    }
    url = next;
  }
}

function redirectTarget(response: Response, from: URL, asked: string): URL {
  const answered = `${asked} answered ${statusLine(response.status)}`;
  const location = response.headers.get('location');
  if (location === null) throw new Error(`${answered} without a Location`);
  let next: URL;
  try {
    next = new URL(location, from);
  } catch {
    throw new Error(`${answered} with a Location that is not a URL`);
  }
  if (next.protocol !== 'http:' && next.protocol !== 'https:') {
    throw new Error(`${answered} to a ${next.protocol} URL; only http(s) is followed`);
  }
  if (from.protocol === 'https:' && next.protocol === 'http:') {
    throw new Error(
      `${asked} was redirected from https to plain http (${shownUrl(next)}); refused`,
    );
  }
  if (next.username !== '' || next.password !== '') {
    throw new Error(`${answered} to a URL with a user name or password; refused`);
  }
  return next;
}

/** `origin` and `path` of a URL: what error texts may show of it. */
export function shownUrl(url: URL): string {
  return `${url.origin}${url.pathname}`;
}

/** `HTTP 503 Service Unavailable`: the standard phrase, never the owner's own text. */
export function statusLine(status: number): string {
  const phrase = STATUS_CODES[status];
  return phrase === undefined ? `HTTP ${status}` : `HTTP ${status} ${phrase}`;
}

const PHRASES: Readonly<Record<string, string>> = {
  ECONNREFUSED: 'connection refused',
  ECONNRESET: 'connection reset',
  ENOTFOUND: 'host not found',
  EAI_AGAIN: 'host name lookup failed for now',
  ETIMEDOUT: 'connection timed out',
  EHOSTUNREACH: 'host unreachable',
  ENETUNREACH: 'network unreachable',
  UND_ERR_CONNECT_TIMEOUT: 'connection timed out',
  UND_ERR_HEADERS_TIMEOUT: 'no response headers in time',
  UND_ERR_BODY_TIMEOUT: 'the body stopped arriving',
  UND_ERR_SOCKET: 'the connection closed',
};

/**
 * What went wrong, by error code only. undici reports every network failure
 * as "fetch failed" with the reason in `cause`, and its messages may quote the
 * URL (user and password included) or a header's value; Node's carry no code
 * for some. So a message is never shown: codes are (`ECONNREFUSED`,
 * `DEPTH_ZERO_SELF_SIGNED_CERT`), with a phrase for the common ones.
 */
function describeFetchError(error: unknown): string {
  let code: string | undefined;
  let name = 'not an Error';
  for (let e: unknown = error, depth = 0; e instanceof Error && depth < 5; e = e.cause, depth++) {
    const own = (e as { code?: unknown }).code;
    if (typeof own === 'string' && /^[A-Z][A-Z0-9_]{1,63}$/.test(own)) {
      code = own;
      break;
    }
    name = e.name;
  }
  if (code === undefined) {
    return `${name === 'AbortError' || name === 'TimeoutError' ? 'aborted' : 'fetch failed'} (${name})`;
  }
  const phrase =
    PHRASES[code] ??
    (/CERT|TLS|SSL|VERIFY|SIGNATURE/.test(code) ? 'TLS certificate not accepted' : 'network error');
  return `${phrase} (${code})`;
}
