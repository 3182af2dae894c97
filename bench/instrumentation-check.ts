// Cost of one checked argument through ToolArgumentInstrumentation with real
// SDK providers registered, beside the alternatives people reach for, in the
// same process and interleaved round by round.
//   npm run bench -- --only instrumentation-check [-- --rounds 40 --batch 10000 --cold 4000]
// `-- --log-sample-ratio 0` measures the same check without log records, in a
// process of its own: a second instrumentation in this one would make the call
// sites polymorphic and slow both figures down. The attribution bar compares
// four more kinds of instance (attribution on with nothing named, on with the
// context naming the model, and `attribution: false` given the same two kinds
// of call), each in worker threads of its own (`lib/check-worker.ts`), round by round.
import { Worker } from 'node:worker_threads';
import { registerInstrumentations } from '@opentelemetry/instrumentation';
import { BatchLogRecordProcessor, LoggerProvider } from '@opentelemetry/sdk-logs';
import { MeterProvider } from '@opentelemetry/sdk-metrics';
import { Ajv } from 'ajv';
import promClient from 'prom-client';
import { z } from 'zod';
import { staticValueSet } from '@argcheck/core';
import { ToolArgumentInstrumentation } from '@argcheck/instrumentation';
import { num, type BenchOptions, type BenchResult } from './lib/report.js';
import { median, nowNs, quantile, rotated } from './lib/stats.js';
import { discardingExporter } from './lib/telemetry.js';
import { PullReader, sumOf } from '@argcheck/testing/metrics';
import type { CheckWorkerData, CheckWorkerRequest } from './lib/check-worker.js';

const CODES = ['DAMAGED', 'LATE', 'NOT_AS_DESCRIBED', 'DUPLICATE_CHARGE', 'WRONG_ITEM', 'OTHER'];
const N = CODES.length;
const code = (i: number): string => CODES[i % N] ?? '';
// Issue 12's bar; the figure it was set against was 80 ns.
const BAR_NS = 55;
// Below this, a cold figure is lost in the variation of the timer's own cold reads.
const COLD_FLOOR_NS = 20;
const EVICT_BYTES = 2 * 2 ** 20;

interface Operation {
  name: string;
  key: string;
  /** One call, timed alone (cold caches). */
  once(i: number): number;
  /** `n` calls in the operation's own loop, so each call site sees one function. */
  loop(n: number): number;
}

