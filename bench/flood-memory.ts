// Memory under a cardinality flood: 1,000,000 checks, each with a distinct
// invented value, through the instrumentation with real SDK providers; every
// 100th call also names a model-invented tool and argument. Afterwards (after
// gc): retained memory against the start, series per instrument against the
// start, and log records against the sampling ratio.
//   npm run bench -- --only flood-memory [-- --checks 1000000]
import { setImmediate as tick } from 'node:timers/promises';
import { registerInstrumentations } from '@opentelemetry/instrumentation';
import { BatchLogRecordProcessor, LoggerProvider } from '@opentelemetry/sdk-logs';
import { MeterProvider } from '@opentelemetry/sdk-metrics';
import { staticValueSet } from '@argcheck/core';
import { ToolArgumentInstrumentation } from '@argcheck/instrumentation';
import { seededRandom } from './lib/ids.js';
import {
  MiB,
  num,
  requireGc,
  retainedBytes,
  signed,
  type BenchOptions,
  type BenchResult,
} from './lib/report.js';
import { nowNs } from './lib/stats.js';
import { countingProcessor, discardingExporter } from './lib/telemetry.js';
import { PullReader, seriesCounts, sumOf } from '@argcheck/testing/metrics';

const RATIO = 1 / 50;
const BAR_MIB = 5;
const CODES = ['DAMAGED', 'LATE', 'NOT_AS_DESCRIBED', 'DUPLICATE_CHARGE', 'WRONG_ITEM', 'OTHER'];
// Checks run in slices with a macrotask between them, as calls arriving over
// time do, so the batch processor can export between slices.
const SLICE = 1_000;

const invented = (i: number): string => `INVENTED_${i.toString(36)}_${'x'.repeat(i % 7)}`;

