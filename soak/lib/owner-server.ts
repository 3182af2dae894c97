import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ValueSetEntry } from '@argcheck/core';

/** The owning services, played by one loopback HTTP server: `GET /value-sets/<name>`. */
export interface OwnerServer {
  urlFor(set: string): string;
  /** While down, the owner answers 503. */
  setDown(set: string, down: boolean): void;
  /** Requests per set and status code. */
  requests(): Record<string, Record<string, number>>;
  close(): Promise<void>;
}

export async function startOwnerServer(
  sets: Readonly<Record<string, readonly ValueSetEntry[]>>,
): Promise<OwnerServer> {
  const down = new Set<string>();
  const counts: Record<string, Record<string, number>> = {};
  const server = createServer((req, res) => {
    const name = decodeURIComponent(/^\/value-sets\/([^/?]+)$/.exec(req.url ?? '')?.[1] ?? '');
    const entries = sets[name];
    const status = entries === undefined ? 404 : down.has(name) ? 503 : 200;
    const perSet = (counts[entries === undefined ? '(unknown)' : name] ??= {});
    perSet[status] = (perSet[status] ?? 0) + 1;
    res.writeHead(status, { 'content-type': 'application/json', 'cache-control': 'no-store' });
    res.end(JSON.stringify(status === 200 ? entries : { error: 'unavailable' }));
  });
  // Keep-alive sockets would hold close() open until they time out.
  server.keepAliveTimeout = 1_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  const { port } = server.address() as AddressInfo;
  return {
    urlFor: (set) => `http://127.0.0.1:${port}/value-sets/${encodeURIComponent(set)}`,
    setDown(set, isDown) {
      if (isDown) down.add(set);
      else down.delete(set);
    },
    requests: () => structuredClone(counts),
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