export async function instrumentationCheck(options: BenchOptions): Promise<BenchResult> {
  const BATCH = options.number('batch', 10_000);
  const ROUNDS = options.number('rounds', 40);
  const COLD_CALLS = options.number('cold', 4_000);
  const LOG_SAMPLE_RATIO = options.number('log-sample-ratio', 1 / 50);
  const ATTRIBUTION_ROUNDS = options.number('attribution-rounds', 20);
  const ISOLATES = options.number('isolates', 3);

  // --- argcheck, telemetry on: MeterProvider and LoggerProvider registered.
  const reader = new PullReader();
  const meterProvider = new MeterProvider({ readers: [reader] });
  const loggerProvider = new LoggerProvider({
    processors: [
      new BatchLogRecordProcessor({ exporter: discardingExporter(), maxQueueSize: 4096 }),
    ],
  });
  const inst = new ToolArgumentInstrumentation({
    valueSets: { 'refunds.reason_codes': staticValueSet(CODES) },
    checkedArguments: { refund_order: { reason_code: 'refunds.reason_codes' } },
    mcp: { enabled: false },
    logSampleRatio: LOG_SAMPLE_RATIO,
  });
  registerInstrumentations({ instrumentations: [inst], meterProvider, loggerProvider });
  await inst.ready();
  // Every operation cycles through the six codes, so that no JIT can fold a
  // constant input away (an ajv enum test of a literal 'LATE' measured 0.5 ns).
  const inSet = CODES.map((reason_code, i) => ({ order_id: `o-${i}`, reason_code }));
  const caseVariants = CODES.map((c, i) => ({ order_id: `o-${i}`, reason_code: c.toLowerCase() }));
  const args = (list: typeof inSet, i: number) => list[i % N] ?? {};

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
  const zodEnum = z.enum(CODES as [string, ...string[]]);
  const set = new Set(CODES);

  const OPS_ALL: Operation[] = [
    {
      name: '`inst.check`, in-set, telemetry on',
      key: 'check',
      once: (i) => inst.check('refund_order', args(inSet, i)).findings.length,
      loop(n) {
        let s = 0;
        for (let i = 0; i < n; i++) s += inst.check('refund_order', args(inSet, i)).findings.length;
        return s;
      },
    },
    {
      name: 'sdk-metrics `counter.add`, 5 attributes',
      key: 'counter',
      once: () => (counter.add(1, attributes), 1),
      loop(n) {
        for (let i = 0; i < n; i++) counter.add(1, attributes);
        return n;
      },
    },
    {
      name: 'prom-client `inc`, 5 labels',
      key: 'prom',
      once: () => (promCounter.inc(attributes), 1),
      loop(n) {
        for (let i = 0; i < n; i++) promCounter.inc(attributes);
        return n;
      },
    },
    {
      name: 'ajv compiled `enum`',
      key: 'ajv',
      once: (i) => (ajvEnum(code(i)) ? 1 : 0),
      loop(n) {
        let s = 0;
        for (let i = 0; i < n; i++) s += ajvEnum(code(i)) ? 1 : 0;
        return s;
      },
    },
    {
      name: 'zod `enum` `safeParse`',
      key: 'zod',
      once: (i) => (zodEnum.safeParse(code(i)).success ? 1 : 0),
      loop(n) {
        let s = 0;
        for (let i = 0; i < n; i++) s += zodEnum.safeParse(code(i)).success ? 1 : 0;
        return s;
      },
    },
    {
      name: '`Set.has`',
      key: 'set',
      once: (i) => (set.has(code(i)) ? 1 : 0),
      loop(n) {
        let s = 0;
        for (let i = 0; i < n; i++) s += set.has(code(i)) ? 1 : 0;
        return s;
      },
    },
    {
      name: '`inst.check`, case mismatch (`late`), telemetry on',
      key: 'checkCase',
      once: (i) => inst.check('refund_order', args(caseVariants, i)).findings.length,
      loop(n) {
        let s = 0;
        for (let i = 0; i < n; i++)
          s += inst.check('refund_order', args(caseVariants, i)).findings.length;
        return s;
      },
    },
  ];

  // `--only check,set` runs a subset (for looking into one figure; the report needs all).
  const only = options.string('ops', '').split(',').filter(Boolean);
  const OPS = only.length > 0 ? OPS_ALL.filter((op) => only.includes(op.key)) : OPS_ALL;
  const perOp = new Map<string, number[]>(OPS.map((op) => [op.key, []]));
  let sink = 0;
  for (const op of OPS) sink += op.loop(BATCH * 20); // warm up, let the JIT settle
  for (let round = 0; round < ROUNDS; round++) {
    for (const op of rotated(OPS, round)) {
      for (let b = 0; b < 5; b++) {
        const t0 = nowNs();
        sink += op.loop(BATCH);
        perOp.get(op.key)?.push((nowNs() - t0) / BATCH);
      }
    }
  }

  // Cold caches: in a process that does anything else between two checks (an
  // MCP call parses, validates and allocates kilobytes), what a check touches
  // is no longer in the CPU's nearest caches. Each call here is timed alone
  // after reading EVICT_BYTES of unrelated memory, one cache line at a time.
  const evictee = new Float64Array(EVICT_BYTES);
  let evictAt = 0;
  const evict = (): number => {
    let x = 0;
    for (let k = 0; k < EVICT_BYTES / 64; k++) {
      x += evictee[evictAt] ?? 0;
      evictAt = (evictAt + 8) % evictee.length; // 8 doubles: the next 64-byte line
    }
    return x;
  };
  const timer: Pick<Operation, 'key' | 'once'> = { key: 'timer', once: () => 0 };
  const coldOps = [timer, ...OPS];
  const cold = new Map<string, number[]>(coldOps.map((op) => [op.key, []]));
  for (let round = 0; round < COLD_CALLS / 100; round++) {
    for (const op of rotated(coldOps, round)) {
      for (let c = 0; c < 100; c++) {
        sink += evict();
        const t0 = nowNs();
        sink += op.once(c);
        cold.get(op.key)?.push(nowNs() - t0);
      }
    }
  }
  const timerNs = median(cold.get('timer') ?? []);
  const med = (key: string): number => median(perOp.get(key) ?? []);
  const coldMed = (key: string): number => median(cold.get(key) ?? []) - timerNs;
  const coldCell = (ns: number) => (ns < COLD_FLOOR_NS ? `< ${COLD_FLOOR_NS}` : num(ns, 0));
  const coldRatio = (ns: number) =>
    ns < COLD_FLOOR_NS ? '—' : `${num(ns / coldMed('check'), 2)}×`;

  // Attribution side by side: the same in-set check in workers, each an
  // instance of its own: attribution on (the default) with nothing named, on
  // with the model, provider and prompt version named in the context, and
  // `attribution: false`, with and without that context: "the same check"
  // is the same call, context included, so each named/unnamed pair differs
  // in the configuration alone. A dispatcher names its context on every call
  // or on none, so each kind of call has its isolate's call sites to itself. The
  // same code runs up to a third faster or slower in one isolate than in
  // another (how the JIT and the heap turned out), so each kind runs in
  // ISOLATES of them and its figure is the median over all their batches.
  const KINDS: { key: string; attributed: boolean; workers: CheckWorker[] }[] = [];
  for (const [key, attribution, attributed] of [
    ['on', true, false],
    ['onNamed', true, true],
    ['off', false, false],
    ['offNamed', false, true],
  ] as const) {
    const workers: CheckWorker[] = [];
    for (let w = 0; w < ISOLATES; w++)
      workers.push(await checkWorker(attribution, LOG_SAMPLE_RATIO));
    KINDS.push({ key, attributed, workers });
  }
  const runs = KINDS.flatMap((kind) => kind.workers.map((worker) => ({ kind, worker })));
  const byKind = new Map<string, number[]>(KINDS.map((k) => [k.key, []]));
  for (const { kind, worker } of runs) await worker.batch(kind.attributed, BATCH * 20);
  for (let round = 0; round < ATTRIBUTION_ROUNDS; round++) {
    for (const { kind, worker } of rotated(runs, round)) {
      for (let b = 0; b < 5; b++) {
        byKind.get(kind.key)?.push(await worker.batch(kind.attributed, BATCH));
      }
    }
  }
  let workerChecks = 0;
  for (const { worker } of runs) workerChecks += await worker.count();
  const expectedWorkerChecks = runs.length * (BATCH * 20 + ATTRIBUTION_ROUNDS * 5 * BATCH);
  for (const { worker } of runs) await worker.close();
  const kindMed = (key: string): number => median(byKind.get(key) ?? []);

  // Collection must see every check: the counts are exact, not sampled.
  const { resourceMetrics } = await reader.collect();
  const checked = sumOf(resourceMetrics, 'tool_argument_value_check');
  const expectedChecks =
    OPS.filter((op) => op.key.startsWith('check')).length *
    (BATCH * 20 + ROUNDS * 5 * BATCH + COLD_CALLS);

  const spread = (key: string): string => {
    const samples = perOp.get(key) ?? [];
    return `${num(quantile(samples, 0.25), 1)}–${num(quantile(samples, 0.75), 1)}`;
  };
  const rows = OPS.map((op) => [
    op.name,
    num(med(op.key), 1),
    spread(op.key),
    `${num(med(op.key) / med('check'), 2)}×`,
    coldCell(coldMed(op.key)),
    coldRatio(coldMed(op.key)),
  ]);

  console.log(`median ns per operation, ${ROUNDS} interleaved rounds × 5 batches of ${BATCH}:`);
  for (const [name, ns, iqr, r, coldNs] of rows) {
    console.log(
      `  ${name?.padEnd(52)} ${ns?.padStart(8)} ns  (IQR ${iqr})  ${r} inst.check; ` +
        `cold caches ${coldNs} ns`,
    );
  }
  console.log(`tool_argument_value_check total ${checked} of ${expectedChecks}; sink ${sink > 0}`);

  inst.close();
  await meterProvider.shutdown();
  await loggerProvider.shutdown();

  return {
    title: 'One checked argument through the instrumentation',
    method:
      "`inst.check('refund_order', { order_id, reason_code })` — one checked, in-set argument, cycling " +
      'through the six codes — ' +
      'with the instrumentation registered against a real `MeterProvider` (pull reader) and ' +
      '`LoggerProvider` (`BatchLogRecordProcessor`, an exporter that discards), ' +
      (LOG_SAMPLE_RATIO === 1 / 50
        ? 'default options, so one check in 50 also writes a log record. '
        : `\`logSampleRatio: ${LOG_SAMPLE_RATIO}\`. `) +
      'Beside it, in the same process: an sdk-metrics ' +
      '`counter.add(1, attributes)` with the five attributes a check series has, prom-client `inc` ' +
      'with five labels, an ajv-compiled `enum`, a zod `enum`, a bare `Set.has` (each cycling through ' +
      'the same six codes), and a check of a lower-cased code (a `case` mismatch). Each operation has ' +
      `its own timed loop; ${ROUNDS} rounds, each running every operation for 5 batches of ` +
      `${num(BATCH)} calls in a rotated order, after warm-up. Median and interquartile range of ` +
      'the per-batch ns per call. **Cold caches**: the same operations, each call timed alone ' +
      `right after reading ${num(EVICT_BYTES / 2 ** 20)} MiB of unrelated memory (one read per ` +
      `64-byte line), ${num(COLD_CALLS)} calls per operation in rotated rounds of 100; median, ` +
      `less the median of timing nothing the same way (${num(timerNs)} ns). In a loop everything ` +
      "a check touches stays in the CPU's nearest caches; in a process that does other work " +
      'between two checks (an MCP call parses, validates and allocates kilobytes) it does not, ' +
      'and this column is closer to what a check costs there. **Attribution** ' +
      "(the series' model, provider, agent, prompt version and tool definition, " +
      'docs/decisions/0027-attribution.md): the same in-set check through four more kinds of instance, ' +
      'each in a worker thread of its own (its own V8 isolate, so that no kind of call makes ' +
      "another's call sites polymorphic; a dispatcher names its context on every call or on " +
      'none): attribution on, as by default, with nothing named; on, with a context naming ' +
      'the model, provider and prompt version; and `attribution: false`, given the same calls ' +
      '(without, and with that context), so each pair differs in the configuration alone. ' +
      'The same code runs ' +
      'up to a third faster or slower in one isolate than in another, so each kind runs in ' +
      `${ISOLATES} isolates; ${ATTRIBUTION_ROUNDS} rounds over all of them in rotated order, 5 batches of ` +
      `${num(BATCH)} calls per kind each; median of the per-batch ns per call.`,
    tables: [
      {
        head: [
          'operation',
          'median ns',
          'IQR ns',
          'relative to `inst.check`',
          'cold caches, ns',
          'cold, relative to `inst.check`',
        ],
        rows,
      },
      {
        head: [
          'in-set `inst.check`, in its own worker',
          'median ns',
          'relative to `attribution: false`, the same calls',
        ],
        rows: [
          ['attribution on (default), nothing named', 'on', 'off'],
          ['attribution on, model, provider and prompt version named', 'onNamed', 'offNamed'],
          ['`attribution: false`', 'off', 'off'],
          ['`attribution: false`, the same context given', 'offNamed', 'offNamed'],
        ].map(([name, key, base]) => [
          name as string,
          num(kindMed(key as string), 1),
          `${num(kindMed(key as string) / kindMed(base as string), 2)}×`,
        ]),
      },
    ],
    bars: [
      {
        bar: `in-set \`inst.check\` with telemetry on: median ≤ ${BAR_NS} ns`,
        figure: `${num(med('check'), 1)} ns (counter.add ${num(med('counter'), 1)} ns, Set.has ${num(med('set'), 1)} ns)`,
        holds: med('check') <= BAR_NS,
      },
      {
        bar:
          'attribution on, nothing named: in-set check median within 15 % of the same check ' +
          'with `attribution: false`, side by side',
        figure: `${num(kindMed('on'), 1)} ns vs ${num(kindMed('off'), 1)} ns (${num(kindMed('on') / kindMed('off'), 2)}×)`,
        holds: kindMed('on') <= 1.15 * kindMed('off'),
      },
      {
        bar:
          'attribution on, model, provider and prompt version named: in-set check median ' +
          'within 15 % of the same check (the same context given) with `attribution: false`, ' +
          'side by side',
        figure: `${num(kindMed('onNamed'), 1)} ns vs ${num(kindMed('offNamed'), 1)} ns (${num(kindMed('onNamed') / kindMed('offNamed'), 2)}×)`,
        holds: kindMed('onNamed') <= 1.15 * kindMed('offNamed'),
      },
      {
        bar: 'every check counted (the counters are exact, not sampled)',
        figure: `${num(checked + workerChecks)} of ${num(expectedChecks + expectedWorkerChecks)}`,
        holds: checked === expectedChecks && workerChecks === expectedWorkerChecks,
      },
    ],
    notes: [
      `One sdk-metrics \`counter.add\` with the same attributes costs ` +
        `${num(med('counter') / med('check'), 1)} checks: argcheck counts into preallocated slots ` +
        'that observable counters read at collection, instead of adding to an instrument per ' +
        'check. The membership test itself is a `Set.has`; the rest of a check is finding the ' +
        'argument, building the outcome, counting, and the sampler (one record in 50 is written).',
      `With cold caches a check costs ${num(coldMed('check'))} ns and \`counter.add\` ` +
        `${num(coldMed('counter'))} ns: each costs what fetching the memory it touches costs. The ` +
        'loop figures are a floor. Inside a real MCP call a check costs more still (next ' +
        'section): between two checks the call runs the SDK and zod code and allocates about ' +
        '12 kB; measured there, a check costs more than after the 2 MiB read here.',
    ],
    raw: {
      medianNs: Object.fromEntries(OPS.map((op) => [op.key, med(op.key)])),
      coldMedianNs: Object.fromEntries(OPS.map((op) => [op.key, coldMed(op.key)])),
      timerNs,
      attributionMedianNs: Object.fromEntries(KINDS.map((k) => [k.key, kindMed(k.key)])),
      isolatesPerKind: ISOLATES,
      rounds: ROUNDS,
      batch: BATCH,
      checked,
      expectedChecks,
    },
  };
}

