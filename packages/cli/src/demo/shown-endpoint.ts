/**
 * An OTLP endpoint as the demo prints it: origin and path only. A user name,
 * password, query string or fragment may carry credentials
 * (`http://user:secret@host/base?token=…`) and is never echoed, in text or
 * in `--json`.
 */
export function shownEndpoint(endpoint: string): string {
  let url: URL;
  try {
    url = new URL(endpoint);
  } catch {
    // Not quoted: what does not parse cannot be trimmed to its origin.
    return '(an endpoint that is not a URL)';
  }
  const path = url.pathname === '/' ? '' : url.pathname;
  return `${url.origin}${path}`;
}
