import { expect } from 'chai';
import { registerInstrumentations } from '@opentelemetry/instrumentation';
import { MeterProvider } from '@opentelemetry/sdk-metrics';
import { staticValueSet } from '@argcheck/core';
import { ToolArgumentInstrumentation } from '../../src/instrumentation.js';
import {
  METRIC_TOOL_ARGUMENT_MISMATCH,
  METRIC_TOOL_ARGUMENT_REPAIR_STARTED,
  METRIC_TOOL_ARGUMENT_VALUE_CHECK,
  METRIC_TOOL_ARGUMENT_VALUE_SET_FETCH,
} from '../../src/semconv.js';
import type { ToolArgumentInstrumentationConfig } from '../../src/types.js';
import {
  inSet,
  REFUND_ARGUMENTS,
  REFUND_CODES,
  refundSeries,
  REFUNDS,
  shape,
} from '../helpers/fixtures.js';
import { collectPoints, pointsOf, PullReader } from '@argcheck/testing/metrics';

/**
 * Two instrumentations on one meter provider (two instances, or the CommonJS
 * and ESM builds both loaded) report the same series. The SDK keeps one
 * observation per attribute set of an observable counter, so their counts
 * must be added up before they are observed; otherwise the last callback
 * wins, and an instance that counted nothing reports zero over the other.
 */
describe('several instrumentations on one meter', () => {
  const config = (extra: Partial<ToolArgumentInstrumentationConfig> = {}) =>
    new ToolArgumentInstrumentation({
      mcp: { enabled: false },
      frameworks: { enabled: false },
      valueSets: { [REFUNDS]: staticValueSet(REFUND_CODES) },
      checkedArguments: REFUND_ARGUMENTS,
      ...extra,
    });
  let reader: PullReader;
  let meterProvider: MeterProvider;
  let instances: ToolArgumentInstrumentation[];
  let unregister: () => void;

  function register(...list: ToolArgumentInstrumentation[]): void {
    instances = list;
    reader = new PullReader();
    meterProvider = new MeterProvider({ readers: [reader] });
    unregister = registerInstrumentations({ instrumentations: list, meterProvider });
  }
  afterEach(async () => {
    unregister();
    for (const inst of instances) inst.close();
    await meterProvider.shutdown();
  });

  it('adds up the counts of every instance, series by series', async () => {
    const [a, b] = [config(), config({ mode: 'reject' })];
    register(a, b);
    await Promise.all([a.ready(), b.ready()]);
    for (let i = 0; i < 3; i++) a.check('refund_order', { reason_code: 'LATE' });
    for (let i = 0; i < 5; i++) b.check('refund_order', { reason_code: 'LATE' });
    a.check('refund_order', { reason_code: 'late' });
    b.check('refund_order', { reason_code: 'CUSTOMER_UNHAPPY' });

    const collected = await collectPoints(reader);
    expect(pointsOf(collected, METRIC_TOOL_ARGUMENT_VALUE_CHECK)).to.deep.equal([
      { attributes: refundSeries(inSet(false, false)), value: 1 },
      { attributes: refundSeries(inSet(false, true)), value: 1 },
      { attributes: refundSeries(inSet(true, true)), value: 8 },
    ]);
    expect(pointsOf(collected, METRIC_TOOL_ARGUMENT_MISMATCH)).to.deep.equal([
      { attributes: refundSeries(shape('case')), value: 1 },
      { attributes: refundSeries(shape('invented')), value: 1 },
    ]);
    expect(pointsOf(collected, METRIC_TOOL_ARGUMENT_REPAIR_STARTED)).to.deep.equal([
      { attributes: { tool: 'refund_order' }, value: 1 },
    ]);
    expect(pointsOf(collected, METRIC_TOOL_ARGUMENT_VALUE_SET_FETCH)).to.deep.equal([
      { attributes: { set: REFUNDS, source: 'static', outcome: 'success' }, value: 2 },
    ]);
  });

  it('an instance that counted nothing does not report its zeros over the counts of another', async () => {
    const [counting, idle] = [config(), config()];
    register(counting, idle);
    await counting.ready();
    for (let i = 0; i < 4; i++) counting.check('refund_order', { reason_code: 'DAMAGED' });

    expect(pointsOf(await collectPoints(reader), METRIC_TOOL_ARGUMENT_VALUE_CHECK)).to.deep.equal([
      { attributes: refundSeries(inSet(true, true)), value: 4 },
    ]);
  });

  it('an instance moved to another meter provider leaves the others reporting their own counts', async () => {
    const [kept, dropped] = [config(), config()];
    register(kept, dropped);
    await Promise.all([kept.ready(), dropped.ready()]);
    kept.check('refund_order', { reason_code: 'DAMAGED' });
    dropped.check('refund_order', { reason_code: 'DAMAGED' });
    expect(pointsOf(await collectPoints(reader), METRIC_TOOL_ARGUMENT_VALUE_CHECK)).to.deep.equal([
      { attributes: refundSeries(inSet(true, true)), value: 2 },
    ]);

    // A meter provider set later moves an instance's counters off this meter.
    dropped.setMeterProvider(new MeterProvider());
    kept.check('refund_order', { reason_code: 'DAMAGED' });
    kept.check('refund_order', { reason_code: 'DAMAGED' });
    expect(pointsOf(await collectPoints(reader), METRIC_TOOL_ARGUMENT_VALUE_CHECK)).to.deep.equal([
      { attributes: refundSeries(inSet(true, true)), value: 3 },
    ]);
  });
});
