import { expect } from 'chai';
import type { CheckMode } from '@argcheck/core';
import { ManualClock } from '@argcheck/testing/clock';
import { REFUND_ARGUMENTS, REFUNDS, refundSources } from '../helpers/fixtures.js';
import { spans } from '../helpers/spans.js';
import type { Spans } from '../helpers/spans.js';
import { harness } from '../helpers/telemetry.js';
import type { Harness } from '../helpers/telemetry.js';
import { engineOf } from '../mcp/helpers/recorded.js';

const event = (extra: Record<string, string>) => ({
  name: 'tool_argument_value_check',
  attributes: { tool: 'refund_order', argument: 'reason_code', set: REFUNDS, ...extra },
});

describe('spanOutcome: a check’s outcome on the span it runs in', () => {
  let h: Harness;
  let s: Spans;
  afterEach(async () => {
    await h.close();
    await s.close();
  });

  async function setUp(mode: CheckMode, spanOutcome: boolean | undefined, ready = true) {
    s = await spans();
    h = harness({
      valueSets: refundSources(),
      checkedArguments: REFUND_ARGUMENTS,
      clock: new ManualClock(),
      mode,
      ...(spanOutcome === undefined ? {} : { spanOutcome }),
    });
    if (ready) await h.inst.ready();
  }

  /** Check `reason_code` inside an `execute_tool` span, as a GenAI instrumentation would have it. */
  function checkInSpan(code: string) {
    s.tracer.startActiveSpan('execute_tool refund_order', (span) => {
      h.inst.check('refund_order', { order_id: 'o-1', reason_code: code });
      span.end();
    });
  }

  it('is off by default: the span gets nothing', async () => {
    await setUp('reject', undefined);
    checkInSpan('CUSTOMER_UNHAPPY');
    expect(s.finished()).to.deep.equal([
      { name: 'execute_tool refund_order', attributes: {}, events: [] },
    ]);
  });

  it('adds one event per checked argument, with no emitted value; error.type only on a rejected call', async () => {
    await setUp('reject', true);
    for (const code of ['DAMAGED', 'damaged', 'CUSTOMER_UNHAPPY']) checkInSpan(code);
    expect(s.finished()).to.deep.equal([
      {
        name: 'execute_tool refund_order',
        attributes: {},
        events: [event({ in_set: 'true', in_set_normalised: 'true' })],
      },
      {
        name: 'execute_tool refund_order',
        attributes: {},
        events: [event({ in_set: 'false', in_set_normalised: 'true', shape: 'case' })],
      },
      {
        name: 'execute_tool refund_order',
        attributes: { 'error.type': 'tool_argument_rejected' },
        events: [event({ in_set: 'false', in_set_normalised: 'false', shape: 'invented' })],
      },
    ]);
  });

  it('in observe mode a mismatch is an event, never an error', async () => {
    await setUp('observe', true);
    checkInSpan('CUSTOMER_UNHAPPY');
    expect(s.finished()).to.deep.equal([
      {
        name: 'execute_tool refund_order',
        attributes: {},
        events: [event({ in_set: 'false', in_set_normalised: 'false', shape: 'invented' })],
      },
    ]);
  });

  it('says why a set could not be checked', async () => {
    await setUp('reject', true, false);
    checkInSpan('DAMAGED');
    expect(s.finished()).to.deep.equal([
      { name: 'execute_tool refund_order', attributes: {}, events: [event({ reason: 'cold' })] },
    ]);
  });

  it('writes nothing and throws nothing without a span, on a span that no longer records, or for a tool it does not check', async () => {
    await setUp('reject', true);
    expect(h.inst.check('refund_order', { reason_code: 'CUSTOMER_UNHAPPY' }).action).to.equal(
      'reject',
    );
    s.tracer.startActiveSpan('ended', (span) => {
      expect(span.isRecording()).to.equal(true);
      span.end();
      // An ended span no longer records.
      engineOf(h.inst).outcomeOnSpan(h.inst.check('refund_order', { reason_code: 'x' }));
    });
    checkInSpanOther();
    expect(s.finished()).to.deep.equal([
      { name: 'ended', attributes: {}, events: [] },
      { name: 'execute_tool create_ticket', attributes: {}, events: [] },
    ]);
  });

  function checkInSpanOther() {
    s.tracer.startActiveSpan('execute_tool create_ticket', (span) => {
      h.inst.check('create_ticket', { title: 't' });
      span.end();
    });
  }
});
