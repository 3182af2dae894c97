import { expect } from 'chai';
import { existsSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { freePort } from '../../deploy/stack/src/ports.js';

// Defect: a clean-clone CI run failed when the collector of a pipeline test
// could not bind its OTLP/HTTP port ("listen tcp 127.0.0.1:44443: bind:
// address already in use"). The tests took their ports from a listen on port
// 0, that is from the kernel's ephemeral range, the range every outgoing
// connection takes its local port from; between the test choosing the port
// and the collector binding it, a connection (a kept-alive fetch to an earlier
// program, for one) could hold it. Ports were also chosen one at a time, each
// released before the next was asked for, so two programs of one test could
// be handed the same port.

const RANGE_FILE = '/proc/sys/net/ipv4/ip_local_port_range';
// Not Linux: the IANA range, as freePort takes it.
const [ephemeralLow] = existsSync(RANGE_FILE)
  ? readFileSync(RANGE_FILE, 'utf8').trim().split(/\s+/).map(Number)
  : [49152];

describe('regression: a test program’s port could be taken before it bound it', () => {
  it('reads the ephemeral range', () => {
    expect(ephemeralLow).to.be.a('number').and.to.be.greaterThan(10_000);
  });

  it('hands out ports below the ephemeral range, never the same one twice', async () => {
    const ports: number[] = [];
    for (let i = 0; i < 200; i++) ports.push(await freePort());
    expect(new Set(ports).size, 'distinct ports').to.equal(ports.length);
    const outside = ports.filter((p) => p < ephemeralLow! && p >= 10_000);
    expect(outside, 'ports in [10000, ephemeral low)').to.deep.equal(ports);
  });

  it('hands out a port a program can listen on', async () => {
    const port = await freePort();
    const server = createServer();
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => resolve());
    });
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });
});
