// `npm run soak`: minutes of sustained MCP tool calls through an instrumented
// client, while the value-set owners fail and recover and the OTLP endpoint
// goes away and comes back. Afterwards: no call failed, no unhandled
// rejection, heap flat, and the counters add up to the calls made — in the
// process and at the collector.
//   npm run soak -- [--duration 180|3m] [--rate 100] [--mode observe|normalise] [--sink] [--no-write]
// Writes its figures to soak/result.json and renders docs/reliability.md again
// (`npm run reliability -- --render`), unless --no-write.
import { spawnSync } from 'node:child_process';
import { setTimeout as sleep } from 'node:timers/promises';
import { OTLPLogExporter } from '@opentelemetry/exporter-logs-otlp-http';
import { OTLPMetricExporter } from '@opentelemetry/exporter-metrics-otlp-http';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { BatchLogRecordProcessor, LoggerProvider } from '@opentelemetry/sdk-logs';
import { MeterProvider, PeriodicExportingMetricReader } from '@opentelemetry/sdk-metrics';
import { httpValueSet, type CheckMode } from '@argcheck/core';
import { ToolArgumentInstrumentation } from '@argcheck/instrumentation';
import { argcheckViews } from '@argcheck/instrumentation/views';
import { writeFormatted } from '../bench/lib/markdown.js';
import { repoRoot } from '../bench/lib/paths.js';
import { MiB, num, parseOptions, requireGc, retainedBytes, signed } from '../bench/lib/report.js';
import { countingProcessor } from '../bench/lib/telemetry.js';
import { PullReader, sumBy, sumOf } from '@argcheck/testing/metrics';
import { createAgent } from './lib/agent.js';
import {
  activeHandles,
  CHECKED_ARGUMENTS,
  componentIds,
  REASON_CODES,
  SET_COMPONENTS,
  SET_HANDLES,
  SET_REASON_CODES,
  SET_WAREHOUSES,
  SETS,
  WAREHOUSES,
} from './lib/data.js';
import { latencyHistogram, slopePerMinute } from './lib/latency.js';
import { collectorBinary, loopbackSink, realCollector, sumSamples } from './lib/otlp-endpoint.js';
import { ValueSetOwner } from '@argcheck/testing/owners';
import { connectShop } from './lib/shop.js';
import type { SoakCheck, SoakResult } from './result.js';

const gc = requireGc();
const RESULTS = `${repoRoot}soak/result.json`;
const argv = process.argv.slice(2);
const options = parseOptions(argv);

function seconds(text: string): number {
  const m = /^(\d+(?:\.\d+)?)(s|m)?$/.exec(text);
  if (!m) throw new Error(`--duration takes seconds (180) or minutes (3m), got ${text}`);
  return Number(m[1]) * (m[2] === 'm' ? 60 : 1);
}
const DURATION_S = seconds(options.string('duration', '180'));
const RATE = options.number('rate', 100);
// Reject mode answers some calls with a repair message instead of sending them; the soak's
// "no call failed" needs every call sent.
const MODE = options.string('mode', 'observe') as CheckMode;
if (MODE !== 'observe' && MODE !== 'normalise') throw new Error('--mode is observe or normalise');
const WORKERS = 4;
const TTL_MS = 5_000;
const MAX_STALE_MS = 20_000;
const FETCH_TIMEOUT_MS = 1_000;
const EXPORT_INTERVAL_MS = 2_000;
const HEAP_EVERY_MS = 10_000;
const HEAP_BAR_MIB = 5;
// A steady climb is a leak however little it adds in minutes: 0.5 MiB/min is 30 MiB an hour.
const SLOPE_BAR = 0.5;

interface Step {
  at: number;
  label: string;
  owner?: { down?: readonly string[]; up?: readonly string[] };
  otlp?: 'stop' | 'start';
}

/**
 * What goes wrong when, as shares of the run: every owner down, then one
 * owner down; the OTLP endpoint down twice. The last stretch is calm, so that
 * every set is fresh and every export has landed when the run is judged.
 */
