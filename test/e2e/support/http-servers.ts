/**
 * The loopback HTTP servers of the end-to-end test: the value sets' owner,
 * Alertmanager's webhook receiver, and an OTLP/HTTP log backend for the
 * collector's otlp_http exporter.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { ValueSetEntry } from '@argcheck/core';

async function listen(
  handler: (req: IncomingMessage, body: Buffer, res: ServerResponse) => void,
): Promise<{ server: Server; port: number }> {
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => handler(req, Buffer.concat(chunks), res));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return { server, port };
}

async function close(server: Server): Promise<void> {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
}

/** How the owner answers for one set right now. */
export type OwnerBehaviour = 'serve' | 'unavailable';

/**
 * The service that owns the value sets: `GET /sets/<name>` answers
 * `{ "values": [{ "value", "aliases" }] }`, or 503 while the set is
 * `unavailable`. Counts what it answered, per set and outcome, which is what
 * the `tool_argument_value_set_fetch_total` series must add up to.
 */
export class ValueSetOwner {
  private readonly sets = new Map<
    string,
    { entries: readonly ValueSetEntry[]; mode: OwnerBehaviour }
  >();
  /** `<set>/<outcome>` → count; outcome `success` (200) or `fetch_failed` (503). */
  readonly answered = new Map<string, number>();
  private server: Server | undefined;
  port = 0;

  define(name: string, entries: readonly ValueSetEntry[], mode: OwnerBehaviour = 'serve'): void {
    this.sets.set(name, { entries, mode });
  }

  behave(name: string, mode: OwnerBehaviour): void {
    const set = this.sets.get(name);
    if (!set) throw new Error(`the owner has no set ${name}`);
    set.mode = mode;
  }

  url(name: string): string {
    return `http://127.0.0.1:${this.port}/sets/${encodeURIComponent(name)}`;
  }

  async start(): Promise<void> {
    const { server, port } = await listen((req, _body, res) => {
      const match = /^\/sets\/([^/?]+)$/.exec(req.url ?? '');
      const name = match ? decodeURIComponent(match[1]!) : '';
      const set = this.sets.get(name);
      if (req.method !== 'GET' || !set) {
        res.writeHead(404).end();
        return;
      }
      const count = (outcome: string): void => {
        const key = `${name}/${outcome}`;
        this.answered.set(key, (this.answered.get(key) ?? 0) + 1);
      };
      if (set.mode === 'unavailable') {
        count('fetch_failed');
        res.writeHead(503, { 'content-type': 'text/plain' }).end('owner is down');
        return;
      }
      count('success');
      res
        .writeHead(200, { 'content-type': 'application/json' })
        .end(JSON.stringify({ values: set.entries }));
    });
    this.server = server;
    this.port = port;
  }

  async stop(): Promise<void> {
    if (this.server) await close(this.server);
  }
}

/** One notification Alertmanager posted (webhook payload version 4). */
export interface WebhookNotification {
  receiver: string;
  status: 'firing' | 'resolved';
  groupLabels: Record<string, string>;
  commonLabels: Record<string, string>;
  alerts: {
    status: 'firing' | 'resolved';
    labels: Record<string, string>;
    annotations: Record<string, string>;
    startsAt: string;
  }[];
}

/** Alertmanager's webhook receiver: keeps every notification posted to `path`. */
export class WebhookReceiver {
  readonly notifications: WebhookNotification[] = [];
  readonly rejected: string[] = [];
  private server: Server | undefined;
  port = 0;

  constructor(readonly path = '/argcheck-alerts') {}

  get url(): string {
    return `http://127.0.0.1:${this.port}${this.path}`;
  }

  async start(): Promise<void> {
    const { server, port } = await listen((req, body, res) => {
      if (req.method !== 'POST' || req.url !== this.path) {
        this.rejected.push(`${req.method} ${req.url}`);
        res.writeHead(404).end();
        return;
      }
      try {
        this.notifications.push(JSON.parse(body.toString('utf8')) as WebhookNotification);
        res.writeHead(200).end();
      } catch (error) {
        this.rejected.push(`unparsable body: ${String(error)}`);
        res.writeHead(400).end();
      }
    });
    this.server = server;
    this.port = port;
  }

  async stop(): Promise<void> {
    if (this.server) await close(this.server);
  }
}

/**
 * An OTLP/HTTP log backend for the collector's otlp_http exporter: accepts
 * `POST /v1/logs` and answers with an empty ExportLogsServiceResponse.
 */
export class OtlpLogSink {
  readonly requests: { contentType: string; bytes: number }[] = [];
  private server: Server | undefined;
  port = 0;

  get baseUrl(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  async start(): Promise<void> {
    const { server, port } = await listen((req, body, res) => {
      if (req.method !== 'POST' || req.url !== '/v1/logs') {
        res.writeHead(404).end();
        return;
      }
      this.requests.push({ contentType: req.headers['content-type'] ?? '', bytes: body.length });
      const json = (req.headers['content-type'] ?? '').includes('json');
      res
        .writeHead(200, { 'content-type': json ? 'application/json' : 'application/x-protobuf' })
        .end(json ? '{}' : '');
    });
    this.server = server;
    this.port = port;
  }

  async stop(): Promise<void> {
    if (this.server) await close(this.server);
  }
}
