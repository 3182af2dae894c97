import { expect } from 'chai';
import { ManualClock } from '@argcheck/testing/clock';
import { pointsOf } from '@argcheck/testing/metrics';
import {
  METRIC_TOOL_ARGUMENT_REPAIR_OUTCOME,
  METRIC_TOOL_ARGUMENT_REPAIR_STARTED,
} from '../../src/semconv.js';
import { MAX_PENDING } from '../../src/engine/repair-outcomes.js';
import { harness } from '../helpers/telemetry.js';
import type { Harness } from '../helpers/telemetry.js';
import { REFUND_ARGUMENTS, refundSeries, refundSources } from '../helpers/fixtures.js';

const call = (reason_code: string) => ({ order_id: 'o-1', reason_code });

describe('tool_argument_repair_outcome (reject mode)', () => {
  let h: Harness;
  let clock: ManualClock;
  afterEach(() => h.close());

  const instrument = async (mode: 'reject' | 'observe' = 'reject') => {
    clock = new ManualClock();
    h = harness({
      valueSets: refundSources(),
      checkedArguments: REFUND_ARGUMENTS,
      mode,
      logSampleRatio: 0,
      clock,
      repairWindowMs: 60_000,
    });
    await h.inst.ready();
  };
  /** Outcome points by outcome name (the SDK reports them in the order the series were made). */
  const outcomes = async () => {
    const collected = await h.collect();
    return {
      outcomes: pointsOf(collected, METRIC_TOOL_ARGUMENT_REPAIR_OUTCOME).sort((a, b) =>
        String(a.attributes.outcome).localeCompare(String(b.attributes.outcome)),
      ),
      started: pointsOf(collected, METRIC_TOOL_ARGUMENT_REPAIR_STARTED),
    };
  };
  const outcome = (name: string, value: number) => ({
    attributes: refundSeries({ outcome: name }),
    value,
  });
  const started = (value: number) => [{ attributes: { tool: 'refund_order' }, value }];

  it('counts the retry that carries a member as resolved, per run', async () => {
    await instrument();
    await h.inst.withAttribution({}, () => {
      expect(h.inst.check('refund_order', call('CUSTOMER_UNHAPPY')).action).to.equal('reject');
      expect(h.inst.check('refund_order', call('LATE')).action).to.equal('call');
      return Promise.resolve();
    });
    expect(await outcomes()).to.deep.equal({
      outcomes: [outcome('resolved', 1)],
      started: started(1),
    });
  });

  it('counts each retry out of set again as repeated, then the one that works as resolved', async () => {
    await instrument();
    h.inst.withAttribution({}, () => {
      h.inst.check('refund_order', call('CUSTOMER_UNHAPPY'));
      h.inst.check('refund_order', call('UNHAPPY_CUSTOMER'));
      h.inst.check('refund_order', call('damaged')); // a case variant: rewritten, called
    });
    // Every rejected argument gets one outcome: resolved / all = first-retry success.
    expect(await outcomes()).to.deep.equal({
      outcomes: [outcome('repeated', 1), outcome('resolved', 1)],
      started: started(2),
    });
  });

  it('counts what is still waiting when the run ends as abandoned', async () => {
    await instrument();
    await h.inst.withAttribution({}, async () => {
      h.inst.check('refund_order', call('CUSTOMER_UNHAPPY'));
      await Promise.resolve();
    });
    expect((await outcomes()).outcomes).to.deep.equal([outcome('abandoned', 1)]);
  });

  it('correlates by conversation id outside a run; another conversation is not the retry; the window abandons', async () => {
    await instrument();
    h.inst.check('refund_order', call('CUSTOMER_UNHAPPY'), { conversationId: 'c-1' });
    h.inst.check('refund_order', call('INVENTED'), { conversationId: 'c-2' });
    h.inst.check('refund_order', call('LATE'), { conversationId: 'c-2' });
    expect((await outcomes()).outcomes).to.deep.equal([outcome('resolved', 1)]);
    await clock.tick(59_999);
    expect((await outcomes()).outcomes).to.deep.equal([outcome('resolved', 1)]);
    await clock.tick(1);
    // Counted at the collection: nothing waits on a timer.
    expect((await outcomes()).outcomes).to.deep.equal([
      outcome('abandoned', 1),
      outcome('resolved', 1),
    ]);
    h.inst.check('refund_order', call('LATE'), { conversationId: 'c-1' });
    expect((await outcomes()).outcomes).to.deep.equal([
      outcome('abandoned', 1),
      outcome('resolved', 1),
    ]);
  });

  it('holds at most MAX_PENDING waiting arguments, the oldest abandoned first', async () => {
    await instrument();
    for (let i = 0; i <= MAX_PENDING; i++) {
      h.inst.check('refund_order', call('CUSTOMER_UNHAPPY'), { conversationId: `c-${i}` });
    }
    expect((await outcomes()).outcomes).to.deep.equal([outcome('abandoned', 1)]);
    h.inst.check('refund_order', call('LATE'), { conversationId: 'c-0' });
    h.inst.check('refund_order', call('LATE'), { conversationId: 'c-1' });
    expect((await outcomes()).outcomes).to.deep.equal([
      outcome('abandoned', 1),
      outcome('resolved', 1),
    ]);
  });

  it('counts nothing outside reject mode', async () => {
    await instrument('observe');
    h.inst.check('refund_order', call('CUSTOMER_UNHAPPY'));
    h.inst.check('refund_order', call('LATE'));
    expect(await outcomes()).to.deep.equal({ outcomes: [], started: [] });
  });
});
