import { expect } from 'chai';
import { functionValueSet } from '@argcheck/core';
import {
  ATTR_OUTCOME,
  ATTR_SET,
  ATTR_SOURCE,
  ATTR_TOOL,
  METRIC_TOOL_ARGUMENT_CHECK_UNAVAILABLE,
  METRIC_TOOL_ARGUMENT_MISMATCH,
  METRIC_TOOL_ARGUMENT_REPAIR_STARTED,
  METRIC_TOOL_ARGUMENT_REWRITTEN,
  METRIC_TOOL_ARGUMENT_VALUE_CHECK,
  METRIC_TOOL_ARGUMENT_VALUE_SET_AGE,
  METRIC_TOOL_ARGUMENT_VALUE_SET_FETCH,
  METRIC_TOOL_ARGUMENT_VALUE_SET_FETCH_DURATION,
  METRIC_TOOL_ARGUMENT_VALUE_SET_SIZE,
} from '../../src/semconv.js';
import { ManualClock } from '@argcheck/testing/clock';
import {
  inSet,
  reason,
  REFUND_ARGUMENTS,
  refundSeries,
  refundSources,
  REFUNDS,
  series,
  shape,
} from '../helpers/fixtures.js';
import { harness } from '../helpers/telemetry.js';
import { pointsOf } from '@argcheck/testing/metrics';
import type { Harness } from '../helpers/telemetry.js';

