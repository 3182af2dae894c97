/** Loopback ports for the stack's programs. */
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

/** A TCP port on 127.0.0.1 that was free a moment ago. */
export function freePort(): Promise<number> {
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