export async function floodMemory(options: BenchOptions): Promise<BenchResult> {
  const gc = requireGc();
  const CHECKS = options.number('checks', 1_000_000);

  const reader = new PullReader();
  const meterProvider = new MeterProvider({ readers: [reader] });
  const counting = countingProcessor();
  const exporter = discardingExporter();
  const loggerProvider = new LoggerProvider({
    processors: [counting, new BatchLogRecordProcessor({ exporter })],
  });
  const inst = new ToolArgumentInstrumentation({
    valueSets: { 'refunds.reason_codes': staticValueSet(CODES) },
    checkedArguments: { refund_order: { reason_code: 'refunds.reason_codes' } },
    random: seededRandom(5),
    mcp: { enabled: false },
  });
  registerInstrumentations({ instrumentations: [inst], meterProvider, loggerProvider });
  await inst.ready();

  /** `count` checks starting at `from`, in slices. */
  async function flood(from: number, count: number): Promise<void> {
    for (let i = from; i < from + count; i++) {
      const v = invented(i);
      inst.check('refund_order', { order_id: `o-${i}`, reason_code: v });
      // Model-written tool and argument names must not become series either
      // (nor findings: a tool the configuration does not name is not checked).
      if (i % 100 === 0) inst.check(`tool_${v}`, { [v]: v, reason_code: v });
      if (i % SLICE === SLICE - 1) await tick();
    }
  }

  async function settle() {
    await loggerProvider.forceFlush();
    const { resourceMetrics } = await reader.collect();
    for (let i = 0; i < 5; i++) await tick();
    gc();
    return resourceMetrics;
  }

  // Warm up every path (and let the SDK allocate its storage), then measure.
  await flood(0, 20_000);
  const before = await settle();
  const warmEmitted = counting.emitted;
  const warmExported = exporter.exported;
  const startBytes = retainedBytes();
  const startSeries = seriesCounts(before);
  const startChecks = sumOf(before, 'tool_argument_value_check');

  const t0 = nowNs();
  await flood(1e9, CHECKS);
  const seconds = (nowNs() - t0) / 1e9;
  const after = await settle();
  const endBytes = retainedBytes();
  const endSeries = seriesCounts(after);
  const checks = sumOf(after, 'tool_argument_value_check') - startChecks;
  const emitted = counting.emitted - warmEmitted;
  const exported = exporter.exported - warmExported;
  inst.close();
  await meterProvider.shutdown();
  await loggerProvider.shutdown();

  const expected = CHECKS * RATIO;
  const sd = Math.sqrt(CHECKS * RATIO * (1 - RATIO));
  const deltaMiB = (endBytes - startBytes) / MiB;
  const seriesSame = JSON.stringify(startSeries) === JSON.stringify(endSeries);

  console.log(
    `${num(CHECKS)} checks in ${num(seconds, 1)} s; retained ${num(startBytes / MiB, 1)} → ` +
      `${num(endBytes / MiB, 1)} MiB (${signed(deltaMiB)} MiB)`,
  );
  console.log(`series before ${JSON.stringify(startSeries)}`);
  console.log(`series after  ${JSON.stringify(endSeries)}`);
  console.log(
    `log records emitted ${num(emitted)} (expected ${num(expected)} ± ${num(5 * sd)}), exported ${num(exported)}`,
  );

  return {
    title: 'Memory under a cardinality flood',
    method:
      `${num(CHECKS)} calls of \`inst.check('refund_order', { order_id, reason_code })\`, every ` +
      '`reason_code` a distinct invented value, and every 100th call also a distinct ' +
      'model-invented tool name and argument name. Real providers: a `MeterProvider` with a ' +
      'pull reader, a `LoggerProvider` with a `BatchLogRecordProcessor` (default queue of 2,048) ' +
      'and an exporter that discards, plus a processor that counts what is emitted. Default ' +
      `sampling (1 in 50). Calls run in slices of ${num(SLICE)} with a macrotask between. Start ` +
      'and end are taken after 20,000 warm-up calls, a log flush, a metric collection and ' +
      '`gc()`; retained is heap plus typed arrays.',
    tables: [
      {
        head: ['figure', 'start', 'end', 'change'],
        rows: [
          [
            'retained MiB (heap + typed arrays, after gc)',
            num(startBytes / MiB, 2),
            num(endBytes / MiB, 2),
            signed(deltaMiB),
          ],
          ...Object.keys(endSeries).map((name) => [
            `series of \`${name}\``,
            String(startSeries[name] ?? 0),
            String(endSeries[name]),
            String((endSeries[name] ?? 0) - (startSeries[name] ?? 0)),
          ]),
          ['checks counted', '', num(checks), ''],
          [
            'log records emitted',
            '',
            num(emitted),
            `expected ${num(expected)} ± ${num(5 * sd)} (5 σ)`,
          ],
          ['log records exported (the rest dropped by the processor)', '', num(exported), ''],
          ['checks per second', '', num(CHECKS / seconds), ''],
        ],
      },
    ],
    bars: [
      {
        bar: `retained memory after ${num(CHECKS)} distinct invented values within ${BAR_MIB} MiB of the start`,
        figure: `${signed(deltaMiB)} MiB`,
        holds: Math.abs(deltaMiB) <= BAR_MIB,
      },
      {
        bar: 'series per instrument unchanged by the flood',
        figure: seriesSame
          ? 'unchanged'
          : `${JSON.stringify(startSeries)} → ${JSON.stringify(endSeries)}`,
        holds: seriesSame,
      },
      {
        bar: 'log records bounded by the sampling ratio (within 5 σ of 1 in 50)',
        figure: `${num(emitted)} records for ${num(checks)} checked values (expected ${num(expected)} ± ${num(5 * sd)})`,
        holds: Math.abs(emitted - expected) <= 5 * sd,
      },
    ],
    raw: {
      checks: CHECKS,
      seconds,
      startBytes,
      endBytes,
      startSeries,
      endSeries,
      emitted,
      exported,
    },
  };
}