describe('per-check counters', () => {
  let h: Harness;
  afterEach(() => h.close());

  it('count membership and mismatch shapes per configured series, with their units', async () => {
    h = harness({
      valueSets: refundSources(),
      checkedArguments: REFUND_ARGUMENTS,
      clock: new ManualClock(),
    });
    await h.inst.ready();
    for (const code of ['DAMAGED', 'DAMAGED', 'LATE', 'damaged', 'CUSTOMER_UNHAPPY', 42]) {
      h.inst.check('refund_order', { order_id: 'o-1', reason_code: code });
    }
    const collected = await h.collect();
    expect(pointsOf(collected, METRIC_TOOL_ARGUMENT_VALUE_CHECK)).to.deep.equal([
      { attributes: refundSeries(inSet(false, false)), value: 2 },
      { attributes: refundSeries(inSet(false, true)), value: 1 },
      { attributes: refundSeries(inSet(true, true)), value: 3 },
    ]);
    expect(pointsOf(collected, METRIC_TOOL_ARGUMENT_MISMATCH)).to.deep.equal([
      { attributes: refundSeries(shape('case')), value: 1 },
      { attributes: refundSeries(shape('invented')), value: 1 },
      { attributes: refundSeries(shape('not_string')), value: 1 },
    ]);
    for (const name of [
      METRIC_TOOL_ARGUMENT_CHECK_UNAVAILABLE,
      METRIC_TOOL_ARGUMENT_REWRITTEN,
      METRIC_TOOL_ARGUMENT_REPAIR_STARTED,
    ]) {
      expect(pointsOf(collected, name), name).to.deep.equal([]);
    }
    expect(collected.units).to.deep.include({
      [METRIC_TOOL_ARGUMENT_VALUE_CHECK]: '{check}',
      [METRIC_TOOL_ARGUMENT_MISMATCH]: '{check}',
      [METRIC_TOOL_ARGUMENT_VALUE_SET_FETCH]: '{fetch}',
      [METRIC_TOOL_ARGUMENT_VALUE_SET_FETCH_DURATION]: 's',
      [METRIC_TOOL_ARGUMENT_VALUE_SET_AGE]: 's',
      [METRIC_TOOL_ARGUMENT_VALUE_SET_SIZE]: '{value}',
    });
  });

  it('are cumulative: a second collection reports the running totals', async () => {
    h = harness({
      valueSets: refundSources(),
      checkedArguments: REFUND_ARGUMENTS,
      clock: new ManualClock(),
    });
    await h.inst.ready();
    h.inst.check('refund_order', { reason_code: 'LATE' });
    await h.collect();
    h.inst.check('refund_order', { reason_code: 'LATE' });
    expect(pointsOf(await h.collect(), METRIC_TOOL_ARGUMENT_VALUE_CHECK)).to.deep.equal([
      { attributes: refundSeries(inSet(true, true)), value: 2 },
    ]);
  });

  it('count every element of an array path, and JSON-string arguments', async () => {
    h = harness({
      valueSets: { 'wms.warehouses': functionValueSet(() => ['AMS-1', 'FRA-2']) },
      checkedArguments: { transfer_stock: { 'items[].warehouse_code': 'wms.warehouses' } },
      clock: new ManualClock(),
    });
    await h.inst.ready();
    h.inst.check('transfer_stock', {
      items: [{ warehouse_code: 'AMS-1' }, { warehouse_code: 'BER-9' }],
    });
    h.inst.check('transfer_stock', JSON.stringify({ items: [{ warehouse_code: 'FRA-2' }] }));
    const warehouse = (extra: Record<string, string>) =>
      series('transfer_stock', 'items[].warehouse_code', 'wms.warehouses', extra);
    const collected = await h.collect();
    expect(pointsOf(collected, METRIC_TOOL_ARGUMENT_VALUE_CHECK)).to.deep.equal([
      { attributes: warehouse(inSet(false, false)), value: 1 },
      { attributes: warehouse(inSet(true, true)), value: 2 },
    ]);
    expect(pointsOf(collected, METRIC_TOOL_ARGUMENT_VALUE_SET_FETCH)).to.deep.equal([
      {
        attributes: {
          [ATTR_SET]: 'wms.warehouses',
          [ATTR_SOURCE]: 'function',
          [ATTR_OUTCOME]: 'success',
        },
        value: 1,
      },
    ]);
  });

  it('find the series of a tool with many checked arguments', async () => {
    const paths: Record<string, string> = {};
    for (let i = 0; i < 12; i++) paths[`field_${i}`] = REFUNDS;
    h = harness({
      valueSets: refundSources(),
      checkedArguments: { wide: paths },
      clock: new ManualClock(),
    });
    await h.inst.ready();
    h.inst.check('wide', { field_0: 'LATE', field_11: 'LATE', field_7: 'nope' });
    const wide = (argument: string, extra: Record<string, string>) =>
      series('wide', argument, REFUNDS, extra);
    expect(pointsOf(await h.collect(), METRIC_TOOL_ARGUMENT_VALUE_CHECK)).to.deep.equal([
      { attributes: wide('field_0', inSet(true, true)), value: 1 },
      { attributes: wide('field_11', inSet(true, true)), value: 1 },
      { attributes: wide('field_7', inSet(false, false)), value: 1 },
    ]);
  });

  it('count rewrites in normalise mode', async () => {
    h = harness({
      valueSets: refundSources(),
      checkedArguments: REFUND_ARGUMENTS,
      mode: 'normalise',
      clock: new ManualClock(),
    });
    await h.inst.ready();
    const outcome = h.inst.check('refund_order', { reason_code: 'damaged' });
    expect(outcome.action).to.equal('call_rewritten');
    h.inst.check('refund_order', { reason_code: 'CUSTOMER_UNHAPPY' });
    const collected = await h.collect();
    expect(pointsOf(collected, METRIC_TOOL_ARGUMENT_REWRITTEN)).to.deep.equal([
      { attributes: refundSeries(), value: 1 },
    ]);
    expect(pointsOf(collected, METRIC_TOOL_ARGUMENT_REPAIR_STARTED)).to.deep.equal([]);
  });

  it('count repairs started in reject mode, and still count the emission before the repair', async () => {
    h = harness({
      valueSets: refundSources(),
      checkedArguments: REFUND_ARGUMENTS,
      mode: 'reject',
      clock: new ManualClock(),
    });
    await h.inst.ready();
    const outcome = h.inst.check('refund_order', { reason_code: 'CUSTOMER_UNHAPPY' });
    expect(outcome.action).to.equal('reject');
    h.inst.check('refund_order', { reason_code: 'damaged' });
    const collected = await h.collect();
    expect(pointsOf(collected, METRIC_TOOL_ARGUMENT_REPAIR_STARTED)).to.deep.equal([
      { attributes: { [ATTR_TOOL]: 'refund_order' }, value: 1 },
    ]);
    expect(pointsOf(collected, METRIC_TOOL_ARGUMENT_REWRITTEN)).to.deep.equal([
      { attributes: refundSeries(), value: 1 },
    ]);
    expect(pointsOf(collected, METRIC_TOOL_ARGUMENT_MISMATCH)).to.deep.equal([
      { attributes: refundSeries(shape('case')), value: 1 },
      { attributes: refundSeries(shape('invented')), value: 1 },
    ]);
  });

  it('count checks that could not run, by reason, and let the call through', async () => {
    const clock = new ManualClock();
    h = harness({
      valueSets: {
        [REFUNDS]: functionValueSet(() => {
          throw new Error('owner down');
        }),
        slow: functionValueSet(() => new Promise(() => undefined)),
      },
      checkedArguments: { refund_order: { reason_code: REFUNDS }, slow_tool: { code: 'slow' } },
      fetchTimeoutMs: 1_000,
      clock,
    });
    const cold = h.inst.check('refund_order', { reason_code: 'LATE' });
    expect(cold.action).to.equal('call');
    h.inst.check('slow_tool', { code: 'x' });
    await clock.tick(1_000);
    h.inst.check('refund_order', { reason_code: 'LATE' });
    h.inst.check('slow_tool', { code: 'x' });
    const collected = await h.collect();
    expect(pointsOf(collected, METRIC_TOOL_ARGUMENT_CHECK_UNAVAILABLE)).to.deep.equal([
      { attributes: refundSeries(reason('cold')), value: 1 },
      { attributes: refundSeries(reason('fetch_failed')), value: 1 },
      {
        attributes: series('slow_tool', 'code', 'slow', reason('cold')),
        value: 1,
      },
      {
        attributes: series('slow_tool', 'code', 'slow', reason('timeout')),
        value: 1,
      },
    ]);
    expect(pointsOf(collected, METRIC_TOOL_ARGUMENT_VALUE_CHECK)).to.deep.equal([]);
  });

  it('never give a tool or argument the configuration does not name a series', async () => {
    h = harness({
      valueSets: refundSources(),
      checkedArguments: REFUND_ARGUMENTS,
      clock: new ManualClock(),
    });
    await h.inst.ready();
    h.inst.check('model_invented_tool', { reason_code: 'LATE' });
    h.inst.check('refund_order', { invented_argument: 'LATE' });
    h.inst.check('refund_order', 'not json');
    h.inst.check('refund_order', null);
    const collected = await h.collect();
    expect(pointsOf(collected, METRIC_TOOL_ARGUMENT_VALUE_CHECK)).to.deep.equal([]);
    expect(pointsOf(collected, METRIC_TOOL_ARGUMENT_MISMATCH)).to.deep.equal([]);
  });
});
