import {
  createServer,
  type IncomingHttpHeaders,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from 'node:http';
import { createServer as createTlsServer } from 'node:https';
import type { AddressInfo } from 'node:net';

export type Handler = (res: ServerResponse, req: IncomingMessage) => void;

/**
 * A real HTTP server on 127.0.0.1 with an ephemeral port (HTTPS when given a
 * key and certificate). Tests register a handler per path; requests (path and
 * headers) are recorded.
 */
export class HttpOwner {
  readonly requests: { path: string; headers: IncomingHttpHeaders }[] = [];
  private readonly handlers = new Map<string, Handler>();
  private readonly server: Server;
  private readonly scheme: 'http' | 'https';
  private base = '';

  constructor(tls?: { key: string; cert: string }) {
    const listener = (req: IncomingMessage, res: ServerResponse): void => {
      const path = req.url ?? '/';
      this.requests.push({ path, headers: req.headers });
      const handler = this.handlers.get(path);
      if (handler) handler(res, req);
      else res.writeHead(404).end('no such path');
    };
    this.scheme = tls ? 'https' : 'http';
    this.server = tls ? createTlsServer(tls, listener) : createServer(listener);
  }

  async start(): Promise<this> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    const { port } = this.server.address() as AddressInfo;
    this.base = `${this.scheme}://127.0.0.1:${port}`;
    return this;
  }

  /** `scheme://127.0.0.1:port`, once started. */
  get origin(): string {
    return this.base;
  }

  url(path: string): string {
    return `${this.base}${path}`;
  }

  on(path: string, handler: Handler): string {
    this.handlers.set(path, handler);
    return this.url(path);
  }

  /** Answer `status` with a `Location` of `location`. */
  redirect(path: string, location: string, status = 302): string {
    return this.on(path, (res) => res.writeHead(status, { location }).end());
  }

  /** Requests that arrived for `path`, oldest first. */
  requestsTo(path: string): { path: string; headers: IncomingHttpHeaders }[] {
    return this.requests.filter((r) => r.path === path);
  }

  /** Serve `body` as JSON (or as given when a string) with `status`. */
  json(path: string, body: unknown, status = 200): string {
    const text = typeof body === 'string' ? body : JSON.stringify(body);
    return this.on(path, (res) =>
      res.writeHead(status, { 'content-type': 'application/json' }).end(text),
    );
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve, reject) =>
      this.server.close((error) => (error ? reject(error) : resolve())),
    );
  }
}

/** How an owner answers for one set right now. */
export type OwnerBehaviour = 'serve' | 'unavailable';

/**
 * The service that owns value sets, on an `HttpOwner`: `GET /sets/<name>`
 * answers `{ "values": [{ "value", "aliases" }] }`, or 503 while the set is
 * `unavailable`. Counts what it answered, per set and outcome
 * (`<set>/success`, `<set>/fetch_failed`): what the
 * `tool_argument_value_set_fetch` counters must add up to.
 */
export class ValueSetOwner {
  private readonly sets = new Map<
    string,
    { entries: readonly { value: string; aliases?: readonly string[] }[]; mode: OwnerBehaviour }
  >();
  /** `<set>/<outcome>` → count; outcome `success` (200) or `fetch_failed` (503). */
  readonly answered = new Map<string, number>();
  private readonly http = new HttpOwner();

  define(
    name: string,
    entries: readonly { value: string; aliases?: readonly string[] }[],
    mode: OwnerBehaviour = 'serve',
  ): void {
    this.sets.set(name, { entries, mode });
    this.http.on(`/sets/${encodeURIComponent(name)}`, (res, req) => {
      const set = this.sets.get(name);
      if (req.method !== 'GET' || set === undefined) {
        res.writeHead(404).end();
        return;
      }
      const outcome = set.mode === 'unavailable' ? 'fetch_failed' : 'success';
      const key = `${name}/${outcome}`;
      this.answered.set(key, (this.answered.get(key) ?? 0) + 1);
      if (set.mode === 'unavailable') {
        res.writeHead(503, { 'content-type': 'text/plain' }).end('owner is down');
        return;
      }
      res
        .writeHead(200, { 'content-type': 'application/json', 'cache-control': 'no-store' })
        .end(JSON.stringify({ values: set.entries }));
    });
  }

  behave(name: string, mode: OwnerBehaviour): void {
    const set = this.sets.get(name);
    if (!set) throw new Error(`the owner has no set ${name}`);
    set.mode = mode;
  }

  url(name: string): string {
    return this.http.url(`/sets/${encodeURIComponent(name)}`);
  }

  /** Answers of `<set>/<outcome>` so far, as an object. */
  answers(): Record<string, number> {
    return Object.fromEntries(this.answered);
  }

  async start(): Promise<this> {
    await this.http.start();
    return this;
  }

  stop(): Promise<void> {
    return this.http.close();
  }
}
