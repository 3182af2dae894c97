import { expect } from 'chai';
import { metrics } from '@opentelemetry/api';
import { registerInstrumentations } from '@opentelemetry/instrumentation';
import { NodeSDK } from '@opentelemetry/sdk-node';
import {
  InMemoryLogRecordExporter,
  LoggerProvider,
  SimpleLogRecordProcessor,
} from '@opentelemetry/sdk-logs';
import { MeterProvider } from '@opentelemetry/sdk-metrics';
import { ToolArgumentInstrumentation } from '../src/instrumentation.js';
import {
  ATTR_VALUE,
  ATTR_VALUE_TRUNCATED,
  EVENT_TOOL_ARGUMENT_VALUE_CHECK,
  METRIC_TOOL_ARGUMENT_VALUE_CHECK,
} from '../src/semconv.js';
import type { ToolArgumentInstrumentationConfig } from '../src/types.js';
import { PACKAGE_NAME, PACKAGE_VERSION } from '../src/version.js';
import { ManualClock } from '@argcheck/testing/clock';
import { inSet, REFUND_ARGUMENTS, refundSeries, refundSources, shape } from './helpers/fixtures.js';
import { resetGlobals } from './helpers/globals.js';
import { collectPoints, pointsOf, PullReader } from '@argcheck/testing/metrics';

const config = (): ToolArgumentInstrumentationConfig => ({
  valueSets: refundSources(),
  checkedArguments: REFUND_ARGUMENTS,
  clock: new ManualClock(),
  logSampleRatio: 1,
  mcp: { enabled: false },
  frameworks: { enabled: false },
});

const record = {
  eventName: EVENT_TOOL_ARGUMENT_VALUE_CHECK,
  attributes: refundSeries({
    ...inSet(false, false),
    ...shape('invented'),
    [ATTR_VALUE]: 'CUSTOMER_UNHAPPY',
    [ATTR_VALUE_TRUNCATED]: 'false',
  }),
};
const point = { attributes: refundSeries(inSet(false, false)), value: 1 };

describe('ToolArgumentInstrumentation registration', () => {
  afterEach(resetGlobals);

  it('names its scope after the package', () => {
    const inst = new ToolArgumentInstrumentation(config());
    expect([inst.instrumentationName, inst.instrumentationVersion]).to.deep.equal([
      PACKAGE_NAME,
      PACKAGE_VERSION,
    ]);
    inst.close();
  });

  it('works with registerInstrumentations', async () => {
    const reader = new PullReader();
    const meterProvider = new MeterProvider({ readers: [reader] });
    const exporter = new InMemoryLogRecordExporter();
    const inst = new ToolArgumentInstrumentation(config());
    const loggerProvider = new LoggerProvider({
      processors: [new SimpleLogRecordProcessor({ exporter })],
    });
    const unregister = registerInstrumentations({
      instrumentations: [inst],
      meterProvider,
      loggerProvider,
    });
    await inst.ready();
    inst.check('refund_order', { reason_code: 'CUSTOMER_UNHAPPY' });
    expect(pointsOf(await collectPoints(reader), METRIC_TOOL_ARGUMENT_VALUE_CHECK)).to.deep.equal([
      point,
    ]);
    expect(
      exporter
        .getFinishedLogRecords()
        .map((r) => ({ eventName: r.eventName, attributes: r.attributes })),
    ).to.deep.equal([record]);
    unregister();
    inst.close();
    await meterProvider.shutdown();
    await loggerProvider.shutdown();
  });

  it('works with new NodeSDK({ instrumentations: [inst] }), logs arriving through the global logger provider', async () => {
    const reader = new PullReader();
    const exporter = new InMemoryLogRecordExporter();
    const inst = new ToolArgumentInstrumentation(config());
    const sdk = new NodeSDK({
      instrumentations: [inst],
      metricReaders: [reader],
      logRecordProcessors: [new SimpleLogRecordProcessor({ exporter })],
      spanProcessors: [],
      resourceDetectors: [],
    });
    sdk.start();
    try {
      await inst.ready();
      inst.check('refund_order', { reason_code: 'CUSTOMER_UNHAPPY' });
      expect(pointsOf(await collectPoints(reader), METRIC_TOOL_ARGUMENT_VALUE_CHECK)).to.deep.equal(
        [point],
      );
      expect(
        exporter
          .getFinishedLogRecords()
          .map((r) => ({ eventName: r.eventName, attributes: r.attributes })),
      ).to.deep.equal([record]);
    } finally {
      inst.close();
      await sdk.shutdown();
    }
  });

  it('reports through a global meter provider set before it was constructed', async () => {
    // The base class's constructor runs _updateMetricInstruments() before ours has state.
    const reader = new PullReader();
    const meterProvider = new MeterProvider({ readers: [reader] });
    metrics.setGlobalMeterProvider(meterProvider);
    const inst = new ToolArgumentInstrumentation(config());
    await inst.ready();
    inst.check('refund_order', { reason_code: 'CUSTOMER_UNHAPPY' });
    expect(pointsOf(await collectPoints(reader), METRIC_TOOL_ARGUMENT_VALUE_CHECK)).to.deep.equal([
      point,
    ]);
    inst.close();
    await meterProvider.shutdown();
  });

  it('moves its instruments to a new meter provider, with the running totals', async () => {
    const first = new PullReader();
    const second = new PullReader();
    const providers = [
      new MeterProvider({ readers: [first] }),
      new MeterProvider({ readers: [second] }),
    ];
    const inst = new ToolArgumentInstrumentation(config());
    inst.setMeterProvider(providers[0] as MeterProvider);
    await inst.ready();
    inst.check('refund_order', { reason_code: 'CUSTOMER_UNHAPPY' });
    inst.setMeterProvider(providers[1] as MeterProvider);
    inst.check('refund_order', { reason_code: 'CUSTOMER_UNHAPPY' });
    expect(pointsOf(await collectPoints(second), METRIC_TOOL_ARGUMENT_VALUE_CHECK)).to.deep.equal([
      { ...point, value: 2 },
    ]);
    expect(pointsOf(await collectPoints(first), METRIC_TOOL_ARGUMENT_VALUE_CHECK)).to.deep.equal(
      [],
    );
    inst.close();
    for (const provider of providers) await provider.shutdown();
  });

  it('checks whether enabled or not, and exposes the provider status', async () => {
    const inst = new ToolArgumentInstrumentation(config());
    inst.disable();
    await inst.ready();
    expect(inst.check('refund_order', { reason_code: 'LATE' }).findings).to.have.length(1);
    expect(inst.valueSets.status().map((s) => [s.name, s.state, s.size])).to.deep.equal([
      ['refunds.reason_codes', 'fresh', 4],
    ]);
    inst.close();
  });
});