const SCHEDULE: Step[] = [
  { at: 0.15, label: 'every owner answers 503', owner: { down: SETS } },
  { at: 0.35, label: 'the owners are back', owner: { up: SETS } },
  { at: 0.4, label: 'the OTLP endpoint goes away', otlp: 'stop' },
  { at: 0.55, label: 'the OTLP endpoint is back', otlp: 'start' },
  { at: 0.6, label: 'the identity owner answers 503', owner: { down: [SET_HANDLES] } },
  { at: 0.7, label: 'the identity owner is back', owner: { up: [SET_HANDLES] } },
  { at: 0.75, label: 'the OTLP endpoint goes away', otlp: 'stop' },
  { at: 0.85, label: 'the OTLP endpoint is back', otlp: 'start' },
];

// --- everything a user would run, started for real
const unhandled: string[] = [];
process.on('unhandledRejection', (reason) => unhandled.push(String(reason)));
const uncaught: string[] = [];
process.on('uncaughtExceptionMonitor', (error) => uncaught.push(String(error)));

const seed = 42;
const components = componentIds(seed);
const handles = activeHandles(seed);
// The owning services, played by one loopback owner: `GET /sets/<name>`.
const owner = new ValueSetOwner();
owner.define(SET_REASON_CODES, REASON_CODES);
owner.define(
  SET_COMPONENTS,
  components.map((value) => ({ value })),
);
owner.define(
  SET_HANDLES,
  handles.map((value) => ({ value })),
);
owner.define(
  SET_WAREHOUSES,
  WAREHOUSES.map((value) => ({ value })),
);
await owner.start();
/** What the owner answered, per set and status code. */
const ownerRequests = (): Record<string, Record<string, number>> => {
  const out: Record<string, Record<string, number>> = {};
  for (const [key, count] of owner.answered) {
    const at = key.lastIndexOf('/');
    const status = key.slice(at + 1) === 'success' ? '200' : '503';
    (out[key.slice(0, at)] ??= {})[status] = count;
  }
  return out;
};

const sink = argv.includes('--sink');
const bin = sink ? undefined : collectorBinary();
if (bin === undefined && !sink) {
  console.log('the collector is not built (bash deploy/collector/build.sh): using a loopback sink');
}
const endpoint = bin === undefined ? await loopbackSink() : await realCollector(bin);
await endpoint.start();
console.log(`OTLP to ${endpoint.description}`);

const exportsSeen = { metrics: { ok: 0, failed: 0 }, logs: { ok: 0, failed: 0 } };
/** An exporter of metrics or of log records: both hand `done` an `ExportResult`. */
interface Exporter<T> {
  export(items: T, done: (result: { code: number }) => void): void;
}

/** Counts the outcome of every export `exporter` makes. */
function watch<T, E extends Exporter<T>>(exporter: E, stats: { ok: number; failed: number }): E {
  const send = exporter.export.bind(exporter);
  exporter.export = (items, done) =>
    send(items, (result) => {
      if (result.code === 0) stats.ok += 1;
      else stats.failed += 1;
      done(result);
    });
  return exporter;
}
const resource = resourceFromAttributes({
  'service.name': 'argcheck-soak',
  'service.instance.id': 'soak-1',
});
const pull = new PullReader();
const meterProvider = new MeterProvider({
  resource,
  views: argcheckViews(),
  readers: [
    pull,
    new PeriodicExportingMetricReader({
      exporter: watch(
        new OTLPMetricExporter({ url: `${endpoint.url}v1/metrics`, timeoutMillis: 1_000 }),
        exportsSeen.metrics,
      ),
      exportIntervalMillis: EXPORT_INTERVAL_MS,
      exportTimeoutMillis: 1_000,
    }),
  ],
});
const emittedLogs = countingProcessor();
const loggerProvider = new LoggerProvider({
  resource,
  processors: [
    emittedLogs,
    new BatchLogRecordProcessor({
      exporter: watch(
        new OTLPLogExporter({ url: `${endpoint.url}v1/logs`, timeoutMillis: 1_000 }),
        exportsSeen.logs,
      ),
      scheduledDelayMillis: 1_000,
      exportTimeoutMillis: 1_000,
    }),
  ],
});
const inst = new ToolArgumentInstrumentation({
  valueSets: Object.fromEntries(SETS.map((set) => [set, httpValueSet(owner.url(set))])),
  checkedArguments: CHECKED_ARGUMENTS,
  mode: MODE,
  ttlMs: TTL_MS,
  maxStaleMs: MAX_STALE_MS,
  fetchTimeoutMs: FETCH_TIMEOUT_MS,
  mcp: { enabled: false },
});
inst.setMeterProvider(meterProvider);
inst.setLoggerProvider(loggerProvider);
await inst.ready();
const shop = await connectShop((client) => inst.instrumentMcpClient(client));

