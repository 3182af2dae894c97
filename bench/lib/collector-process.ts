/**
 * The argcheck collector as a benchmark runs it: otel-collector.yaml on free
 * loopback ports, its own counters (its Prometheus endpoint) and its CPU time.
 */
import { spawn } from 'node:child_process';
import { mkdirSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { join } from 'node:path';
import { repoRoot } from './paths.js';

export async function listen(server: Server): Promise<number> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  return typeof address === 'object' && address ? address.port : 0;
}

export async function freePort(): Promise<number> {
  const server = createServer();
  const port = await listen(server);
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/**
 * The collector's own counters (its Prometheus endpoint), summed by name and
 * exporter: `otelcol_exporter_sent_log_records/file`.
 */
export async function selfMetrics(port: number): Promise<Map<string, number>> {
  const text = await (await fetch(`http://127.0.0.1:${port}/metrics`)).text();
  const out = new Map<string, number>();
  for (const line of text.split('\n')) {
    const m = /^(otelcol_[a-z_]+)(\{[^}]*\})? ([0-9.e+-]+)$/.exec(line);
    if (!m) continue;
    const exporter = /exporter="([^"]+)"/.exec(m[2] ?? '')?.[1];
    const key = exporter ? `${m[1]!}/${exporter}` : m[1]!;
    out.set(key, (out.get(key) ?? 0) + Number(m[3]));
  }
  return out;
}

/** CPU seconds (user + system) the process has used. */
export function cpuSeconds(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

export interface Collector {
  ports: { http: number; grpc: number; prom: number; self: number };
  pid: number;
  /** The memory_limiter's first complaint on stderr, if any. */
  refusals(): string;
  stop(): Promise<void>;
}

export async function startCollector(
  dir: string,
  sinkPort: number,
  memoryMib: number,
): Promise<Collector> {
  mkdirSync(dir, { recursive: true });
  const ports = {
    http: await freePort(),
    grpc: await freePort(),
    prom: await freePort(),
    self: await freePort(),
  };
  const child = spawn(
    join(repoRoot, '.cache/otelcol/argcheck-otelcol'),
    ['--config', join(repoRoot, 'otel-collector.yaml')],
    {
      cwd: dir,
      stdio: ['ignore', 'ignore', 'pipe'],
      env: {
        ...process.env,
        ARGCHECK_OTLP_HTTP_ENDPOINT: `127.0.0.1:${ports.http}`,
        ARGCHECK_OTLP_GRPC_ENDPOINT: `127.0.0.1:${ports.grpc}`,
        ARGCHECK_PROMETHEUS_ENDPOINT: `127.0.0.1:${ports.prom}`,
        ARGCHECK_OTELCOL_TELEMETRY_PORT: String(ports.self),
        ARGCHECK_OTELCOL_MEMORY_LIMIT_MIB: String(memoryMib),
        ARGCHECK_LOG_FILE: join(dir, 'logs.jsonl'),
        ARGCHECK_OTLP_LOGS_ENDPOINT: `http://127.0.0.1:${sinkPort}`,
      },
    },
  );
  let firstRefusal = '';
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
    const line = chunk
      .split('\n')
      .find((l) => /memory_?limiter/i.test(l) && /refus|above/i.test(l));
    if (line && !firstRefusal) firstRefusal = line.slice(0, 300);
  });
  for (let i = 0; i < 100; i++) {
    try {
      await selfMetrics(ports.self);
      break;
    } catch {
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  return {
    ports,
    pid: child.pid!,
    refusals: () => firstRefusal,
    stop: async () => {
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      await exited;
    },
  };
}
