// `npm run soak`: minutes of sustained MCP tool calls through an instrumented
// client, while the value-set owner fails and recovers and the OTLP endpoint
// goes away and comes back. Afterwards: no call failed, no unhandled
// rejection, heap flat, and the counters add up to the calls made — in the
// process and at the collector. Build first (`npm run build`), then:
//   node --expose-gc soak/run.mjs [--duration 180|3m] [--rate 100] [--mode observe|normalise] [--sink] [--no-write]
// Writes its figures to bench/results/soak.json and renders docs/reliability.md
// (bench/reliability/run.mjs), unless --no-write.
import { spawnSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath, URL } from 'node:url';
import { OTLPLogExporter } from '@opentelemetry/exporter-logs-otlp-http';
import { OTLPMetricExporter } from '@opentelemetry/exporter-metrics-otlp-http';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { BatchLogRecordProcessor, LoggerProvider } from '@opentelemetry/sdk-logs';
import { MeterProvider, PeriodicExportingMetricReader } from '@opentelemetry/sdk-metrics';
import { httpValueSet } from '@argcheck/core';
import { ToolArgumentInstrumentation } from '@argcheck/instrumentation';
import { argcheckViews } from '@argcheck/instrumentation/views';
import { createAgent } from '../packages/cli/build/src/demo/agent.js';
import { connectMcpServer } from '../packages/cli/build/src/demo/mcp-connection.js';
import { startOwnerServer } from '../packages/cli/build/src/demo/owner-server.js';
import { PHASES } from '../packages/cli/build/src/demo/scenario.js';
import { CHECKED_ARGUMENTS } from '../packages/cli/build/src/demo/tools.js';
import {
  activeHandles,
  componentIds,
  REASON_CODES,
  SET_COMPONENTS,
  SET_HANDLES,
  SET_REASON_CODES,
  SET_WAREHOUSES,
  WAREHOUSES,
} from '../packages/cli/build/src/demo/value-set-data.js';
import { writeFormatted } from '../bench/lib/markdown.mjs';
import { argValue, MiB, num, requireGc, retainedBytes } from '../bench/lib/report.mjs';
import { countingProcessor, PullReader, sumOf } from '../bench/lib/telemetry.mjs';
import { collectorBinary, loopbackSink, realCollector, sumSamples } from './otlp-endpoint.mjs';

const gc = requireGc();
const ROOT = fileURLToPath(new URL('../', import.meta.url));
const RESULTS = `${ROOT}bench/results/soak.json`;

function seconds(text) {
  const m = /^(\d+(?:\.\d+)?)(s|m)?$/.exec(text);
  if (!m) throw new Error(`--duration takes seconds (180) or minutes (3m), got ${text}`);
  return Number(m[1]) * (m[2] === 'm' ? 60 : 1);
}
const DURATION_S = seconds(argValue('duration') ?? '180');
const RATE = Number(argValue('rate') ?? 100);
// Reject mode answers some calls with a repair message instead of sending them; the soak's
// "no call failed" needs every call sent.
const MODE = argValue('mode') ?? 'observe';
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
const SETS = [SET_REASON_CODES, SET_COMPONENTS, SET_HANDLES, SET_WAREHOUSES];

/**
 * What goes wrong when, as shares of the run: every owner down, then one
 * owner down; the OTLP endpoint down twice. The last stretch is calm, so that
 * every set is fresh and every export has landed when the run is judged.
 */
