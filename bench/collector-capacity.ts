/**
 * What one collector running otel-collector.yaml (process identity, the
 * allow-list filter and transform, batch, Prometheus exporter, log file)
 * carries, and what one process costs it.
 *
 *   npm run bench -- --only collector-capacity [-- --seconds 10 --processes 1000 --memory-mib 512]
 *
 * Its figures are in docs/scaling.md ("Capacity of one collector, measured").
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
 * Each step reports the collector's CPU, heap and RSS, and points or records
 * refused or failed (collector self-metrics); at the end, whether the
 * Prometheus exporter holds every process's series with its exact value.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { OTLPMetricExporter } from '@opentelemetry/exporter-metrics-otlp-http';
import { OTLPLogExporter } from '@opentelemetry/exporter-logs-otlp-http';
import { registerInstrumentations } from '@opentelemetry/instrumentation';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { BatchLogRecordProcessor, LoggerProvider } from '@opentelemetry/sdk-logs';
import { MeterProvider, PeriodicExportingMetricReader } from '@opentelemetry/sdk-metrics';
import { staticValueSet } from '@argcheck/core';
import { ToolArgumentInstrumentation } from '@argcheck/instrumentation';
import { argcheckViews } from '@argcheck/instrumentation/views';
import {
  cpuSeconds,
  listen,
  selfMetrics,
  startCollector,
  type Collector,
} from './lib/collector-process.js';
import { num, type BenchOptions, type BenchResult, type ResultTable } from './lib/report.js';

const EXPORT_RATES = [50, 100, 200, 400, 800];
const RECORD_RATES = [1_000, 2_000, 5_000, 10_000, 20_000];

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

/** POST `body(i)` at `rate` requests per second for `seconds`, at most 32 in flight. */
async function drive(
  url: string,
  rate: number,
  seconds: number,
  body: (i: number) => string,
): Promise<{ perSecond: number; requests: number; elapsed: number }> {
  const total = Math.round(rate * seconds);
  const start = performance.now();
  let next = 0;
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
      // Refused requests are counted by the collector (refused or failed).
      await res.arrayBuffer();
    }
  };
  await Promise.all(Array.from({ length: 32 }, worker));
  const elapsed = (performance.now() - start) / 1000;
  return { perSecond: total / elapsed, requests: total, elapsed };
}

// Items the receiver accepted and the exporter that matters sent on, and what
// was refused or failed on the way (these counters appear only once something
// was refused or failed).
const COUNTERS = {
  metrics: {
    path: '/v1/metrics',
    accepted: 'otelcol_receiver_accepted_metric_points',
    sent: 'otelcol_exporter_sent_metric_points/prometheus',
    lost: [
      'otelcol_receiver_refused_metric_points',
      'otelcol_receiver_failed_metric_points',
      'otelcol_exporter_send_failed_metric_points/prometheus',
    ],
  },
  logs: {
    path: '/v1/logs',
    accepted: 'otelcol_receiver_accepted_log_records',
    sent: 'otelcol_exporter_sent_log_records/file',
    lost: [
      'otelcol_receiver_refused_log_records',
      'otelcol_receiver_failed_log_records',
      'otelcol_exporter_send_failed_log_records/file',
    ],
  },
};

const HEAD = (items: string): string[] => [
  'requests/s asked',
  'requests/s sent',
  `${items}/s`,
  'collector CPU (of one core)',
  `${items} sent / accepted / exported`,
  'refused or failed',
  'heap / RSS MiB',
  'load average',
];

/** One row: `rate` requests a second for `seconds`, then what the collector did with them. */
async function step(
  collector: Collector,
  signal: keyof typeof COUNTERS,
  rate: number,
  seconds: number,
  body: (i: number) => string,
  unit: number,
): Promise<(string | number)[]> {
  const c = COUNTERS[signal];
  const delta = (a: Map<string, number>, b: Map<string, number>, k: string): number =>
    (b.get(k) ?? 0) - (a.get(k) ?? 0);
  const before = await selfMetrics(collector.ports.self);
  const cpu0 = cpuSeconds(collector.pid);
  const url = `http://127.0.0.1:${collector.ports.http}${c.path}`;
  const { perSecond, requests, elapsed } = await drive(url, rate, seconds, body);
  const cpu = (cpuSeconds(collector.pid) - cpu0) / elapsed;
  // The batch processor holds items for up to a second: wait until every
  // accepted item has been exported (or 10 s have passed).
  let after = await selfMetrics(collector.ports.self);
  for (let i = 0; i < 100 && delta(before, after, c.sent) < delta(before, after, c.accepted); i++) {
    await new Promise((r) => setTimeout(r, 100));
    after = await selfMetrics(collector.ports.self);
  }
  const mib = (k: string): string => num((after.get(k) ?? 0) / 2 ** 20);
  const lost = c.lost.reduce((a, k) => a + delta(before, after, k), 0);
  return [
    num(rate),
    num(perSecond),
    num(perSecond * unit),
    `${num(cpu * 100)} %`,
    `${num(requests * unit)} / ${num(delta(before, after, c.accepted))} / ${num(delta(before, after, c.sent))}`,
    num(lost),
    `${mib('otelcol_process_runtime_heap_alloc_bytes')} / ${mib('otelcol_process_memory_rss')}`,
    num(loadavg()[0]!, 1),
  ];
}

