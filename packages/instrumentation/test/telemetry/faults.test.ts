import { expect } from 'chai';
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import type { Meter, MeterProvider } from '@opentelemetry/api';
import { registerInstrumentations } from '@opentelemetry/instrumentation';
import { OTLPLogExporter } from '@opentelemetry/exporter-logs-otlp-http';
import { OTLPMetricExporter } from '@opentelemetry/exporter-metrics-otlp-http';
import { LoggerProvider, SimpleLogRecordProcessor } from '@opentelemetry/sdk-logs';
import {
  MeterProvider as SdkMeterProvider,
  PeriodicExportingMetricReader,
} from '@opentelemetry/sdk-metrics';
import type { CheckOutcome } from '@argcheck/core';
import { ToolArgumentInstrumentation } from '../../src/instrumentation.js';
import { ManualClock } from '@argcheck/testing/clock';
import { REFUND_ARGUMENTS, refundSources } from '../helpers/fixtures.js';
import { settle } from '@argcheck/testing/clock';
import { recordFigure } from '@argcheck/testing/figures';

type LoggerProviderArg = Parameters<ToolArgumentInstrumentation['setLoggerProvider']>[0];

const CALLS: [string, unknown][] = [
  ['refund_order', { reason_code: 'LATE' }],
  ['refund_order', { reason_code: 'damaged' }],
  ['refund_order', { reason_code: 'CUSTOMER_UNHAPPY' }],
  ['refund_order', { reason_code: 7 }],
];

function boom(): never {
  throw new Error('telemetry is broken');
}

/** A meter whose every method throws, and one whose instruments throw when used. */
const throwingMeter = new Proxy({} as Meter, { get: () => boom });
const throwingMeterProvider: MeterProvider = { getMeter: () => throwingMeter };
const brokenMeterProvider: MeterProvider = { getMeter: boom };
const throwingLoggerProvider = {
  getLogger: () => ({ emit: boom }),
} as unknown as LoggerProviderArg;
const brokenLoggerProvider = { getLogger: boom } as unknown as LoggerProviderArg;

async function run(inst: ToolArgumentInstrumentation): Promise<CheckOutcome[]> {
  await inst.ready();
  const outcomes: CheckOutcome[] = [];
  for (let round = 0; round < 50; round++) {
    for (const [tool, args] of CALLS) outcomes.push(inst.check(tool, args));
  }
  return outcomes;
}

function create(mode: 'observe' | 'normalise' | 'reject'): ToolArgumentInstrumentation {
  return new ToolArgumentInstrumentation({
    valueSets: refundSources(),
    checkedArguments: REFUND_ARGUMENTS,
    mode,
    logSampleRatio: 1,
    clock: new ManualClock(),
    mcp: { enabled: false },
    frameworks: { enabled: false },
  });
}

async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

describe('telemetry that fails', () => {
  const rejections: unknown[] = [];
  const onRejection = (reason: unknown): void => {
    rejections.push(reason);
  };
  before(() => process.on('unhandledRejection', onRejection));
  after(() => process.off('unhandledRejection', onRejection));
  beforeEach(() => (rejections.length = 0));

  for (const mode of ['observe', 'normalise', 'reject'] as const) {
    it(`never changes a call (${mode}): throwing meters and loggers`, async () => {
      const reference = create(mode);
      const expected = await run(reference);
      reference.close();

      let compared = 0;
      let differ = 0;
      for (const [meterProvider, loggerProvider] of [
        [throwingMeterProvider, throwingLoggerProvider],
        [brokenMeterProvider, brokenLoggerProvider],
      ] as const) {
        const inst = create(mode);
        const unregister = registerInstrumentations({
          instrumentations: [inst],
          meterProvider,
          loggerProvider,
        });
        const outcomes = await run(inst);
        compared += expected.length;
        differ += outcomes.filter(
          (o, i) => JSON.stringify(o) !== JSON.stringify(expected[i]),
        ).length;
        expect(outcomes).to.deep.equal(expected);
        unregister();
        inst.close();
      }
      await settle();
      expect(rejections).to.deep.equal([]);
      recordFigure(
        'telemetry-providers-throw',
        `${mode}: ${differ} of ${compared} outcomes differ from working telemetry, ${rejections.length} unhandled rejections`,
      );
    });
  }

  it('never changes a call, nor rejects unhandled, with OTLP exporters pointed at a closed port', async function () {
    this.timeout(10_000);
    const port = await closedPort();
    const reference = create('reject');
    const expected = await run(reference);
    reference.close();

    const reader = new PeriodicExportingMetricReader({
      exporter: new OTLPMetricExporter({
        url: `http://127.0.0.1:${port}/v1/metrics`,
        timeoutMillis: 200,
      }),
      exportIntervalMillis: 60_000,
      exportTimeoutMillis: 500,
    });
    const meterProvider = new SdkMeterProvider({ readers: [reader] });
    const loggerProvider = new LoggerProvider({
      processors: [
        new SimpleLogRecordProcessor({
          exporter: new OTLPLogExporter({
            url: `http://127.0.0.1:${port}/v1/logs`,
            timeoutMillis: 200,
          }),
        }),
      ],
    });
    const inst = create('reject');
    const unregister = registerInstrumentations({
      instrumentations: [inst],
      meterProvider,
      loggerProvider,
    });
    try {
      expect(await run(inst)).to.deep.equal(expected);
      await meterProvider.forceFlush().catch(() => undefined);
      await loggerProvider.forceFlush().catch(() => undefined);
      await settle();
      expect(rejections).to.deep.equal([]);
      recordFigure(
        'otlp-endpoint-gone',
        `${expected.length} calls (reject mode) with both exporters flushed to a closed port: outcomes identical to working telemetry, ${rejections.length} unhandled rejections`,
      );
    } finally {
      unregister();
      inst.close();
      await meterProvider.shutdown().catch(() => undefined);
      await loggerProvider.shutdown().catch(() => undefined);
    }
  });
});
