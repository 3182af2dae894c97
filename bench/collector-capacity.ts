/**
 * What one collector running otel-collector.yaml (process identity, the
 * allow-list filter and transform, batch, Prometheus exporter, log file)
 * carries, and what one process costs it.
 *
 *   npm run bench:collector -- [--seconds 10] [--processes 1000]
 *
 * 1. One process: the real SDK and instrumentation, 4 tools × 2 checked
 *    arguments, traffic over every mismatch shape; its metric export is
 *    captured as the OTLP/HTTP exporter sends it (JSON): data points and bytes.
 * 2. Metrics: that export, as sent by `--processes` processes (each its own
 *    service.instance.id), replayed at rising rates of exports per second.
 *    A collector's metric load is exports × points, whatever the check rate:
 *    checks are counted in the process and exported as totals.
 * 3. Log records: sampled check records (1 in 50 checks by default) are the
 *    only per-check load; batches of 512, as the SDK's batch processor sends
 *    them, at rising rates of records per second.
 * Each step reports the collector's CPU, and points or records refused,
 * dropped or failed (collector self-metrics); at the end the Prometheus
 * exporter must hold every process's series with its exact value.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { OTLPMetricExporter } from '@opentelemetry/exporter-metrics-otlp-http';
import { OTLPLogExporter } from '@opentelemetry/exporter-logs-otlp-http';
import { registerInstrumentations } from '@opentelemetry/instrumentation';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { BatchLogRecordProcessor, LoggerProvider } from '@opentelemetry/sdk-logs';
import { MeterProvider, PeriodicExportingMetricReader } from '@opentelemetry/sdk-metrics';
import { staticValueSet } from '@argcheck/core';
import { ToolArgumentInstrumentation } from '@argcheck/instrumentation';
import { argcheckViews } from '@argcheck/instrumentation/views';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const arg = (name: string, fallback: number): number => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : fallback;
};
const SECONDS = arg('seconds', 10);
const PROCESSES = arg('processes', 1000);
const EXPORT_RATES = [50, 100, 200, 400, 800];
const RECORD_RATES = [1_000, 2_000, 5_000, 10_000, 20_000];

async function listen(server: Server): Promise<number> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  return typeof address === 'object' && address ? address.port : 0;
}

async function freePort(): Promise<number> {
  const server = createServer();
  const port = await listen(server);
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** One process's exports, captured as the SDK's OTLP/HTTP exporters send them. */
async function captureOneProcess(): Promise<{ metrics: string; logs: string }> {
  const bodies: Record<string, string[]> = { '/v1/metrics': [], '/v1/logs': [] };
  const capture = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      bodies[req.url ?? '']?.push(Buffer.concat(chunks).toString('utf8'));
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  const url = `http://127.0.0.1:${await listen(capture)}`;
  const resource = resourceFromAttributes({
    'service.name': 'bench-agent',
    'service.instance.id': 'bench-0',
  });
  const meterProvider = new MeterProvider({
    resource,
    views: argcheckViews(),
    readers: [
      new PeriodicExportingMetricReader({
        exporter: new OTLPMetricExporter({ url: `${url}/v1/metrics` }),
        exportIntervalMillis: 3_600_000,
      }),
    ],
  });
  const loggerProvider = new LoggerProvider({
    resource,
    processors: [
      new BatchLogRecordProcessor({
        exporter: new OTLPLogExporter({ url: `${url}/v1/logs` }),
        maxExportBatchSize: 512,
        maxQueueSize: 4_096,
      }),
    ],
  });
  const members = Array.from({ length: 10 }, (_, i) => `CODE_${i}`);
  const tools = ['refund_order', 'transfer_stock', 'open_ticket', 'ship_order'];
  const valueSets = Object.fromEntries(tools.map((t) => [`${t}.codes`, staticValueSet(members)]));
  const inst = new ToolArgumentInstrumentation({
    valueSets,
    checkedArguments: Object.fromEntries(
      tools.map((t) => [t, { primary_code: `${t}.codes`, fallback_code: `${t}.codes` }]),
    ),
    logSampleRatio: 1,
    mcp: { enabled: false },
  });
  const unregister = registerInstrumentations({
    instrumentations: [inst],
    meterProvider,
    loggerProvider,
  });
  await inst.ready();
  const emitted = [...members, 'code_1', 'Code 2', 'CODE_33', 'MADE_UP', 42];
  for (let i = 0; i < 512; i++) {
    const tool = tools[i % tools.length]!;
    const v = emitted[i % emitted.length];
    inst.check(tool, { primary_code: v, fallback_code: members[i % members.length] });
  }
  await Promise.all([meterProvider.forceFlush(), loggerProvider.forceFlush()]);
  unregister();
  inst.close();
  await Promise.all([meterProvider.shutdown(), loggerProvider.shutdown()]);
  capture.close();
  const metrics = bodies['/v1/metrics']!.at(-1)!;
  const logs = bodies['/v1/logs']!.find((b) => b.length > 0)!;
  return { metrics, logs };
}

