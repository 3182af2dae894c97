import { expect } from 'chai';
import { functionValueSet } from '@argcheck/core';
import {
  ATTR_GEN_AI_CONVERSATION_ID,
  ATTR_GEN_AI_TOOL_CALL_ID,
  ATTR_VALUE,
  ATTR_VALUE_TRUNCATED,
  EVENT_TOOL_ARGUMENT_VALUE_CHECK,
} from '../../src/semconv.js';
import type { ToolArgumentInstrumentationConfig } from '../../src/types.js';
import { ManualClock } from '@argcheck/testing/clock';
import {
  inSet,
  REFUND_ARGUMENTS,
  refundSeries,
  refundSources,
  REFUNDS,
  shape,
} from '../helpers/fixtures.js';
import { harness } from '../helpers/telemetry.js';
import type { Harness } from '../helpers/telemetry.js';
import { recordFigure } from '@argcheck/testing/figures';

const value = (text: string, truncated = false): Record<string, string> => ({
  [ATTR_VALUE]: text,
  [ATTR_VALUE_TRUNCATED]: String(truncated),
});

describe('sampled log records', () => {
  let h: Harness;
  afterEach(() => h.close());

  async function every(config: ToolArgumentInstrumentationConfig = {}): Promise<Harness> {
    h = harness({
      valueSets: refundSources(),
      checkedArguments: REFUND_ARGUMENTS,
      clock: new ManualClock(),
      logSampleRatio: 1,
      ...config,
    });
    await h.inst.ready();
    return h;
  }

  it('carry exactly the contract attributes; shape only on mismatches', async () => {
    await every();
    h.inst.check('refund_order', { reason_code: 'LATE' });
    h.inst.check('refund_order', { reason_code: 'damaged' }, { conversationId: 'conv-1' });
    h.inst.check('refund_order', { reason_code: 'CUSTOMER_UNHAPPY' }, { toolCallId: 'call-7' });
    h.inst.check('refund_order', { reason_code: { code: 'LATE' } });
    expect(h.records()).to.deep.equal([
      {
        eventName: EVENT_TOOL_ARGUMENT_VALUE_CHECK,
        attributes: refundSeries({ ...inSet(true, true), ...value('LATE') }),
      },
      {
        eventName: EVENT_TOOL_ARGUMENT_VALUE_CHECK,
        attributes: refundSeries({
          ...inSet(false, true),
          ...shape('case'),
          ...value('damaged'),
          [ATTR_GEN_AI_CONVERSATION_ID]: 'conv-1',
        }),
      },
      {
        eventName: EVENT_TOOL_ARGUMENT_VALUE_CHECK,
        attributes: refundSeries({
          ...inSet(false, false),
          ...shape('invented'),
          ...value('CUSTOMER_UNHAPPY'),
          [ATTR_GEN_AI_TOOL_CALL_ID]: 'call-7',
        }),
      },
      {
        eventName: EVENT_TOOL_ARGUMENT_VALUE_CHECK,
        attributes: refundSeries({
          ...inSet(false, false),
          ...shape('not_string'),
          ...value('{"code":"LATE"}'),
        }),
      },
    ]);
  });

  it('are severity INFO for members and WARN for mismatches', async () => {
    await every();
    h.inst.check('refund_order', { reason_code: 'LATE' });
    h.inst.check('refund_order', { reason_code: 'CUSTOMER_UNHAPPY' });
    expect(
      h.logs.getFinishedLogRecords().map((r) => [r.severityNumber, r.severityText]),
    ).to.deep.equal([
      [9, 'INFO'],
      [13, 'WARN'],
    ]);
  });

  it('cut long values to maxValueLength, without splitting a surrogate pair, and flag it', async () => {
    await every({ maxValueLength: 5 });
    h.inst.check('refund_order', { reason_code: 'ABCDEFGH' });
    h.inst.check('refund_order', { reason_code: 'ABCD\u{1F600}' });
    h.inst.check('refund_order', { reason_code: 'ABCDE' });
    expect(
      h.records().map((r) => [r.attributes[ATTR_VALUE], r.attributes[ATTR_VALUE_TRUNCATED]]),
    ).to.deep.equal([
      ['ABCDE', 'true'],
      ['ABCD', 'true'],
      ['ABCDE', 'false'],
    ]);
  });

  it('leave values out when captureValues is false', async () => {
    await every({ captureValues: false });
    h.inst.check('refund_order', { reason_code: 'CUSTOMER_UNHAPPY' });
    expect(h.records()).to.deep.equal([
      {
        eventName: EVENT_TOOL_ARGUMENT_VALUE_CHECK,
        attributes: refundSeries({ ...inSet(false, false), ...shape('invented') }),
      },
    ]);
  });

  it('pass values through redactValue before truncation; undefined or a throw leaves the value out', async () => {
    const seen: unknown[] = [];
    await every({
      maxValueLength: 8,
      redactValue: (text, where) => {
        seen.push([text, where]);
        if (text === 'LATE') return undefined;
        if (text === 'DAMAGED') throw new Error('redactor bug');
        return text.replace(/\d/g, '#');
      },
    });
    h.inst.check('refund_order', { reason_code: 'CARD 4111111111111111' });
    h.inst.check('refund_order', { reason_code: 'LATE' });
    h.inst.check('refund_order', { reason_code: 'DAMAGED' });
    expect(h.records().map((r) => r.attributes)).to.deep.equal([
      refundSeries({ ...inSet(false, false), ...shape('invented'), ...value('CARD ###', true) }),
      refundSeries(inSet(true, true)),
      refundSeries(inSet(true, true)),
    ]);
    expect(seen[0]).to.deep.equal([
      'CARD 4111111111111111',
      { tool: 'refund_order', argument: 'reason_code', set: REFUNDS },
    ]);
    const records = h.records();
    const valued = records.filter((r) => Object.values(r.attributes).includes('CARD ###'));
    recordFigure(
      'redact-value-throws',
      `${records.length} records for 3 checks: the value left out where redactValue threw or returned undefined, ${valued.length} with a value (redacted, then cut to 8 characters); every other attribute as usual`,
    );
  });

  it('take the conversation id from the context first, then from the conversationId option', async () => {
    const contexts: unknown[] = [];
    await every({
      conversationId: (ctx) => {
        contexts.push(ctx);
        return 'from-option';
      },
    });
    h.inst.check('refund_order', { reason_code: 'LATE' }, { conversationId: 'from-ctx' });
    h.inst.check('refund_order', { reason_code: 'LATE' }, { toolCallId: 't-1' });
    expect(h.records().map((r) => r.attributes[ATTR_GEN_AI_CONVERSATION_ID])).to.deep.equal([
      'from-ctx',
      'from-option',
    ]);
    expect(contexts).to.deep.equal([{ toolCallId: 't-1' }]);
  });

  it('are not written for checks that could not run (the unavailable counter covers them)', async () => {
    h = harness({
      valueSets: { [REFUNDS]: functionValueSet(() => Promise.reject(new Error('down'))) },
      checkedArguments: REFUND_ARGUMENTS,
      clock: new ManualClock(),
      logSampleRatio: 1,
    });
    await h.inst.ready();
    h.inst.check('refund_order', { reason_code: 'LATE' });
    expect(h.records()).to.deep.equal([]);
  });

  it('are off with logSampleRatio 0', async () => {
    await every({ logSampleRatio: 0 });
    for (let i = 0; i < 1_000; i++) h.inst.check('refund_order', { reason_code: 'LATE' });
    expect(h.records()).to.deep.equal([]);
  });
});
