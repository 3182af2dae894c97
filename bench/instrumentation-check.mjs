// Cost of one checked, in-set argument through ToolArgumentInstrumentation with
// real SDK providers registered, beside the alternatives people reach for.
// Build first (`npm run build`), then:
//   node bench/instrumentation-check.mjs
// Prints the median nanoseconds per operation over many timed batches.
import { cpus } from 'node:os';
import { registerInstrumentations } from '@opentelemetry/instrumentation';
import { BatchLogRecordProcessor, LoggerProvider } from '@opentelemetry/sdk-logs';
import { MeterProvider, MetricReader } from '@opentelemetry/sdk-metrics';
import Ajv from 'ajv';
import promClient from 'prom-client';
import { z } from 'zod';
import { staticValueSet } from '@argcheck/core';
import { ToolArgumentInstrumentation } from '@argcheck/instrumentation';

const CODES = ['DAMAGED', 'LATE', 'NOT_AS_DESCRIBED', 'DUPLICATE_CHARGE', 'WRONG_ITEM', 'OTHER'];
const BATCH = 10_000;
const BATCHES = 300;

class PullReader extends MetricReader {
  onForceFlush() {
    return Promise.resolve();
  }
  onShutdown() {
    return Promise.resolve();
  }
}

/** Discards records, as a remote exporter would from the process's point of view. */
const discard = {
  export: (_records, done) => done({ code: 0 }),
  shutdown: () => Promise.resolve(),
  forceFlush: () => Promise.resolve(),
};

function median(values) {
  const sorted = Float64Array.from(values).sort();
  return sorted[Math.floor(sorted.length / 2)];
}

/** Median ns per call of `op(i)`, timed in batches of BATCH calls. */
function measure(op) {
  for (let i = 0; i < BATCH * 20; i++) op(i); // warm up, let the JIT settle
  const perOp = [];
  for (let b = 0; b < BATCHES; b++) {
    const start = process.hrtime.bigint();
    for (let i = 0; i < BATCH; i++) op(i);
    perOp.push(Number(process.hrtime.bigint() - start) / BATCH);
  }
  return median(perOp);
}

// --- argcheck, telemetry on: MeterProvider and LoggerProvider registered.
const reader = new PullReader();
const meterProvider = new MeterProvider({ readers: [reader] });
const loggerProvider = new LoggerProvider({
  processors: [new BatchLogRecordProcessor({ exporter: discard, maxQueueSize: 4096 })],
});
const inst = new ToolArgumentInstrumentation({
  valueSets: { 'refunds.reason_codes': staticValueSet(CODES) },
  checkedArguments: { refund_order: { reason_code: 'refunds.reason_codes' } },
  mcp: { enabled: false },
});
registerInstrumentations({ instrumentations: [inst], meterProvider, loggerProvider });
await inst.ready();
const args = { order_id: 'o-1', reason_code: 'LATE' };
let sink = 0;

// --- the alternatives, with the same five attributes where they take any.
const attributes = {
  tool: 'refund_order',
  argument: 'reason_code',
  set: 'refunds.reason_codes',
  in_set: 'true',
  in_set_normalised: 'true',
};
const counter = meterProvider.getMeter('bench').createCounter('bench_value_check');
const promCounter = new promClient.Counter({
  name: 'bench_value_check_total',
  help: 'bench',
  labelNames: Object.keys(attributes),
  registers: [],
});
const ajvEnum = new Ajv().compile({ type: 'string', enum: CODES });
const zodEnum = z.enum(CODES);
const set = new Set(CODES);

const results = [
  [
    'inst.check, in-set, telemetry on',
    () => {
      sink += inst.check('refund_order', args).findings.length;
    },
  ],
  ['sdk-metrics counter.add, 5 attributes', () => counter.add(1, attributes)],
  ['prom-client inc, 5 labels', () => promCounter.inc(attributes)],
  ['ajv compiled enum', () => (sink += ajvEnum('LATE') ? 1 : 0)],
  ['zod enum safeParse', () => (sink += zodEnum.safeParse('LATE').success ? 1 : 0)],
  ['Set.has', () => (sink += set.has('LATE') ? 1 : 0)],
].map(([name, op]) => [name, measure(op)]);

// Collection must see every check: the counts are exact, not sampled.
const { resourceMetrics } = await reader.collect();
const checked = resourceMetrics.scopeMetrics
  .flatMap((s) => s.metrics)
  .find((m) => m.descriptor.name === 'tool_argument_value_check')
  ?.dataPoints.reduce((n, p) => n + p.value, 0);

console.log(
  `node ${process.version}, ${cpus()[0]?.model ?? 'unknown cpu'} (${cpus().length} cpus)`,
);
console.log(`median ns per operation, ${BATCHES} batches of ${BATCH}:`);
for (const [name, ns] of results)
  console.log(`  ${name.padEnd(40)} ${ns.toFixed(1).padStart(8)} ns`);
console.log(`(tool_argument_value_check total ${checked}; sink ${sink > 0 ? 'used' : 'unused'})`);
inst.close();
await meterProvider.shutdown();
await loggerProvider.shutdown();
