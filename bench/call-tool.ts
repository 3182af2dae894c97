// MCP `callTool` over InMemoryTransport with and without the instrumentation,
// on both client lines, interleaved round by round in one process; and over
// stdio to a server in a child process. A second uninstrumented client is
// measured too: its ratio to the first is the noise floor of the comparison.
//   npm run bench -- --only call-tool [-- --rounds 200 --stdio-rounds 150 --calls 100]
import { Client as ClientV2, InMemoryTransport as InMemoryV2 } from '@modelcontextprotocol/client';
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { InMemoryTransport as InMemoryV1 } from '@modelcontextprotocol/sdk/inMemory.js';
import { McpServer as McpServerV1 } from '@modelcontextprotocol/sdk/server/mcp.js';
import { McpServer as McpServerV2 } from '@modelcontextprotocol/server';
import { registerInstrumentations } from '@opentelemetry/instrumentation';
import { BatchLogRecordProcessor, LoggerProvider } from '@opentelemetry/sdk-logs';
import { MeterProvider } from '@opentelemetry/sdk-metrics';
import { z } from 'zod';
import { staticValueSet } from '@argcheck/core';
import { ToolArgumentInstrumentation } from '@argcheck/instrumentation';
import { stdioShop } from '@argcheck/testing/shop';
import {
  attribute,
  ownFigure,
  pairRange,
  PROFILE_PAIRS,
  type Attribution,
} from './lib/cpu-profile.js';
import { packageVersion } from './lib/machine.js';
import { num, type BenchOptions, type BenchResult } from './lib/report.js';
import { median, nowNs, quantile, rotated } from './lib/stats.js';
import { discardingExporter } from './lib/telemetry.js';
import { PullReader, sumOf } from '@argcheck/testing/metrics';

const CODES = ['DAMAGED', 'LATE', 'NOT_AS_DESCRIBED', 'DUPLICATE_CHARGE', 'WRONG_ITEM', 'OTHER'];
// Issue 12's bars: what argcheck adds to a call at the median, per client line.
const BAR_ADDED_NS: Record<'v1' | 'v2', number> = { v1: 500, v2: 1_000 };
/** argcheck's own CPU per MCP call, from profiles of the same calls (bench/lib/cpu-profile.ts). */
const OWN_BAR_US = 1;
/** Calls per profile, in units of a round's calls. */
const PROFILED_ROUNDS = 100;
const VARIANTS = ['plain', 'control', 'patched', 'instrumented'] as const;
type Variant = (typeof VARIANTS)[number];

// Mostly in-set codes; one call in 20 out of set (a case variant or an
// invented code), about the rate the reference reading reports for a model
// that is usually right.
const ARGS = Array.from({ length: 40 }, (_, i) => ({
  order_id: `ORD-${1000 + i}`,
  reason_code: i === 13 ? 'late' : i === 33 ? 'CUSTOMER_UNHAPPY' : (CODES[i % CODES.length] ?? ''),
}));
const ok = { content: [{ type: 'text' as const, text: 'refunded' }] };

/** What both client lines offer the benchmark. */
interface CallingClient {
  callTool(request: { name: string; arguments: Record<string, unknown> }): Promise<unknown>;
}
interface Connection {
  client: CallingClient;
  close(): Promise<unknown>;
}
interface Line {
  name: string;
  connect(instrumentation: ToolArgumentInstrumentation | undefined): Promise<Connection>;
}

const LINES: Record<'v1' | 'v2', Line> = {
  v1: {
    name: '@modelcontextprotocol/sdk',
    async connect(instrumentation) {
      const server = new McpServerV1({ name: 'bench-shop', version: '1.0.0' });
      server.registerTool(
        'refund_order',
        { inputSchema: { order_id: z.string(), reason_code: z.string() } },
        () => ok,
      );
      const [clientSide, serverSide] = InMemoryV1.createLinkedPair();
      await server.connect(serverSide);
      const client = new ClientV1({ name: 'bench', version: '1.0.0' });
      instrumentation?.instrumentMcpClient(client);
      await client.connect(clientSide);
      return { client, close: () => Promise.all([client.close(), server.close()]) };
    },
  },
  v2: {
    name: '@modelcontextprotocol/client',
    async connect(instrumentation) {
      const server = new McpServerV2({ name: 'bench-shop', version: '2.0.0' });
      server.registerTool(
        'refund_order',
        { inputSchema: z.object({ order_id: z.string(), reason_code: z.string() }) },
        () => ok,
      );
      const [clientSide, serverSide] = InMemoryV2.createLinkedPair();
      await server.connect(serverSide);
      const client = new ClientV2({ name: 'bench', version: '2.0.0' });
      instrumentation?.instrumentMcpClient(client);
      await client.connect(clientSide);
      return { client, close: () => Promise.all([client.close(), server.close()]) };
    },
  },
};

