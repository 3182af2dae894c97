// argcheck's MCP seam, this build against a baseline build of
// @argcheck/instrumentation, in one process: each instance wraps a stand-in
// client (`callTool` returns at once, so the seam is all there is to time),
// and the two alternate round by round. One instance each: a second instance
// of a build makes its call sites polymorphic, which would slow that side
// alone. For checking a change to the call
// path on a noisy machine, where runs of `npm run bench` minutes apart differ
// more than the change does. Not one of `npm run bench`'s benchmarks: it
// needs a baseline.
//
//   git stash && npm run build && rm -rf .cache/seam-baseline \
//     && cp -r packages/instrumentation/build .cache/seam-baseline && git stash pop && npm run build
//   node build/bench/seam-ab.js [--rounds 21] [--calls 100000]
//   node build/bench/seam-ab.js --evict-mb 4 [--rounds 15] [--calls 2000]
//
// With `--evict-mb`, the caches are made cold before every call: a buffer of
// that many MiB is read through, one read per cache line, and the call is
// timed alone. Inside a framework's turn a call finds argcheck's code and
// data evicted by the framework's own work, and costs 4 to 10 times what it
// costs hot: this mode shows that cost, which follows how much code and data
// a call touches more than how much work it does. The time of a call to a
// client no instrumentation wraps, made and timed the same way (the timer, a
// cold call), is subtracted from both builds' figures. Cold figures move
// with the machine much more than hot ones: with the same build on both
// sides, three runs of 21 rounds gave ratios of 0.93 to 1.12, and the
// added time moved between 1.0 and 1.8 µs. Run it several times.
//
// The baseline is the instrumentation package alone: it runs against this
// build's @argcheck/core, resolved from the workspace's node_modules.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { registerInstrumentations } from '@opentelemetry/instrumentation';
import { BatchLogRecordProcessor, LoggerProvider } from '@opentelemetry/sdk-logs';
import { MeterProvider } from '@opentelemetry/sdk-metrics';
import { staticValueSet } from '@argcheck/core';
import type * as Instrumentation from '@argcheck/instrumentation';
import { repoRoot } from './lib/paths.js';
import { num, parseOptions } from './lib/report.js';
import { median, nowNs, rotated } from './lib/stats.js';
import { discardingExporter } from './lib/telemetry.js';

type Module = typeof Instrumentation;

const options = parseOptions(process.argv.slice(2));
const EVICT_MB = options.number('evict-mb', 0);
const COLD = EVICT_MB > 0;
const ROUNDS = options.number('rounds', COLD ? 15 : 21);
const CALLS = options.number('calls', COLD ? 2_000 : 100_000);
const baselineEntry = join(repoRoot, '.cache', 'seam-baseline', 'src', 'index.js');
if (!existsSync(baselineEntry)) {
  throw new Error(
    `no baseline at ${baselineEntry}: see the comment at the top of bench/seam-ab.ts`,
  );
}
const baseline = (await import(baselineEntry)) as Module;
const current = await import('@argcheck/instrumentation');

const CODES = Array.from({ length: 40 }, (_, i) => `CODE_${String(i).padStart(2, '0')}`);
// 5 % out of set, as in the other benchmarks: one code in twenty written in lower case.
const PARAMS = CODES.map((code, i) => ({
  name: 'refund_order',
  arguments: { order_id: `o-${i}`, reason_code: i % 20 === 7 ? code.toLowerCase() : code },
}));
const LISTED = {
  tools: [
    {
      name: 'refund_order',
      description: 'Refund an order.',
      inputSchema: {
        type: 'object',
        properties: { order_id: { type: 'string' }, reason_code: { type: 'string' } },
      },
    },
  ],
};

/** A client as far as the seam reads it: `callTool` answers at once. */
class StandIn {
  callTool(params: unknown): unknown {
    return params;
  }
  listTools(): Promise<unknown> {
    return Promise.resolve(LISTED);
  }
  getServerVersion(): unknown {
    return { name: 'shop' };
  }
}

const meterProvider = new MeterProvider();
const loggerProvider = new LoggerProvider({
  processors: [new BatchLogRecordProcessor({ exporter: discardingExporter() })],
});

async function client(module: Module): Promise<StandIn> {
  const inst = new module.ToolArgumentInstrumentation({
    valueSets: { 'refunds.reason_codes': staticValueSet(CODES) },
    checkedArguments: { refund_order: { reason_code: 'refunds.reason_codes' } },
    mcp: { enabled: false },
  });
  registerInstrumentations({ instrumentations: [inst], meterProvider, loggerProvider });
  await inst.ready();
  const made = new StandIn();
  inst.instrumentMcpClient(made);
  await made.listTools();
  return made;
}

const variants = [
  { key: 'baseline', client: await client(baseline) },
  { key: 'current', client: await client(current) },
];

/** Read through `EVICT_MB` MiB, one read per 64-byte line: what was cached before is evicted. */
const evictee = new Float64Array((EVICT_MB * 1024 * 1024) / 8);
let evicted = 0;
function evict(): void {
  let sum = 0;
  for (let i = 0; i < evictee.length; i += 8) sum += evictee[i] as number;
  evicted += sum;
}

/** ns per call over `CALLS` calls: hot, the calls in a row; cold, each timed alone after `evict()`. */
function time(made: StandIn): number {
  if (!COLD) {
    const start = nowNs();
    for (let i = 0; i < CALLS; i++) made.callTool(PARAMS[i % PARAMS.length]);
    return (nowNs() - start) / CALLS;
  }
  let total = 0;
  for (let i = 0; i < CALLS; i++) {
    evict();
    const start = nowNs();
    made.callTool(PARAMS[i % PARAMS.length]);
    total += nowNs() - start;
  }
  return total / CALLS;
}

// Cold, what a call costs without argcheck (the timer, a cold call) is measured alongside.
const floor = { key: 'floor', client: new StandIn() };
const timed = COLD ? [...variants, floor] : variants;
for (let round = 0; round < 3; round++) for (const v of timed) time(v.client);
const perRound: Record<string, number[]> = { baseline: [], current: [], floor: [] };
for (let round = 0; round < ROUNDS; round++) {
  for (const v of rotated(timed, round)) perRound[v.key]?.push(time(v.client));
}
const floorNs = COLD ? median(perRound.floor ?? []) : 0;
const added = (key: string) => (perRound[key] ?? []).map((ns) => ns - floorNs);
const ratios = (key: string) => {
  const base = added('baseline');
  return added(key).map((ns, i) => ns / (base[i] ?? ns));
};
console.log(
  COLD
    ? `ns argcheck adds to a callTool with the caches cold (${EVICT_MB} MiB read before each), ` +
        `median of ${ROUNDS} rounds of ${CALLS} calls, less ${num(floorNs, 0)} ns of an unwrapped call:`
    : `ns per callTool through the seam, median of ${ROUNDS} rounds of ${CALLS} calls:`,
);
for (const { key } of variants) {
  const ns = median(added(key));
  console.log(`  ${key.padEnd(9)} ${num(ns, 0).padStart(6)} ns   ×${num(median(ratios(key)), 3)}`);
}
// Read, so that the eviction is not optimised away.
if (Number.isNaN(evicted)) console.log('(the eviction buffer read NaN)');
process.exit(0);
