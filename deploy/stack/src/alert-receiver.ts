/**
 * A local receiver for Alertmanager's webhook: it prints one line per alert in
 * each notification it gets, firing or resolved. It listens on loopback only,
 * by default on the placeholder address of deploy/alertmanager/alertmanager.yml
 * (127.0.0.1:9095, path /argcheck-alerts), so the shipped configuration
 * delivers to it unchanged.
 *
 *   node build/deploy/stack/src/alert-receiver.js [--port 9095]
 *
 * `npm run stack` starts it for you.
 */
import { createServer, type Server } from 'node:http';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

export const RECEIVER_PATH = '/argcheck-alerts';

/** One alert of an Alertmanager webhook notification (payload version 4). */
export interface WebhookAlert {
  status: 'firing' | 'resolved';
  labels: Record<string, string>;
  annotations: Record<string, string>;
  startsAt: string;
  endsAt: string;
}

interface WebhookNotification {
  receiver: string;
  status: string;
  alerts: WebhookAlert[];
}

/** What an alert is about: `tool.argument` for the ratio alert, the set for the value-set alerts. */
export function alertSubject(labels: Record<string, string>): string {
  if (labels.tool !== undefined && labels.argument !== undefined) {
    return `${labels.tool}.${labels.argument}`;
  }
  return labels.set ?? labels.tool ?? '-';
}

/**
 * The line printed for one alert:
 * `FIRING   ToolArgumentInventionRate  refund_order.reason_code  <summary>`.
 * Tests read these lines; keep the first three fields as they are.
 */
export function alertLine(alert: WebhookAlert): string {
  const status = alert.status === 'resolved' ? 'RESOLVED' : 'FIRING';
  const name = alert.labels.alertname ?? '(no alertname)';
  const summary = alert.status === 'firing' ? `  ${alert.annotations.summary ?? ''}` : '';
  return `${status.padEnd(8)} ${name}  ${alertSubject(alert.labels)}${summary}`.trimEnd();
}

export interface AlertReceiver {
  readonly url: string;
  close(): Promise<void>;
}

/** Listens on 127.0.0.1:`port` (0 for any free port) and calls `print` with each alert's line. */
export async function startAlertReceiver(
  port: number,
  print: (line: string) => void,
): Promise<AlertReceiver> {
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      if (req.method !== 'POST' || req.url !== RECEIVER_PATH) {
        res.writeHead(404).end();
        return;
      }
      let notification: WebhookNotification;
      try {
        notification = JSON.parse(Buffer.concat(chunks).toString('utf8')) as WebhookNotification;
      } catch {
        res.writeHead(400).end();
        print('ignored a notification that is not JSON');
        return;
      }
      for (const alert of notification.alerts ?? []) print(alertLine(alert));
      res.writeHead(200).end();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve());
  });
  const address = server.address();
  const bound = typeof address === 'object' && address ? address.port : port;
  return {
    url: `http://127.0.0.1:${bound}${RECEIVER_PATH}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { port: { type: 'string', default: '9095' } } });
  const port = Number(values.port);
  const stamp = (): string => new Date().toISOString().slice(11, 19);
  const receiver = await startAlertReceiver(port, (line) => console.log(`${stamp()} ${line}`));
  console.log(`listening on ${receiver.url}`);
  const stop = (): void => {
    void receiver.close().then(() => process.exit(0));
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  main().catch((error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  });
}
