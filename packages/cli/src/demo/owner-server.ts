import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ValueSetEntry } from '@argcheck/core';

/** The owning services, played by one loopback HTTP server: `GET /value-sets/<name>`. */
export interface OwnerServer {
  /** `http://127.0.0.1:<port>/value-sets/` — append a set name. */
  readonly baseUrl: string;
  urlFor(set: string): string;
  /** The owner publishes one more member (refunds adds a seventh code). */
  addMember(set: string, entry: ValueSetEntry): void;
  /** While down, the owner answers 503 (identity's read path during a migration). */
  setDown(set: string, down: boolean): void;
  /** Requests per set and status code, for the final summary. */
  requests(): Record<string, Record<string, number>>;
  close(): Promise<void>;
}

export async function startOwnerServer(
  sets: Readonly<Record<string, readonly ValueSetEntry[]>>,
): Promise<OwnerServer> {
  const members = new Map(Object.entries(sets).map(([name, entries]) => [name, [...entries]]));
  const down = new Set<string>();
  const counts: Record<string, Record<string, number>> = {};

  const answer = (res: ServerResponse, set: string, status: number, body: unknown): void => {
    const perSet = (counts[set] ??= {});
    perSet[status] = (perSet[status] ?? 0) + 1;
    res.writeHead(status, { 'content-type': 'application/json', 'cache-control': 'no-store' });
    res.end(JSON.stringify(body));
  };

  const handle = (req: IncomingMessage, res: ServerResponse): void => {
    const match = /^\/value-sets\/([^/?]+)$/.exec(req.url ?? '');
    const name = match?.[1] === undefined ? undefined : decodeURIComponent(match[1]);
    const entries = name === undefined ? undefined : members.get(name);
    if (req.method !== 'GET' || name === undefined || entries === undefined) {
      answer(res, '(unknown)', 404, { error: 'no such value set' });
    } else if (down.has(name)) {
      answer(res, name, 503, { error: 'read path unavailable during migration' });
    } else {
      // Entries with aliases are the richest payload the sources accept.
      answer(res, name, 200, entries);
    }
  };

  const server = createServer(handle);
  // Keep-alive sockets would hold close() open until they time out.
  server.keepAliveTimeout = 1_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  const { port } = server.address() as AddressInfo;
  const baseUrl = `http://127.0.0.1:${port}/value-sets/`;

  return {
    baseUrl,
    urlFor: (set) => baseUrl + encodeURIComponent(set),
    addMember(set, entry) {
      members.get(set)?.push(entry);
    },
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
