/**
 * Alertmanager's webhook receiver, on loopback, for the end-to-end test. The
 * value sets' owner and the OTLP log backend are @argcheck/testing's
 * (`ValueSetOwner`, `OtlpLogSink`).
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';

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