const SCHEDULE = [
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
const unhandled = [];
process.on('unhandledRejection', (reason) => unhandled.push(String(reason)));
const uncaught = [];
process.on('uncaughtExceptionMonitor', (error) => uncaught.push(String(error)));

const seed = 42;
const components = componentIds(seed);
const handles = activeHandles(seed);
const owner = await startOwnerServer({
  [SET_REASON_CODES]: REASON_CODES,
  [SET_COMPONENTS]: components.map((value) => ({ value })),
  [SET_HANDLES]: handles.map((value) => ({ value })),
  [SET_WAREHOUSES]: WAREHOUSES.map((value) => ({ value })),
});

const bin = process.argv.includes('--sink') ? undefined : collectorBinary();
if (bin === undefined && !process.argv.includes('--sink')) {
  console.log('the collector is not built (bash deploy/collector/build.sh): using a loopback sink');
}
const endpoint = bin ? await realCollector(bin) : await loopbackSink();
await endpoint.start();
console.log(`OTLP to ${endpoint.description}`);

const exportsSeen = { metrics: { ok: 0, failed: 0 }, logs: { ok: 0, failed: 0 } };
function watch(exporter, stats) {
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
  valueSets: Object.fromEntries(SETS.map((set) => [set, httpValueSet(owner.urlFor(set))])),
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
const mcp = await connectMcpServer((client) => inst.instrumentMcpClient(client));

// --- the load
const agent = createAgent(seed, { components, handles });
// The demo's "provider migrated" mix of mismatch shapes, less `not_string`: a
// number where the tool's schema says string is refused by the MCP server
// itself, which would be a failed call that argcheck had no part in.
const demoProfile = PHASES.find((p) => p.name === 'provider_migration').profile;
const profile = {
  ...demoProfile,
  shapes: {
    ...demoProfile.shapes,
    reason_code: { ...demoProfile.shapes.reason_code, not_string: 0 },
  },
};
const valuesIn = (tool, args) =>
  tool === 'transfer_stock' ? args.items.length : tool === 'create_ticket' ? 2 : 1;

const started = Date.now();
const elapsed = () => (Date.now() - started) / 1000;
const calls = { made: 0, failed: 0, checkedValues: 0, byTool: {}, failures: [] };
/**
 * Call latencies in fixed log-scale buckets (1 % wide, 1 µs to 100 s), so that
 * the soak's own bookkeeping does not grow with the calls it makes and show up
 * as heap growth.
 */
function latencyHistogram() {
  const STEP = Math.log(1.01);
  const counts = new Float64Array(Math.ceil(Math.log(1e8) / STEP) + 1);
  let n = 0;
  return {
    add(ms) {
      const us = Math.max(1, ms * 1000);
      counts[Math.min(counts.length - 1, Math.floor(Math.log(us) / STEP))] += 1;
      n += 1;
    },
    get n() {
      return n;
    },
    /** Upper edge of the bucket holding quantile `q`, in ms. */
    quantile(q) {
      if (n === 0) return NaN;
      let seen = 0;
      for (let b = 0; b < counts.length; b++) {
        seen += counts[b];
        if (seen >= q * n) return Math.exp((b + 1) * STEP) / 1000;
      }
      return NaN;
    },
  };
}
const latency = {
  calm: latencyHistogram(),
  ownerDown: latencyHistogram(),
  otlpDown: latencyHistogram(),
};
const state = { ownerDown: false, otlpDown: false };
const deadline = started + DURATION_S * 1000;

async function worker(index) {
  // Each worker paces itself to RATE / WORKERS calls per second.
  const gap = (1000 * WORKERS) / RATE;
  let next = Date.now() + index * (gap / WORKERS);
  while (Date.now() < deadline) {
    const { tool, args } = agent.next(profile);
    const bucket = state.ownerDown ? 'ownerDown' : state.otlpDown ? 'otlpDown' : 'calm';
    const t0 = process.hrtime.bigint();
    const reply = await mcp.callTool(tool, args);
    latency[bucket].add(Number(process.hrtime.bigint() - t0) / 1e6);
    calls.made += 1;
    calls.byTool[tool] = (calls.byTool[tool] ?? 0) + 1;
    calls.checkedValues += valuesIn(tool, args);
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
const events = [];
async function faults() {
  for (const step of SCHEDULE) {
    const at = started + step.at * DURATION_S * 1000;
    if (at > Date.now()) await sleep(at - Date.now());
    if (step.owner?.down) for (const s of step.owner.down) owner.setDown(s, true);
    if (step.owner?.up) for (const s of step.owner.up) owner.setDown(s, false);
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

const heap = [];
const status = { maxStaleAgeS: 0, states: {}, unavailableSeen: {} };
async function observe() {
  let lastHeap = 0;
  while (Date.now() < deadline) {
    for (const s of inst.valueSets.status()) {
      status.states[s.state] = (status.states[s.state] ?? 0) + 1;
      if (s.state === 'stale')
        status.maxStaleAgeS = Math.max(status.maxStaleAgeS, s.ageSeconds ?? 0);
      if (s.state === 'unavailable') {
        status.unavailableSeen[s.reason] = (status.unavailableSeen[s.reason] ?? 0) + 1;
      }
    }
    if (Date.now() - lastHeap >= HEAP_EVERY_MS) {
      lastHeap = Date.now();
      // A reader that never collects makes the SDK keep every collection the
      // other reader makes for it: collect, as a scrape would, so that the
      // heap shows argcheck's growth and not the test's.
      await pull.collect();
      gc();
      heap.push({ at: Math.round(elapsed()), mib: retainedBytes() / MiB });
      const { made, failed } = calls;
      console.log(
        `  ${num(elapsed(), 0).padStart(4)} s  ${num(made)} calls, ${failed} failed, ` +
          `heap ${num(heap.at(-1).mib, 1)} MiB, exports ok/failed: metrics ` +
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
const fetchOutcomes = {};
for (const sm of resourceMetrics.scopeMetrics) {
  for (const m of sm.metrics) {
    if (m.descriptor.name !== 'tool_argument_value_set_fetch') continue;
    for (const p of m.dataPoints) {
      const outcome = p.attributes.outcome;
      fetchOutcomes[outcome] = (fetchOutcomes[outcome] ?? 0) + p.value;
    }
  }
}
const received = await mcp.received();
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
const first = afterWarmUp.slice(0, 3).map((h) => h.mib);
const last = afterWarmUp.slice(-3).map((h) => h.mib);
const med = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1];
const heapGrowth = afterWarmUp.length >= 2 ? med(last) - med(first) : NaN;
const slope = (() => {
  const n = afterWarmUp.length;
  if (n < 2) return NaN;
  const mx = afterWarmUp.reduce((a, h) => a + h.at, 0) / n;
  const my = afterWarmUp.reduce((a, h) => a + h.mib, 0) / n;
  const sxy = afterWarmUp.reduce((a, h) => a + (h.at - mx) * (h.mib - my), 0);
  const sxx = afterWarmUp.reduce((a, h) => a + (h.at - mx) ** 2, 0);
  return (sxy / sxx) * 60;
})();

const checks = [
  {
    name: 'no tool call failed',
    figure: `${calls.failed} of ${num(calls.made)}`,
    ok: calls.failed === 0,
  },
  {
    name: 'every call reached the MCP server',
    figure: `${num(receivedTotal)} received of ${num(calls.made)} made`,
    ok: receivedTotal === calls.made,
  },
  {
    name: 'no unhandled rejection or uncaught exception',
    figure: `${unhandled.length} rejections, ${uncaught.length} exceptions`,
    ok: unhandled.length === 0 && uncaught.length === 0,
  },
  {
    name: `heap flat after warm-up (within ${HEAP_BAR_MIB} MiB, and growing under ${SLOPE_BAR} MiB/min)`,
    figure: judgeHeap
      ? `${heapGrowth >= 0 ? '+' : ''}${num(heapGrowth, 2)} MiB (${num(slope, 2)} MiB/min)`
      : `not judged: ${afterWarmUp.length} samples after warm-up, too few for a trend (run 90 s or more)`,
    ok: !judgeHeap || (Math.abs(heapGrowth) <= HEAP_BAR_MIB && slope <= SLOPE_BAR),
  },
  {
    name: 'checked + unavailable counters add up to the argument values sent',
    figure: `${num(counted.checked)} + ${num(counted.unavailable)} = ${num(counted.checked + counted.unavailable)} of ${num(calls.checkedValues)}`,
    ok: counted.checked + counted.unavailable === calls.checkedValues,
  },
  {
    name: `the same totals at the ${endpoint.kind} after its outages`,
    figure: `${num(atCollector.checked)} + ${num(atCollector.unavailable)} = ${num(atCollector.checked + atCollector.unavailable)}`,
    ok: atCollector.checked + atCollector.unavailable === expectedAtCollector,
  },
];

const result = {
  date: new Date(started).toISOString().replace(/\.\d+Z$/, 'Z'),
  command: `node --expose-gc soak/run.mjs --duration ${DURATION_S}`,
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
  calls: {
    made: calls.made,
    failed: calls.failed,
    byTool: calls.byTool,
    checkedValues: calls.checkedValues,
    failures: calls.failures,
  },
  receivedByServer: receivedTotal,
  counted,
  atCollector,
  fetchOutcomes,
  ownerRequests: owner.requests(),
  exports: exportsSeen,
  logs: { emitted: emittedLogs.emitted, atCollector: logsAtCollector },
  providerStatus: status,
  latencyMs: Object.fromEntries(
    Object.entries(latency).map(([k, h]) => [
      k,
      { n: h.n, p50: h.quantile(0.5), p99: h.quantile(0.99) },
    ]),
  ),
  heap: { samples: heap, growthMiB: heapGrowth, slopeMiBPerMin: slope },
  unhandledRejections: unhandled.slice(0, 5),
  uncaughtExceptions: uncaught.slice(0, 5),
  checks,
  passed: checks.every((c) => c.ok),
};

await mcp.close();
inst.close();
await meterProvider.shutdown().catch(() => undefined);
await loggerProvider.shutdown().catch(() => undefined);
await endpoint.close();
await owner.close();

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

if (!process.argv.includes('--no-write')) {
  mkdirSync(`${ROOT}bench/results`, { recursive: true });
  await writeFormatted(RESULTS, JSON.stringify(result));
  console.log(`wrote ${RESULTS}`);
  const render = spawnSync(process.execPath, [`${ROOT}bench/reliability/run.mjs`], {
    cwd: ROOT,
    stdio: 'inherit',
  });
  if (render.status !== 0) process.exitCode = 1;
}
if (!result.passed) process.exitCode = 1;