interface OtlpJson {
  resourceMetrics?: { scopeMetrics: { metrics: Record<string, { dataPoints?: unknown[] }>[] }[] }[];
  resourceLogs?: { scopeLogs: { logRecords: unknown[] }[] }[];
}

/** Data points of an OTLP/JSON metrics request (every point type). */
function dataPoints(json: string): number {
  const body = JSON.parse(json) as OtlpJson;
  return (body.resourceMetrics ?? [])
    .flatMap((rm) => rm.scopeMetrics.flatMap((sm) => sm.metrics))
    .reduce(
      (n, metric) =>
        n +
        Object.values(metric).reduce(
          (k, v) =>
            k +
            (typeof v === 'object' && v !== null && Array.isArray(v.dataPoints)
              ? v.dataPoints.length
              : 0),
          0,
        ),
      0,
    );
}

const logRecords = (json: string): number =>
  ((JSON.parse(json) as OtlpJson).resourceLogs ?? [])
    .flatMap((rl) => rl.scopeLogs)
    .reduce((n, sl) => n + sl.logRecords.length, 0);

/**
 * The collector's own counters (its Prometheus endpoint), summed by name and
 * exporter: `otelcol_exporter_sent_log_records/file`.
 */
async function selfMetrics(port: number): Promise<Map<string, number>> {
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
function cpuSeconds(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

/** POST `body(i)` at `rate` requests per second for SECONDS, at most 32 in flight. */
async function drive(
  url: string,
  rate: number,
  body: (i: number) => string,
): Promise<{ perSecond: number; requests: number; elapsed: number }> {
  const total = Math.round(rate * SECONDS);
  const start = performance.now();
  let next = 0;
  let failed = 0;
  const worker = async (): Promise<void> => {
    for (;;) {
      const i = next++;
      if (i >= total) return;
      const due = start + (i * 1000) / rate;
      const wait = due - performance.now();
      if (wait > 0) await new Promise((r) => setTimeout(r, wait));
      const res = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: body(i),
      });
      await res.arrayBuffer();
      if (!res.ok) failed++;
    }
  };
  await Promise.all(Array.from({ length: 32 }, worker));
  const elapsed = (performance.now() - start) / 1000;
  if (failed > 0) console.error(`  ${failed} requests were refused`);
  return { perSecond: total / elapsed, requests: total, elapsed };
}

