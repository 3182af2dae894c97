/**
 * HTTP validators as a source `version` (`FetchContext.version`): the `ETag`
 * of the list the provider holds or, when the owner sent none, its
 * `Last-Modified`, tagged with which it is. The version goes back to the owner
 * as `If-None-Match` or `If-Modified-Since`; a `304 Not Modified` then means
 * the list held is still current.
 *
 * Only one condition is sent. RFC 9110 has a server ignore `If-Modified-Since`
 * when `If-None-Match` is present, but a server that does not would answer
 * 304 for a list with a new ETag and an old date; an ETag alone cannot be
 * fooled that way. Replicas behind a load balancer that disagree on the ETag
 * answer 200 with the whole list, which costs a download, never a wrong set.
 */
const ETAG = 'etag ';
const LAST_MODIFIED = 'last-modified ';

/** The version to hand back for `response`'s list, if the owner sent a validator. */
export function versionOf(response: Response): string | undefined {
  const etag = response.headers.get('etag');
  if (etag !== null && etag !== '') return ETAG + etag;
  const lastModified = response.headers.get('last-modified');
  if (lastModified !== null && lastModified !== '') return LAST_MODIFIED + lastModified;
  return undefined;
}

/** The request header that asks "changed since `version`?", if `version` is one of ours. */
export function conditionFor(version: string | undefined): [string, string] | undefined {
  if (version === undefined) return undefined;
  if (version.startsWith(ETAG)) return ['if-none-match', version.slice(ETAG.length)];
  if (version.startsWith(LAST_MODIFIED)) {
    return ['if-modified-since', version.slice(LAST_MODIFIED.length)];
  }
  return undefined;
}

/** `headers` with `condition` set, or `headers` itself when there is none. */
export function withCondition(headers: Headers, condition: [string, string] | undefined): Headers {
  if (condition === undefined) return headers;
  const result = new Headers(headers);
  result.set(...condition);
  return result;
}