// --- the load
const agent = createAgent(seed, { components, handles });
const started = Date.now();
const elapsed = () => (Date.now() - started) / 1000;
const calls = {
  made: 0,
  failed: 0,
  checkedValues: 0,
  byTool: {} as Record<string, number>,
  failures: [] as string[],
};
const latency = {
  calm: latencyHistogram(),
  ownerDown: latencyHistogram(),
  otlpDown: latencyHistogram(),
};
const state = { ownerDown: false, otlpDown: false };
const deadline = started + DURATION_S * 1000;

async function worker(index: number): Promise<void> {
  // Each worker paces itself to RATE / WORKERS calls per second.
  const gap = (1000 * WORKERS) / RATE;
  let next = Date.now() + index * (gap / WORKERS);
  while (Date.now() < deadline) {
    const { tool, args, checkedValues } = agent.next();
    const bucket = state.ownerDown ? 'ownerDown' : state.otlpDown ? 'otlpDown' : 'calm';
    const t0 = process.hrtime.bigint();
    const reply = await shop.callTool(tool, args);
    latency[bucket].add(Number(process.hrtime.bigint() - t0) / 1e6);
    calls.made += 1;
    calls.byTool[tool] = (calls.byTool[tool] ?? 0) + 1;
    calls.checkedValues += checkedValues;
    if (reply.isError) {
      calls.failed += 1;
      if (calls.failures.length < 5) calls.failures.push(reply.text.slice(0, 200));
    }
    next += gap;
    const wait = next - Date.now();
    if (wait > 0) await sleep(wait);
    else next = Date.now(); // fallen behind: carry on, do not hurry
  }
}

// --- faults on schedule, and what the run looked like meanwhile
const events: { at: number; label: string }[] = [];
async function faults(): Promise<void> {
  for (const step of SCHEDULE) {
    const at = started + step.at * DURATION_S * 1000;
    if (at > Date.now()) await sleep(at - Date.now());
    for (const s of step.owner?.down ?? []) owner.behave(s, 'unavailable');
    for (const s of step.owner?.up ?? []) owner.behave(s, 'serve');
    if (step.owner) state.ownerDown = step.owner.down !== undefined;
    if (step.otlp === 'stop') {
      state.otlpDown = true;
      await endpoint.stop();
    } else if (step.otlp === 'start') {
      await endpoint.start();
      state.otlpDown = false;
    }
    events.push({ at: Math.round(elapsed()), label: step.label });
    console.log(`  ${num(elapsed(), 0).padStart(4)} s  ${step.label}`);
  }
}

const heap: { at: number; mib: number }[] = [];
const status = {
  maxStaleAgeS: 0,
  states: {} as Record<string, number>,
  unavailableSeen: {} as Record<string, number>,
};
async function observe(): Promise<void> {
  let lastHeap = 0;
  while (Date.now() < deadline) {
    for (const s of inst.valueSets.status()) {
      status.states[s.state] = (status.states[s.state] ?? 0) + 1;
      if (s.state === 'stale')
        status.maxStaleAgeS = Math.max(status.maxStaleAgeS, s.ageSeconds ?? 0);
      if (s.state === 'unavailable' && s.reason !== undefined) {
        status.unavailableSeen[s.reason] = (status.unavailableSeen[s.reason] ?? 0) + 1;
      }
    }
    if (Date.now() - lastHeap >= HEAP_EVERY_MS) {
      lastHeap = Date.now();
      // A reader that never collects makes the SDK keep every collection the
      // other reader makes for it: collect, as a scrape would, so that the
      // heap shows argcheck's growth and not the soak's.
      await pull.collect();
      gc();
      const mib = retainedBytes() / MiB;
      heap.push({ at: Math.round(elapsed()), mib });
      console.log(
        `  ${num(elapsed(), 0).padStart(4)} s  ${num(calls.made)} calls, ${calls.failed} failed, ` +
          `heap ${num(mib, 1)} MiB, exports ok/failed: metrics ` +
          `${exportsSeen.metrics.ok}/${exportsSeen.metrics.failed}, logs ${exportsSeen.logs.ok}/${exportsSeen.logs.failed}`,
      );
    }
    await sleep(1_000);
  }
}

