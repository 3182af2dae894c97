/** Loopback ports for the stack's programs. */
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';

/** Every port the stack listens on. */
export interface StackPorts {
  otlpGrpc: number;
  otlpHttp: number;
  /** The collector's Prometheus exporter (/metrics). */
  exporter: number;
  /** The collector's own metrics. */
  collectorSelf: number;
  prometheus: number;
  alertmanager: number;
  /** The local alert receiver Alertmanager posts to. */
  receiver: number;
}

/** The ports the shipped configuration uses (otel-collector.yaml, deploy/prometheus/targets, alertmanager.yml). */
export const DEFAULT_PORTS: StackPorts = {
  otlpGrpc: 4317,
  otlpHttp: 4318,
  exporter: 8889,
  collectorSelf: 8888,
  prometheus: 9090,
  alertmanager: 9093,
  receiver: 9095,
};

/** Resolves with whether something could listen on 127.0.0.1:`port` right now. */
export function portIsFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.unref();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

/**
 * The kernel's ephemeral range, from which it picks the local port of every
 * outgoing connection (and of a listen on port 0).
 */
function ephemeralRange(): [number, number] {
  try {
    const [low, high] = readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8')
      .trim()
      .split(/\s+/)
      .map(Number);
    if (Number.isInteger(low) && Number.isInteger(high)) return [low!, high!];
  } catch {
    // Not Linux: the IANA range most other kernels use.
  }
  return [49152, 65535];
}

/** The ephemeral range, read at the first `freePort`. */
let range: [number, number] | undefined;

/** The lowest port handed out below the ephemeral range. */
const LOWEST = 10_000;

/** Every port this process has handed out: never the same one twice. */
const handedOut = new Set<number>();

function listenOnAnyPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

/**
 * A TCP port on 127.0.0.1 that was free a moment ago, for a program started
 * next to listen on.
 *
 * It is taken below the kernel's ephemeral range when there is room there.
 * A port from that range (a listen on port 0) can be the local port of an
 * outgoing connection, a kept-alive fetch for instance, by the time the
 * program binds it: the bind then fails with "address already in use". The
 * same port is never handed out twice in one process, so two programs of one
 * test never get the same port either.
 */
export async function freePort(): Promise<number> {
  const [low] = (range ??= ephemeralRange());
  const room = low - LOWEST;
  for (let attempt = 0; attempt < 500; attempt++) {
    const port =
      room >= 1_000 ? LOWEST + Math.floor(Math.random() * room) : await listenOnAnyPort();
    if (handedOut.has(port)) continue;
    if (await portIsFree(port)) {
      handedOut.add(port);
      return port;
    }
  }
  throw new Error(`found no free port on 127.0.0.1 in 500 attempts`);
}

/** A free port for every program. */
export async function freePorts(): Promise<StackPorts> {
  const ports = {} as StackPorts;
  for (const key of Object.keys(DEFAULT_PORTS) as (keyof StackPorts)[])
    ports[key] = await freePort();
  return ports;
}

/** The default ports that are taken, as `name port` strings (empty when all are free). */
export async function busyDefaultPorts(): Promise<string[]> {
  const busy: string[] = [];
  for (const [name, port] of Object.entries(DEFAULT_PORTS) as [string, number][]) {
    if (!(await portIsFree(port))) busy.push(`${name} ${port}`);
  }
  return busy;
}