export async function collectorCapacity(options: BenchOptions): Promise<BenchResult> {
  const seconds = options.number('seconds', 10);
  const processes = options.number('processes', 1000);
  /** ARGCHECK_OTELCOL_MEMORY_LIMIT_MIB: the shipped default is 512. */
  const memoryMib = options.number('memory-mib', 512);
  const one = await captureOneProcess();
  const points = dataPoints(one.metrics);
  const records = logRecords(one.logs);
  const tables: ResultTable[] = [
    {
      caption: 'One process: 4 tools × 2 checked arguments, traffic over every mismatch shape',
      head: ['export', 'items', 'bytes (OTLP/JSON)', 'bytes per item'],
      rows: [
        [
          'metrics',
          `${points} data points`,
          num(one.metrics.length),
          num(one.metrics.length / points),
        ],
        ['logs', `${records} records`, num(one.logs.length), num(one.logs.length / records)],
      ],
    },
  ];
  for (const row of tables[0]!.rows) console.log(`| ${row.join(' | ')} |`);
  const notes: string[] = [];
  const dir = mkdtempSync(join(tmpdir(), 'argcheck-capacity-'));
  // The collector's otlp_http log exporter needs a backend: this one accepts and forgets.
  const sink = createServer((req, res) => {
    req.resume();
    req.on('end', () => res.writeHead(200, { 'content-type': 'application/json' }).end('{}'));
  });
  const sinkPort = await listen(sink);
  try {
    // Metrics and logs each on a collector of their own, so that one
    // signal's state (the exporter's series) does not weigh on the other.
    const metrics = await startCollector(join(dir, 'metrics'), sinkPort, memoryMib);
    const bodies = Array.from({ length: processes }, (_, i) =>
      one.metrics.replace('"bench-0"', `"bench-${i}"`),
    );
    const metricRows: (string | number)[][] = [];
    for (const rate of EXPORT_RATES) {
      metricRows.push(
        await step(metrics, 'metrics', rate, seconds, (i) => bodies[i % processes]!, points),
      );
      console.log(`| ${metricRows.at(-1)?.join(' | ')} |`);
    }
    tables.push({
      caption: `Metric exports: ${processes} processes, ${points} data points each, memory limit ${memoryMib} MiB`,
      head: HEAD('points'),
      rows: metricRows,
    });
    // Every process's series, each with the value its export carried.
    const text = await (await fetch(`http://127.0.0.1:${metrics.ports.prom}/metrics`)).text();
    const checks = new Map<string, number>();
    for (const m of text.matchAll(
      /^tool_argument_value_check_total\{[^}]*instance="(bench-\d+)"[^}]*\} (\d+)$/gm,
    )) {
      checks.set(m[1]!, (checks.get(m[1]!) ?? 0) + Number(m[2]));
    }
    const series = text.split('\n').filter((l) => /^tool_argument\w*\{/.test(l)).length;
    notes.push(
      `The Prometheus exporter held ${num(series)} series: ${checks.size} of ${processes} processes, ` +
        `checks per process ${[...new Set(checks.values())].join(', ')} (512 × 2 sent).`,
      `memory_limiter (metrics): ${metrics.refusals() || 'refused nothing'}`,
    );
    await metrics.stop();

    const logs = await startCollector(join(dir, 'logs'), sinkPort, memoryMib);
    const logRows: (string | number)[][] = [];
    for (const rate of RECORD_RATES) {
      logRows.push(await step(logs, 'logs', rate / records, seconds, () => one.logs, records));
      console.log(`| ${logRows.at(-1)?.join(' | ')} |`);
    }
    tables.push({
      caption: `Sampled check records, in batches of ${records}`,
      head: HEAD('records'),
      rows: logRows,
    });
    notes.push(`memory_limiter (logs): ${logs.refusals() || 'refused nothing'}`);
    await logs.stop();
  } finally {
    sink.close();
    rmSync(dir, { recursive: true, force: true });
  }
  for (const note of notes) console.log(note);
  return {
    title: 'Collector capacity',
    method:
      `One collector with otel-collector.yaml (identity, allow-list filter and transform, batch, ` +
      `Prometheus exporter, log file), driven over OTLP/HTTP with one process's real exports ` +
      `(under ${processes} instance ids) and sampled check records, ${seconds} s per step.`,
    tables,
    bars: [],
    notes,
  };
}