console.log(
  `soak: ${DURATION_S} s at ${RATE} calls/s (${WORKERS} workers), mode ${MODE}, ttl ${TTL_MS / 1000} s, ` +
    `maxStale ${MAX_STALE_MS / 1000} s`,
);
await Promise.all([...Array.from({ length: WORKERS }, (_, i) => worker(i)), faults(), observe()]);
const runSeconds = elapsed();

// --- judge
const { resourceMetrics } = await pull.collect();
const counted = {
  checked: sumOf(resourceMetrics, 'tool_argument_value_check'),
  unavailable: sumOf(resourceMetrics, 'tool_argument_check_unavailable'),
  fetches: sumOf(resourceMetrics, 'tool_argument_value_set_fetch'),
};
const fetchOutcomes = sumBy(resourceMetrics, 'tool_argument_value_set_fetch', 'outcome');
const received = await shop.received();
const receivedTotal = Object.values(received).reduce((a, b) => a + b, 0);

// The collector (or sink) must end with the same totals once the last export lands.
await meterProvider.forceFlush();
let atCollector = { checked: 0, unavailable: 0 };
const expectedAtCollector = counted.checked + counted.unavailable;
for (let i = 0; i < 40; i++) {
  const text = await endpoint.scrape().catch(() => '');
  atCollector = {
    checked: sumSamples(text, 'tool_argument_value_check_total'),
    unavailable: sumSamples(text, 'tool_argument_check_unavailable_total'),
  };
  if (atCollector.checked + atCollector.unavailable === expectedAtCollector) break;
  await sleep(500);
  await meterProvider.forceFlush();
}
await loggerProvider.forceFlush();
await sleep(1_500);
const logsAtCollector = endpoint.logRecords();

// The first 30 s (or fifth of the run) warm up: JIT, pools, first fetches.
const afterWarmUp = heap.filter((h) => h.at >= Math.max(30, DURATION_S * 0.2));
// Fewer samples than this say nothing about a trend (runs under about 90 s).
const judgeHeap = afterWarmUp.length >= 6;
const med = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1] ?? NaN;
const first = afterWarmUp.slice(0, 3).map((h) => h.mib);
const last = afterWarmUp.slice(-3).map((h) => h.mib);
const heapGrowth = afterWarmUp.length >= 2 ? med(last) - med(first) : NaN;
const slope = slopePerMinute(afterWarmUp);

const checks: SoakCheck[] = [
  {
    id: 'no_call_failed',
    name: 'no tool call failed',
    figure: `${calls.failed} of ${num(calls.made)}`,
    ok: calls.failed === 0,
  },
  {
    id: 'every_call_reached_the_server',
    name: 'every call reached the MCP server',
    figure: `${num(receivedTotal)} received of ${num(calls.made)} made`,
    ok: receivedTotal === calls.made,
  },
  {
    id: 'no_unhandled_rejection',
    name: 'no unhandled rejection or uncaught exception',
    figure: `${unhandled.length} rejections, ${uncaught.length} exceptions`,
    ok: unhandled.length === 0 && uncaught.length === 0,
  },
  {
    id: 'heap_flat',
    name: `heap flat after warm-up (within ${HEAP_BAR_MIB} MiB, and growing under ${SLOPE_BAR} MiB/min)`,
    figure: judgeHeap
      ? `${signed(heapGrowth)} MiB (${num(slope, 2)} MiB/min)`
      : `not judged: ${afterWarmUp.length} samples after warm-up, too few for a trend (run 90 s or more)`,
    ok: !judgeHeap || (Math.abs(heapGrowth) <= HEAP_BAR_MIB && slope <= SLOPE_BAR),
  },
  {
    id: 'counters_add_up',
    name: 'checked + unavailable counters add up to the argument values sent',
    figure: `${num(counted.checked)} + ${num(counted.unavailable)} = ${num(counted.checked + counted.unavailable)} of ${num(calls.checkedValues)}`,
    ok: counted.checked + counted.unavailable === calls.checkedValues,
  },
  {
    id: 'same_totals_downstream',
    name: `the same totals at the ${endpoint.kind} after its outages`,
    figure: `${num(atCollector.checked)} + ${num(atCollector.unavailable)} = ${num(atCollector.checked + atCollector.unavailable)}`,
    ok: atCollector.checked + atCollector.unavailable === expectedAtCollector,
  },
];

