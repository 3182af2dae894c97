// A real HTTP (or HTTPS) server on 127.0.0.1, port 0, that answers by path and
// records every request it gets (path and headers): what a measurement reads
// to say what was sent where.
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

export interface RecordingServer {
  /** `scheme://127.0.0.1:port` */
  origin: string;
  requests: { path: string; headers: IncomingHttpHeaders }[];
  url(path: string): string;
  /** Answer requests for `path` with `handler`; returns its URL. Unknown paths get 404. */
  on(path: string, handler: Handler): string;
  /** Answer `status` with a Location of `location`. */
  redirect(path: string, location: string, status?: number): string;
  json(path: string, body: unknown): string;
  close(): Promise<void>;
}

export async function recordingServer(tls?: {
  key: string;
  cert: string;
}): Promise<RecordingServer> {
  const requests: RecordingServer['requests'] = [];
  const handlers = new Map<string, Handler>();
  const listener = (req: IncomingMessage, res: ServerResponse): void => {
    const path = req.url ?? '/';
    requests.push({ path, headers: req.headers });
    const handler = handlers.get(path);
    if (handler) handler(res, req);
    else res.writeHead(404).end('no such path');
  };
  const server: Server = tls ? createTlsServer(tls, listener) : createServer(listener);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const origin = `${tls ? 'https' : 'http'}://127.0.0.1:${port}`;
  const on = (path: string, handler: Handler): string => {
    handlers.set(path, handler);
    return `${origin}${path}`;
  };
  return {
    origin,
    requests,
    url: (path) => `${origin}${path}`,
    on,
    redirect: (path, location, status = 302) =>
      on(path, (res) => res.writeHead(status, { location }).end()),
    json: (path, body) =>
      on(path, (res) =>
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body)),
      ),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