async function main(): Promise<void> {
  const one = await captureOneProcess();
  const points = dataPoints(one.metrics);
  const records = logRecords(one.logs);
  console.log('## One process (4 tools × 2 checked arguments, every mismatch shape)\n');
  console.log(`metric export: ${points} data points, ${one.metrics.length} bytes of OTLP/JSON`);
  console.log(
    `log export: ${records} records, ${one.logs.length} bytes (${Math.round(one.logs.length / records)} per record)\n`,
  );

  const dir = mkdtempSync(join(tmpdir(), 'argcheck-capacity-'));
  // The collector's otlp_http log exporter needs a backend: this one accepts and forgets.
  const sink = createServer((req, res) => {
    req.resume();
    req.on('end', () => res.writeHead(200, { 'content-type': 'application/json' }).end('{}'));
  });
  const sinkPort = await listen(sink);
  const ports = {
    http: await freePort(),
    grpc: await freePort(),
    prom: await freePort(),
    self: await freePort(),
  };
  const collector = spawn(
    join(ROOT, '.cache/otelcol/argcheck-otelcol'),
    ['--config', join(ROOT, 'otel-collector.yaml')],
    {
      cwd: dir,
      stdio: 'ignore',
      env: {
        ...process.env,
        ARGCHECK_OTLP_HTTP_ENDPOINT: `127.0.0.1:${ports.http}`,
        ARGCHECK_OTLP_GRPC_ENDPOINT: `127.0.0.1:${ports.grpc}`,
        ARGCHECK_PROMETHEUS_ENDPOINT: `127.0.0.1:${ports.prom}`,
        ARGCHECK_OTELCOL_TELEMETRY_PORT: String(ports.self),
        ARGCHECK_LOG_FILE: join(dir, 'logs.jsonl'),
        ARGCHECK_OTLP_LOGS_ENDPOINT: `http://127.0.0.1:${sinkPort}`,
      },
    },
  );
  try {
    for (let i = 0; i < 100; i++) {
      try {
        await selfMetrics(ports.self);
        break;
      } catch {
        await new Promise((r) => setTimeout(r, 100));
      }
    }
    const pid = collector.pid!;
    const bodies = Array.from({ length: PROCESSES }, (_, i) =>
      one.metrics.replace('"bench-0"', `"bench-${i}"`),
    );
    // Items the receiver accepted and the exporter that matters sent on, and
    // what was refused or failed on the way (these counters appear only once
    // something was refused or failed).
    const counters = {
      metrics: {
        accepted: 'otelcol_receiver_accepted_metric_points',
        sent: 'otelcol_exporter_sent_metric_points/prometheus',
        lost: [
          'otelcol_receiver_refused_metric_points',
          'otelcol_receiver_failed_metric_points',
          'otelcol_exporter_send_failed_metric_points/prometheus',
        ],
      },
      logs: {
        accepted: 'otelcol_receiver_accepted_log_records',
        sent: 'otelcol_exporter_sent_log_records/file',
        lost: [
          'otelcol_receiver_refused_log_records',
          'otelcol_receiver_failed_log_records',
          'otelcol_exporter_send_failed_log_records/file',
        ],
      },
    };
    const step = async (
      signal: keyof typeof counters,
      rate: number,
      url: string,
      body: (i: number) => string,
      unit: number,
    ): Promise<void> => {
      const c = counters[signal];
      const delta = (a: Map<string, number>, b: Map<string, number>, k: string): number =>
        (b.get(k) ?? 0) - (a.get(k) ?? 0);
      const before = await selfMetrics(ports.self);
      const cpu0 = cpuSeconds(pid);
      const { perSecond, requests, elapsed } = await drive(url, rate, body);
      const cpu = (cpuSeconds(pid) - cpu0) / elapsed;
      // The batch processor holds items for up to a second: wait until every
      // accepted item has been exported (or 10 s have passed).
      let after = await selfMetrics(ports.self);
      for (
        let i = 0;
        i < 100 && delta(before, after, c.sent) < delta(before, after, c.accepted);
        i++
      ) {
        await new Promise((r) => setTimeout(r, 100));
        after = await selfMetrics(ports.self);
      }
      const asked = requests * unit;
      const accepted = delta(before, after, c.accepted);
      const exported = delta(before, after, c.sent);
      const lost = c.lost.reduce((a, k) => a + delta(before, after, k), 0);
      console.log(
        `| ${signal} | ${Math.round(rate)} | ${Math.round(perSecond)} | ${Math.round(perSecond * unit)} | ${(cpu * 100).toFixed(0)} % | ${asked} / ${accepted} / ${exported} | ${lost} | ${loadavg()[0]!.toFixed(1)} |`,
      );
    };
    console.log(`## Metrics: ${PROCESSES} processes, ${points} data points per export\n`);
    console.log(
      '| signal | requests/s asked | requests/s sent | points/s | collector CPU (of one core) | points sent / accepted / exported | refused or failed | load average |',
    );
    console.log('|---|---|---|---|---|---|---|---|');
    for (const rate of EXPORT_RATES) {
      await step(
        'metrics',
        rate,
        `http://127.0.0.1:${ports.http}/v1/metrics`,
        (i) => bodies[i % PROCESSES]!,
        points,
      );
    }
    console.log(`\n## Log records: batches of ${records}\n`);
    console.log(
      '| signal | requests/s asked | requests/s sent | records/s | collector CPU (of one core) | records sent / accepted / exported | refused or failed | load average |',
    );
    console.log('|---|---|---|---|---|---|---|---|');
    for (const rate of RECORD_RATES) {
      await step(
        'logs',
        rate / records,
        `http://127.0.0.1:${ports.http}/v1/logs`,
        () => one.logs,
        records,
      );
    }
    // Every process's series, each with the value its export carried.
    const text = await (await fetch(`http://127.0.0.1:${ports.prom}/metrics`)).text();
    const checks = new Map<string, number>();
    for (const m of text.matchAll(
      /^tool_argument_value_check_total\{[^}]*instance="(bench-\d+)"[^}]*\} (\d+)$/gm,
    )) {
      checks.set(m[1]!, (checks.get(m[1]!) ?? 0) + Number(m[2]));
    }
    const values = new Set(checks.values());
    console.log(
      `\nPrometheus exporter: ${checks.size} of ${PROCESSES} processes, checks per process ${[...values].join(', ')} (512 × 2 sent)`,
    );
  } finally {
    collector.kill('SIGTERM');
    sink.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
