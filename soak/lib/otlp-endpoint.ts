// Where the soak's OTLP goes: the real argcheck collector (otel-collector.yaml,
// the binary from deploy/collector/build.sh) on loopback ports, or, when that
// binary is not built, a loopback OTLP/HTTP sink that keeps what a Prometheus
// exporter would show. Either can be stopped and started again on the same
// port, as an endpoint that goes away and comes back.
import { Buffer } from 'node:buffer';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createNetServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { clearTimeout, setTimeout } from 'node:timers';
import { setTimeout as sleep } from 'node:timers/promises';
import { repoRoot } from '../../bench/lib/paths.js';

export interface OtlpEndpoint {
  kind: 'collector' | 'sink';
  description: string;
  /** Base URL of its OTLP/HTTP receiver, with a trailing slash. */
  url: string;
  start(): Promise<void>;
  stop(): Promise<void>;
  /** What Prometheus would scrape from it now. */
  scrape(): Promise<string>;
  /** Log records it received. */
  logRecords(): number;
  close(): Promise<void>;
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createNetServer();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

async function waitFor(what: string, probe: () => Promise<boolean>, timeoutMs = 20_000) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await probe()) return;
    await sleep(100);
  }
  throw new Error(`timed out waiting for ${what}`);
}

/** Sum of every sample of `name` in Prometheus text. */
export function sumSamples(text: string, name: string): number {
  let total = 0;
  for (const line of text.split('\n')) {
    if (line.startsWith(`${name}{`) || line.startsWith(`${name} `)) {
      total += Number(line.slice(line.lastIndexOf(' ') + 1));
    }
  }
  return total;
}

/** The collector binary's path, or undefined when it is not built. */
export function collectorBinary(): string | undefined {
  const result = spawnSync('bash', [join(repoRoot, 'deploy/collector/build.sh'), '--reuse'], {
    encoding: 'utf8',
  });
  return result.status === 0 ? result.stdout.trim() : undefined;
}

/** The real collector with otel-collector.yaml; `start()` and `stop()` may repeat. */
export async function realCollector(bin: string): Promise<OtlpEndpoint> {
  const dir = mkdtempSync(join(tmpdir(), 'argcheck-soak-collector-'));
  const logFile = join(dir, 'argcheck-logs.jsonl');
  const ports = {
    grpc: await freePort(),
    http: await freePort(),
    prom: await freePort(),
    self: await freePort(),
  };
  const env = {
    ...Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('ARGCHECK_'))),
    ARGCHECK_OTLP_GRPC_ENDPOINT: `127.0.0.1:${ports.grpc}`,
    ARGCHECK_OTLP_HTTP_ENDPOINT: `127.0.0.1:${ports.http}`,
    ARGCHECK_PROMETHEUS_ENDPOINT: `127.0.0.1:${ports.prom}`,
    ARGCHECK_OTELCOL_TELEMETRY_PORT: String(ports.self),
    ARGCHECK_LOG_FILE: logFile,
  };
  let child: ChildProcess | undefined;
  let stderr = '';
  const stop = async () => {
    const running = child;
    if (!running || running.exitCode !== null || running.signalCode !== null) return;
    const exited = new Promise((resolve) => running.once('exit', resolve));
    running.kill('SIGTERM');
    const timer = setTimeout(() => running.kill('SIGKILL'), 10_000);
    await exited;
    clearTimeout(timer);
  };
  return {
    kind: 'collector',
    description: `the argcheck collector (${bin.replace(repoRoot, '')}) with otel-collector.yaml`,
    url: `http://127.0.0.1:${ports.http}/`,
    async start() {
      stderr = '';
      const started = spawn(bin, ['--config', join(repoRoot, 'otel-collector.yaml')], {
        cwd: dir,
        env,
        stdio: ['ignore', 'ignore', 'pipe'],
      });
      child = started;
      started.stderr.setEncoding('utf8').on('data', (chunk: string) => {
        stderr = (stderr + chunk).slice(-20_000);
      });
      await waitFor('the collector to start', () => {
        if (started.exitCode !== null) throw new Error(stderr);
        return Promise.resolve(stderr.includes('Everything is ready'));
      });
    },
    stop,
    async scrape() {
      const response = await globalThis.fetch(`http://127.0.0.1:${ports.prom}/metrics`);
      return response.text();
    },
    /** Log records the collector wrote to its file exporter. */
    logRecords() {
      if (!existsSync(logFile)) return 0;
      let records = 0;
      for (const line of readFileSync(logFile, 'utf8').split('\n')) {
        if (line.trim() === '') continue;
        records += countLogRecords(JSON.parse(line) as OtlpLogs);
      }
      return records;
    },
    async close() {
      await stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

interface OtlpLogs {
  resourceLogs?: { scopeLogs?: { logRecords?: unknown[] }[] }[];
}
interface OtlpMetrics {
  resourceMetrics?: {
    scopeMetrics?: {
      metrics?: {
        name: string;
        sum?: {
          dataPoints?: {
            attributes?: { key: string; value?: Record<string, unknown> }[];
            asInt?: string | number;
            asDouble?: number;
          }[];
        };
      }[];
    }[];
  }[];
}

function countLogRecords(body: OtlpLogs): number {
  let records = 0;
  for (const rl of body.resourceLogs ?? []) {
    for (const sl of rl.scopeLogs ?? []) records += (sl.logRecords ?? []).length;
  }
  return records;
}

/**
 * A loopback OTLP/HTTP (JSON) receiver that keeps the latest cumulative value
 * of every sum data point and counts log records, rendered as Prometheus text
 * (`_total` names) so the soak reads it like the collector's exporter.
 */
export async function loopbackSink(): Promise<OtlpEndpoint> {
  const port = await freePort();
  const sums = new Map<string, number>();
  let records = 0;
  let server: Server | undefined;
  const attrs = (list: { key: string; value?: Record<string, unknown> }[] = []) =>
    Object.fromEntries(list.map((kv) => [kv.key, Object.values(kv.value ?? {})[0]]));
  const handle = (req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      try {
        const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as OtlpMetrics & OtlpLogs;
        if (req.url === '/v1/metrics') {
          for (const rm of body.resourceMetrics ?? []) {
            for (const sm of rm.scopeMetrics ?? []) {
              for (const m of sm.metrics ?? []) {
                for (const p of m.sum?.dataPoints ?? []) {
                  const key = `${m.name}_total${JSON.stringify(attrs(p.attributes))}`;
                  sums.set(key, Number(p.asInt ?? p.asDouble ?? 0));
                }
              }
            }
          }
        } else if (req.url === '/v1/logs') {
          records += countLogRecords(body);
        }
        res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
      } catch {
        res.writeHead(400).end();
      }
    });
  };
  const stop = async () => {
    const running = server;
    if (!running) return;
    await new Promise<void>((resolve) => {
      running.close(() => resolve());
      running.closeAllConnections();
    });
    server = undefined;
  };
  return {
    kind: 'sink',
    description: 'a loopback OTLP/HTTP sink in the soak process (not the collector)',
    url: `http://127.0.0.1:${port}/`,
    async start() {
      const started = createServer(handle);
      started.keepAliveTimeout = 500;
      server = started;
      await new Promise<void>((resolve) => started.listen(port, '127.0.0.1', resolve));
    },
    stop,
    scrape: () =>
      Promise.resolve([...sums].map(([key, v]) => `${key.replace(/\{.*$/, '')}{} ${v}`).join('\n')),
    logRecords: () => records,
    close: stop,
  };
}
