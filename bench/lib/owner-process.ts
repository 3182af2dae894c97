// A value-set owner in its own process, so that serving a large payload costs
// the benchmark's event loop nothing an owner elsewhere would not. Started by
// `startOwnerProcess` (owner.ts) as `node owner-process.js <size> <seed>`:
// serves `GET /value-sets/catalog` (a JSON array of realisticIds(size, seed))
// on a loopback port and prints `{ "port": n, "bytes": n }` as one line.
import { Buffer } from 'node:buffer';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { realisticIds } from './ids.js';

const size = Number(process.argv[2]);
const seed = Number(process.argv[3] ?? 7);
const body = Buffer.from(JSON.stringify(realisticIds(size, seed)));

const server = createServer((req, res) => {
  if (req.url !== '/value-sets/catalog') {
    res.writeHead(404).end();
    return;
  }
  res.writeHead(200, { 'content-type': 'application/json', 'content-length': body.length });
  res.end(body);
});
server.keepAliveTimeout = 1_000;
server.listen(0, '127.0.0.1', () => {
  const { port } = server.address() as AddressInfo;
  process.stdout.write(`${JSON.stringify({ port, bytes: body.length })}\n`);
});
// The parent closes stdin when it is done (or dies): exit then.
process.stdin.resume();
process.stdin.on('end', () => process.exit(0));
