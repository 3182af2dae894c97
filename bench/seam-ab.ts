// One of argcheck's seams, this build against a baseline build of
// @argcheck/instrumentation, in one process, the two alternating round by
// round. One instance each: a second instance of a build makes its call
// sites polymorphic, which would slow that side alone. For checking a change
// to a call path on a noisy machine, where runs of `npm run bench` minutes
// apart differ more than the change does. Not one of `npm run bench`'s
// benchmarks: it needs a baseline.
//
//   git stash && npm run build && rm -rf .cache/seam-baseline \
//     && cp -r packages/instrumentation/build .cache/seam-baseline && git stash pop && npm run build
//   node build/bench/seam-ab.js [--seam mcp] [--rounds 21] [--calls 100000]
//   node build/bench/seam-ab.js --evict-mb 4 [--rounds 15] [--calls 2000]
//
// The seams (`--seam`):
//
// - `mcp` (the default): `callTool` of a stand-in client that returns at
//   once, wrapped by `inst.instrumentMcpClient`, so the seam is all there is
//   to time.
// - `agents-guardrail`: `run({ agent, toolCall })` of
//   `inst.openAIAgentsGuardrail()`, as the OpenAI Agents runner calls it with
//   a JSON text of arguments, then the tool's `invoke` (which the guardrail
//   wrapped to hand the call over), awaited (it needs no SDK).
// - `ai-sdk`: the SDK's own `safeValidateTypes` of a tool's input against the
//   `inputSchema` of `inst.wrapAiSdkTools`' copy (a zod schema), awaited, as
//   the SDK validates a call before `execute`. `ai` needs Node 22: run it in
//   the Node 24 tree (`bash scripts/compat-otel3.sh`, then the baseline made
//   there as above, and `../node24/node_modules/node/bin/node
//   build/bench/seam-ab.js --seam ai-sdk` in `.cache/otel3`).
//
// With `--evict-mb`, the caches are made cold before every call: a buffer of
// that many MiB is read through, one read per cache line, and the call is
// timed alone. Inside a framework's turn a call finds argcheck's code and
// data evicted by the framework's own work, and costs 4 to 10 times what it
// costs hot: this mode shows that cost, which follows how much code and data
// a call touches more than how much work it does. For `mcp`, the time of a
// call to a client no instrumentation wraps, made and timed the same way
// (the timer, a cold call), is subtracted from both builds' figures. Cold
// figures move with the machine much more than hot ones: with the same build
// on both sides, three runs of 21 rounds gave ratios of 0.93 to 1.12, and the
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
const SEAM = options.string('seam', 'mcp');
const SEAMS = ['mcp', 'agents-guardrail', 'ai-sdk'];
if (!SEAMS.includes(SEAM)) throw new Error(`--seam takes one of ${SEAMS.join(', ')}`);
const EVICT_MB = options.number('evict-mb', 0);
const COLD = EVICT_MB > 0;
const ROUNDS = options.number('rounds', COLD ? 15 : 21);
const CALLS = options.number('calls', COLD ? 2_000 : SEAM === 'mcp' ? 100_000 : 50_000);
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
const ARGUMENTS = CODES.map((code, i) => ({
  order_id: `o-${i}`,
  reason_code: i % 20 === 7 ? code.toLowerCase() : code,
}));
const PARAMS = ARGUMENTS.map((args) => ({ name: 'refund_order', arguments: args }));
const TEXTS = ARGUMENTS.map((args) => JSON.stringify(args));
const SCHEMA = {
  type: 'object',
  properties: { order_id: { type: 'string' }, reason_code: { type: 'string' } },
};
const LISTED = {
  tools: [{ name: 'refund_order', description: 'Refund an order.', inputSchema: SCHEMA }],
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

/** Call `i` of a seam: synchronous for `mcp`, a promise for the others. */
type Subject = (i: number) => unknown;

/** What the `ai-sdk` seam uses of the SDK, imported by name (it is not installed on Node 20). */
interface AiSdk {
  tool(definition: object): object;
  zodSchema(schema: unknown): unknown;
  safeValidateTypes(options: { value: unknown; schema: unknown }): Promise<{ success: boolean }>;
  z: { object(shape: object): unknown; string(): unknown };
}

async function aiSdk(): Promise<AiSdk> {
  const load = (name: string) => import(name) as Promise<Record<string, unknown>>;
  const [ai, utils, zod] = await Promise.all([
    load('ai'),
    load('@ai-sdk/provider-utils'),
    load('zod'),
  ]);
  return { ...ai, ...utils, z: zod.z } as unknown as AiSdk;
}

async function subject(module: Module): Promise<Subject> {
  const inst = new module.ToolArgumentInstrumentation({
    valueSets: { 'refunds.reason_codes': staticValueSet(CODES) },
    checkedArguments: { refund_order: { reason_code: 'refunds.reason_codes' } },
    mcp: { enabled: false },
  });
  registerInstrumentations({ instrumentations: [inst], meterProvider, loggerProvider });
  await inst.ready();
  if (SEAM === 'agents-guardrail') {
    const guardrail = inst.openAIAgentsGuardrail();
    const agent = {
      name: 'support',
      tools: [{ type: 'function', name: 'refund_order', parameters: SCHEMA, invoke: () => 0 }],
    };
    const tool = agent.tools[0] as { invoke(...args: unknown[]): unknown };
    // Then the tool's `invoke`, as the runner calls it after the guardrails:
    // the call the guardrail decided is handed over there.
    const call = (i: number) => {
      const toolCall = {
        name: 'refund_order',
        arguments: TEXTS[i % TEXTS.length],
        callId: `c-${i}`,
      };
      return guardrail
        .run({ agent, toolCall })
        .then(() => tool.invoke(undefined, toolCall.arguments, { toolCall }));
    };
    await call(0);
    return call;
  }
  if (SEAM === 'ai-sdk') {
    const sdk = await aiSdk();
    const refund = sdk.tool({
      inputSchema: sdk.zodSchema(
        sdk.z.object({ order_id: sdk.z.string(), reason_code: sdk.z.string() }),
      ),
      execute: () => Promise.resolve('refunded'),
    });
    const schema = (
      inst.wrapAiSdkTools({ refund_order: refund }).refund_order as { inputSchema: unknown }
    ).inputSchema;
    // A fresh object per call, as the SDK parses each call's input anew.
    const call = (i: number) =>
      sdk.safeValidateTypes({ value: { ...ARGUMENTS[i % ARGUMENTS.length] }, schema });
    if (!(await call(0)).success) throw new Error('seam-ab: the AI SDK refused the input');
    return call;
  }
  const made = new StandIn();
  inst.instrumentMcpClient(made);
  await made.listTools();
  return (i) => made.callTool(PARAMS[i % PARAMS.length]);
}

const variants = [
  { key: 'baseline', call: await subject(baseline) },
  { key: 'current', call: await subject(current) },
];

/** Read through `EVICT_MB` MiB, one read per 64-byte line: what was cached before is evicted. */
const evictee = new Float64Array((EVICT_MB * 1024 * 1024) / 8);
let evicted = 0;
function evict(): void {
  let sum = 0;
  for (let i = 0; i < evictee.length; i += 8) sum += evictee[i] as number;
  evicted += sum;
}

const ASYNC = SEAM !== 'mcp';

/**
 * ns per call over `CALLS` calls: hot, the calls in a row; cold, each timed
 * alone after `evict()`. A seam that answers with a promise is awaited
 * before the next call, and its time runs until the promise settles.
 */
async function time(call: Subject): Promise<number> {
  if (!COLD && !ASYNC) {
    const start = nowNs();
    for (let i = 0; i < CALLS; i++) call(i);
    return (nowNs() - start) / CALLS;
  }
  if (!COLD) {
    const start = nowNs();
    for (let i = 0; i < CALLS; i++) await call(i);
    return (nowNs() - start) / CALLS;
  }
  let total = 0;
  for (let i = 0; i < CALLS; i++) {
    evict();
    const start = nowNs();
    if (ASYNC) await call(i);
    else call(i);
    total += nowNs() - start;
  }
  return total / CALLS;
}

// Cold, what an MCP call costs without argcheck (the timer, a cold call) is measured alongside.
const unwrapped = new StandIn();
const floor = { key: 'floor', call: (i: number) => unwrapped.callTool(PARAMS[i % PARAMS.length]) };
const timed = COLD && !ASYNC ? [...variants, floor] : variants;
for (let round = 0; round < 3; round++) for (const v of timed) await time(v.call);
const perRound: Record<string, number[]> = { baseline: [], current: [], floor: [] };
for (let round = 0; round < ROUNDS; round++) {
  for (const v of rotated(timed, round)) perRound[v.key]?.push(await time(v.call));
}
const floorNs = COLD && !ASYNC ? median(perRound.floor ?? []) : 0;
const added = (key: string) => (perRound[key] ?? []).map((ns) => ns - floorNs);
const ratios = (key: string) => {
  const base = added('baseline');
  return added(key).map((ns, i) => ns / (base[i] ?? ns));
};
const what = {
  mcp: 'a callTool through the seam',
  'agents-guardrail': "an awaited guardrail run and the tool's invoke",
  'ai-sdk': 'an awaited safeValidateTypes of a checked tool',
}[SEAM];
console.log(
  COLD
    ? `ns of ${what} with the caches cold (${EVICT_MB} MiB read before each), ` +
        `median of ${ROUNDS} rounds of ${CALLS} calls` +
        (ASYNC ? ':' : `, less ${num(floorNs, 0)} ns of an unwrapped call:`)
    : `ns per call of ${what}, median of ${ROUNDS} rounds of ${CALLS} calls:`,
);
for (const { key } of variants) {
  const ns = median(added(key));
  console.log(`  ${key.padEnd(9)} ${num(ns, 0).padStart(6)} ns   ×${num(median(ratios(key)), 3)}`);
}
// Read, so that the eviction is not optimised away.
if (Number.isNaN(evicted)) console.log('(the eviction buffer read NaN)');
process.exit(0);