interface CheckWorker {
  /** ns per call of `n` in-set checks, with or without a context naming what produced them. */
  batch(attributed: boolean, n: number): Promise<number>;
  /** The checks its counters hold. */
  count(): Promise<number>;
  close(): Promise<void>;
}

/** An instrumentation in a worker thread (`lib/check-worker.ts`), once its set is loaded. */
async function checkWorker(attribution: boolean, logSampleRatio: number): Promise<CheckWorker> {
  const data: CheckWorkerData = { codes: CODES, attribution, logSampleRatio };
  const worker = new Worker(new URL('./lib/check-worker.js', import.meta.url), {
    workerData: data,
  });
  // One answer is awaited at a time; a worker that fails fails the benchmark.
  let waiting: { resolve(value: unknown): void; reject(error: unknown): void } | undefined;
  worker.on('message', (value: unknown) => waiting?.resolve(value));
  worker.on('error', (error: unknown) => waiting?.reject(error));
  const next = () => new Promise<unknown>((resolve, reject) => (waiting = { resolve, reject }));
  const ask = async (request: CheckWorkerRequest): Promise<unknown> => {
    const answer = next();
    worker.postMessage(request);
    return answer;
  };
  await next(); // 'ready'
  return {
    batch: async (attributed, n) => Number(await ask({ type: 'batch', attributed, n })),
    count: async () => Number(await ask({ type: 'count' })),
    async close() {
      await ask({ type: 'close' });
      await worker.terminate();
    },
  };
}