/** The same tool through a real transport: the shop server in a child process, on stdio. */
const STDIO: Line = {
  name: '@modelcontextprotocol/sdk',
  async connect(instrumentation) {
    const client = new ClientV1({ name: 'bench', version: '1.0.0' });
    instrumentation?.instrumentMcpClient(client);
    // Open: it takes the benchmark's codes, and lists no enum to derive from.
    const shop = stdioShop('v1', { open: true });
    await client.connect(
      new StdioClientTransport({
        command: shop.command,
        args: shop.args,
        env: shop.env,
        stderr: 'inherit',
      }),
    );
    return {
      client,
      close: async () => {
        await client.close();
        shop.remove();
      },
    };
  },
};

/**
 * Latency in µs of each of `calls` sequential callTool calls, appended to
 * `latencies`, and the µs per call of the whole run (GC pauses included).
 */
async function timeCalls(
  client: CallingClient,
  calls: number,
  offset: number,
  latencies: number[],
): Promise<number> {
  const start = nowNs();
  for (let i = 0; i < calls; i++) {
    const t0 = nowNs();
    const result = (await client.callTool({
      name: 'refund_order',
      arguments: ARGS[(offset + i) % ARGS.length] ?? {},
    })) as { isError?: boolean };
    latencies.push((nowNs() - t0) / 1000);
    if (result.isError === true) throw new Error('a call failed');
  }
  return (nowNs() - start) / calls / 1000;
}

type PerVariant = Record<Variant, number>;
const perVariant = (f: (v: Variant) => number): PerVariant =>
  Object.fromEntries(VARIANTS.map((v) => [v, f(v)])) as PerVariant;

interface Comparison {
  name: string;
  medianUs: PerVariant;
  ratio: number;
  controlRatio: number;
  addedUs: number;
  patchUs: number;
  roundUs: PerVariant;
  roundRatio: number;
  roundControlRatio: number;
  addedAt: Record<'p10' | 'p50' | 'p90', number>;
  /** Profiles of the plain and the instrumented client; absent over stdio. */
  own: Attribution | undefined;
}

