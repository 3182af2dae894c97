// argcheck's MCP seam, hot, this build against a baseline build of
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
const ROUNDS = options.number('rounds', 21);
const CALLS = options.number('calls', 100_000);
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

/** ns per call over `CALLS` calls. */
function time(made: StandIn): number {
  const start = nowNs();
  for (let i = 0; i < CALLS; i++) made.callTool(PARAMS[i % PARAMS.length]);
  return (nowNs() - start) / CALLS;
}

for (let round = 0; round < 3; round++) for (const v of variants) time(v.client);
const perRound: Record<string, number[]> = { baseline: [], current: [] };
for (let round = 0; round < ROUNDS; round++) {
  for (const v of rotated(variants, round)) perRound[v.key]?.push(time(v.client));
}
const ratios = (key: string) =>
  (perRound[key] ?? []).map((ns, i) => ns / (perRound.baseline?.[i] ?? ns));
console.log(`ns per callTool through the seam, median of ${ROUNDS} rounds of ${CALLS} calls:`);
for (const { key } of variants) {
  const ns = median(perRound[key] ?? []);
  console.log(`  ${key.padEnd(9)} ${num(ns, 0).padStart(6)} ns   ×${num(median(ratios(key)), 3)}`);
}
process.exit(0);