const result: SoakResult = {
  date: new Date(started).toISOString().replace(/\.\d+Z$/, 'Z'),
  command: `npm run soak -- --duration ${DURATION_S}`,
  durationS: Math.round(runSeconds),
  rate: RATE,
  mode: MODE,
  endpoint: endpoint.kind,
  endpointDescription: endpoint.description,
  settings: {
    ttlMs: TTL_MS,
    maxStaleMs: MAX_STALE_MS,
    fetchTimeoutMs: FETCH_TIMEOUT_MS,
    exportIntervalMs: EXPORT_INTERVAL_MS,
  },
  schedule: events,
  calls,
  receivedByServer: receivedTotal,
  counted,
  atCollector,
  fetchOutcomes,
  ownerRequests: ownerRequests(),
  exports: exportsSeen,
  logs: { emitted: emittedLogs.emitted, atCollector: logsAtCollector },
  providerStatus: status,
  latencyMs: {
    calm: summary(latency.calm),
    ownerDown: summary(latency.ownerDown),
    otlpDown: summary(latency.otlpDown),
  },
  heap: { samples: heap, growthMiB: heapGrowth, slopeMiBPerMin: slope },
  unhandledRejections: unhandled.slice(0, 5),
  uncaughtExceptions: uncaught.slice(0, 5),
  checks,
  passed: checks.every((c) => c.ok),
};

function summary(h: ReturnType<typeof latencyHistogram>) {
  return { n: h.n, p50: h.quantile(0.5), p99: h.quantile(0.99) };
}

await shop.close();
inst.close();
await meterProvider.shutdown().catch(() => undefined);
await loggerProvider.shutdown().catch(() => undefined);
await endpoint.close();
await owner.stop();

console.log(
  `\nsoak: ${num(calls.made)} calls in ${num(runSeconds, 0)} s; OTLP to ${endpoint.description}`,
);
for (const c of checks) console.log(`  ${c.ok ? 'ok  ' : 'FAIL'}  ${c.name}: ${c.figure}`);
for (const text of calls.failures) console.log(`  a failed call said: ${text}`);
console.log(
  `  owner fetches by outcome ${JSON.stringify(fetchOutcomes)}; stale age up to ${num(status.maxStaleAgeS, 1)} s; ` +
    `exports ok/failed: metrics ${exportsSeen.metrics.ok}/${exportsSeen.metrics.failed}, logs ${exportsSeen.logs.ok}/${exportsSeen.logs.failed}; ` +
    `log records ${num(emittedLogs.emitted)} emitted, ${num(logsAtCollector)} at the ${endpoint.kind}`,
);
for (const [k, v] of Object.entries(result.latencyMs)) {
  console.log(
    `  callTool ms while ${k}: p50 ${num(v.p50, 2)}, p99 ${num(v.p99, 2)} (${num(v.n)} calls)`,
  );
}

if (!argv.includes('--no-write')) {
  await writeFormatted(RESULTS, JSON.stringify(result));
  console.log(`wrote ${RESULTS}`);
  const render = spawnSync(
    process.execPath,
    [`${repoRoot}build/test/reliability/generate.js`, '--render'],
    { cwd: repoRoot, stdio: 'inherit' },
  );
  if (render.status !== 0) process.exitCode = 1;
}
if (!result.passed) process.exitCode = 1;