export async function callTool(options: BenchOptions): Promise<BenchResult> {
  const ROUNDS = options.number('rounds', 200);
  const STDIO_ROUNDS = options.number('stdio-rounds', 150);
  const CALLS = options.number('calls', 100);

  const reader = new PullReader();
  const meterProvider = new MeterProvider({ readers: [reader] });
  const loggerProvider = new LoggerProvider({
    processors: [new BatchLogRecordProcessor({ exporter: discardingExporter() })],
  });
  const inst = new ToolArgumentInstrumentation({
    valueSets: { 'refunds.reason_codes': staticValueSet(CODES) },
    checkedArguments: { refund_order: { reason_code: 'refunds.reason_codes' } },
    mcp: { enabled: false },
  });
  // Patches clients but checks nothing: the cost of the MCP interception alone.
  const patchOnly = new ToolArgumentInstrumentation({ mcp: { enabled: false } });
  registerInstrumentations({
    instrumentations: [inst, patchOnly],
    meterProvider,
    loggerProvider,
  });
  await inst.ready();
  let made = 0;

  /** Interleaved rounds of `line`'s four clients; their medians and ratios. */
  async function compare(line: Line, rounds: number, profile: boolean): Promise<Comparison> {
    const by: Record<Variant, ToolArgumentInstrumentation | undefined> = {
      plain: undefined,
      control: undefined,
      patched: patchOnly,
      instrumented: inst,
    };
    const variants: { key: Variant; conn: Connection }[] = [];
    for (const key of VARIANTS) variants.push({ key, conn: await line.connect(by[key]) });
    for (const v of variants) await timeCalls(v.conn.client, CALLS * 5, 0, []); // warm up
    const calls = perVariantLists();
    const perRound = perVariantLists();
    for (let round = 0; round < rounds; round++) {
      for (const v of rotated(variants, round)) {
        const offset = round * CALLS;
        perRound[v.key].push(await timeCalls(v.conn.client, CALLS, offset, calls[v.key]));
      }
    }
    made += (rounds + 5) * CALLS;
    let own: Attribution | undefined;
    if (profile) {
      // At about a microsecond of argcheck a call, 2,000 calls gave a profile
      // some 40 samples of its frames (one pair's figure moved by ±15 %);
      // 10,000 give some 200, in a fraction of a second per profile.
      const PROFILED = CALLS * PROFILED_ROUNDS;
      const [plain, , , instrumented] = variants as [(typeof variants)[number], ...typeof variants];
      let current = plain;
      own = await attribute(
        (on) => {
          current = on ? (instrumented as typeof plain) : plain;
        },
        () => timeCalls(current.conn.client, PROFILED, 0, []),
        PROFILED,
      );
      // The instrumented client's calls in the profiles, and without the profiler, counted too.
      made += own.onRuns * PROFILED;
    }
    for (const v of variants) await v.conn.close();
    const m = perVariant((k) => median(calls[k]));
    const r = perVariant((k) => median(perRound[k]));
    // What argcheck adds along the distribution: the fastest calls run with the
    // warmest caches, the slowest with the coldest.
    const added = (q: number) => quantile(calls.instrumented, q) - quantile(calls.plain, q);
    return {
      name: `${line.name} ${packageVersion(line.name)}`,
      medianUs: m,
      ratio: m.instrumented / m.plain,
      controlRatio: m.control / m.plain,
      addedUs: m.instrumented - m.plain,
      patchUs: m.patched - m.plain,
      roundUs: r,
      roundRatio: r.instrumented / r.plain,
      roundControlRatio: r.control / r.plain,
      addedAt: { p10: added(0.1), p50: added(0.5), p90: added(0.9) },
      own,
    };
  }

  const results = [await compare(LINES.v1, ROUNDS, true), await compare(LINES.v2, ROUNDS, true)];
  const stdio = await compare(STDIO, STDIO_ROUNDS, false);
  const { resourceMetrics } = await reader.collect();
  const checked = sumOf(resourceMetrics, 'tool_argument_value_check');
  inst.close();
  patchOnly.close();
  await meterProvider.shutdown();
  await loggerProvider.shutdown();

  const rows = [
    ...results.map((r) => ({ ...r, label: `${r.name}, InMemoryTransport` })),
    { ...stdio, label: `${stdio.name}, stdio (server in a child process)` },
  ].map((r) => [
    r.label,
    num(r.medianUs.plain, 1),
    num(r.medianUs.instrumented, 1),
    num(r.ratio, 3),
    `${num(r.addedUs * 1000, 0)} ns`,
    `${num(r.patchUs * 1000, 0)} ns`,
    num(r.controlRatio, 3),
    num(r.roundRatio, 3),
    num(r.roundControlRatio, 3),
  ]);
  console.log(
    `µs per callTool (median single call; ${ROUNDS} interleaved rounds of ${CALLS} calls, ` +
      `${STDIO_ROUNDS} over stdio): ` +
      'plain, instrumented, ratio, added, patch only, control, per-round ratio, per-round control',
  );
  for (const row of rows) console.log(`  ${row.join('  ')}`);
  const attributed = results.map((r) => [
    r.name,
    num(r.own?.ownUs ?? 0, 2),
    r.own === undefined ? '' : pairRange(r.own, (us) => num(us, 2)),
    num(r.own?.profiledUs ?? 0, 2),
    `${num(r.own?.slowdown ?? 0, 2)}×`,
    (r.own?.added ?? [])
      .filter(([group]) => group !== 'argcheck')
      .slice(0, 3)
      .map(([group, us]) => `${group} ${num(us, 2)}`)
      .join(', '),
  ]);
  console.log('argcheck’s own µs per call, and the other frames that grew most:');
  for (const row of attributed) console.log(`  ${row.join('  ')}`);
  console.log(`checks counted: ${checked} of ${made}`);

  return {
    title: 'MCP `callTool`, instrumented vs not',
    method:
      '`client.callTool({ name: "refund_order", arguments })` over `InMemoryTransport` to an ' +
      'in-process `McpServer` whose tool answers at once — the cheapest a real call can be, so ' +
      'the check is the largest share of it it will ever be. Arguments cycle through 20 calls: ' +
      'in-set codes, one case variant and one invented code (5 % out of set). Four clients per ' +
      'line, each with ' +
      'its own server: uninstrumented, a second uninstrumented one (the control: its ratio to the ' +
      'first is the noise floor), one patched by an instrumentation that checks nothing (the cost ' +
      'of the MCP interception alone: "of which patch only"), and one instrumented with ' +
      '`inst.instrumentMcpClient(client)` (real `MeterProvider` and `LoggerProvider`). ' +
      `${ROUNDS} rounds of ${CALLS} sequential calls per client, in rotated order. The µs ` +
      'columns and "ratio" are medians of single-call latencies (robust to the other processes ' +
      'on the machine); "per-round" ratios compare the medians of whole rounds, µs per call ' +
      'with garbage collection included, and are noisier. The last row is the same comparison ' +
      'through a transport that leaves the process, as most deployments have one: the SDK 1.x ' +
      'client over stdio to the shop server in a child process (`@argcheck/testing/shop`, its tools open), ' +
      `${STDIO_ROUNDS} rounds; it carries no bar.`,
    tables: [
      {
        head: [
          'client line, transport',
          'uninstrumented µs',
          'instrumented µs',
          'ratio',
          'added per call',
          'of which patch only',
          'control ratio',
          'per-round ratio',
          'per-round control',
        ],
        rows,
      },
      {
        caption:
          'argcheck’s own CPU per call: the same calls under V8’s sampling profiler (every ' +
          `50 µs), ${CALLS * PROFILED_ROUNDS} calls per profile, the plain and the instrumented ` +
          `client alternated in ${PROFILE_PAIRS} pairs, each run once more without the profiler; ` +
          'the self time of frames in argcheck’s packages (the check, its telemetry, the ' +
          'wrappers) per call, scaled by the time the calls take without the profiler over the ' +
          'time they took under it (docs/decisions/0032-own-cpu-without-the-profilers-slowdown.md), ' +
          'the median over the pairs (the lowest and highest pair, the self time as profiled and ' +
          'the profiler’s slowdown beside it), and the other ' +
          'groups of frames whose self time grew most',
        head: [
          'client line',
          'argcheck µs per call',
          'its pairs, lowest–highest',
          'as profiled',
          'profiler slowdown',
          'other frames that grew most, µs per call',
        ],
        rows: attributed,
      },
    ],
    bars: [
      ...results.map((r) => ({
        bar: `argcheck’s own CPU per \`callTool\`, ${r.name}: ≤ ${OWN_BAR_US} µs`,
        figure: ownFigure(r.own, (us) => num(us, 2)),
        holds: (r.own?.ownUs ?? Infinity) <= OWN_BAR_US,
      })),
      ...(['v1', 'v2'] as const).map((line, i) => {
        const r = results[i] as Comparison;
        const addedNs = r.addedUs * 1000;
        return {
          bar: `what argcheck adds to \`callTool\` at the median, ${r.name}: ≤ ${num(BAR_ADDED_NS[line])} ns`,
          figure:
            `${num(addedNs)} ns (control, a second uninstrumented client: ` +
            `${num((r.medianUs.control - r.medianUs.plain) * 1000)} ns)`,
          holds: addedNs <= BAR_ADDED_NS[line],
        };
      }),
      {
        bar: 'every instrumented call checked and counted',
        figure: `${num(checked)} of ${num(made)}`,
        holds: checked === made,
      },
    ],
    notes: [
      ...results.map(
        (r) =>
          `${r.name}: a call over \`InMemoryTransport\` takes ${num(r.medianUs.plain, 1)} µs; the MCP interception alone (a patched client, nothing checked) adds ` +
          `${num(r.patchUs * 1000)} ns, and checking and counting the rest of the ` +
          `${num(r.addedUs * 1000)} ns. What it adds grows along the distribution of call ` +
          `times: ${num(r.addedAt.p10 * 1000)} ns at the 10th percentile, ` +
          `${num(r.addedAt.p50 * 1000)} ns at the median, ${num(r.addedAt.p90 * 1000)} ns at ` +
          'the 90th: the slower a call, the colder the caches it ran with, for its own code and ' +
          'for the check alike. Inside a real call the check runs with cold caches, ' +
          'colder than the "cold caches" column of the section above (which is itself several ' +
          'times its loop figure): between two checks the call runs the SDK and zod code and ' +
          'allocates about 12 kB (measured on SDK 1.x). ' +
          'Over a transport that leaves the process the same nanoseconds are a smaller share.',
      ),
      `Over stdio a call takes ${num(stdio.medianUs.plain, 1)} µs and the instrumented one ` +
        `${num(stdio.medianUs.instrumented, 1)} µs: a ratio of ${num(stdio.ratio, 3)} (control ` +
        `${num(stdio.controlRatio, 3)}). Across processes the noise floor is wider: the ` +
        "control's distance from 1 is what the machine's scheduling alone does to the ratio.",
    ],
    raw: { results, stdio, rounds: ROUNDS, stdioRounds: STDIO_ROUNDS, calls: CALLS },
  };
}

function perVariantLists(): Record<Variant, number[]> {
  return { plain: [], control: [], patched: [], instrumented: [] };
}
