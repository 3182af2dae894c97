import { expect } from 'chai';
import { context, propagation } from '@opentelemetry/api';
import { captureDiag } from '@argcheck/testing/diag';
import { pointsOf } from '@argcheck/testing/metrics';
import { METRIC_TOOL_ARGUMENT_CALL, METRIC_TOOL_ARGUMENT_VALUE_CHECK } from '../../src/semconv.js';
import { harness } from '../helpers/telemetry.js';
import type { Harness } from '../helpers/telemetry.js';
import { REFUND_ARGUMENTS, inSet, refundSeries, refundSources } from '../helpers/fixtures.js';
import { StackContextManager } from '../mcp/helpers/stack-context-manager.js';

const LATE = { order_id: 'o-1', reason_code: 'LATE' };
const INVENTED = { order_id: 'o-1', reason_code: 'CUSTOMER_UNHAPPY' };

describe('attribution of dispatcher calls (inst.check)', () => {
  let h: Harness;
  afterEach(() => h.close());

  const instrument = async (attribution: object | false = {}) => {
    h = harness({
      valueSets: refundSources(),
      checkedArguments: REFUND_ARGUMENTS,
      logSampleRatio: 0,
      attribution: attribution,
    });
    await h.inst.ready();
  };
  /** Points in a fixed order: series appear in the order they were first counted. */
  const checks = async () =>
    pointsOf(await h.collect(), METRIC_TOOL_ARGUMENT_VALUE_CHECK).sort((a, b) =>
      JSON.stringify(a.attributes).localeCompare(JSON.stringify(b.attributes)),
    );
  const sorted = <T extends { attributes: object }>(points: T[]) =>
    [...points].sort((a, b) =>
      JSON.stringify(a.attributes).localeCompare(JSON.stringify(b.attributes)),
    );

  it('splits the series by the model, provider and agent the context names', async () => {
    await instrument();
    const a = { model: 'gpt-old', provider: 'openai', agent: 'support' };
    const b = { model: 'claude-new', provider: 'anthropic', agent: 'support' };
    h.inst.check('refund_order', LATE, a);
    h.inst.check('refund_order', LATE, a);
    h.inst.check('refund_order', INVENTED, a);
    h.inst.check('refund_order', INVENTED, b);
    h.inst.check('refund_order', INVENTED, { conversationId: 'c-1' });
    const attribution = (x: typeof a) => ({
      'gen_ai.request.model': x.model,
      'gen_ai.provider.name': x.provider,
      'gen_ai.agent.name': x.agent,
    });
    expect(await checks()).to.deep.equal(
      sorted([
        { attributes: refundSeries(inSet(false, false)), value: 1 },
        { attributes: refundSeries({ ...attribution(a), ...inSet(true, true) }), value: 2 },
        { attributes: refundSeries({ ...attribution(a), ...inSet(false, false) }), value: 1 },
        { attributes: refundSeries({ ...attribution(b), ...inSet(false, false) }), value: 1 },
      ]),
    );
  });

  it('takes the options for calls the context says nothing about, and the prompt version from a function', async () => {
    let version = 'v1';
    await instrument({ model: 'gpt-default', promptVersion: () => version });
    h.inst.check('refund_order', LATE);
    version = 'v2';
    h.inst.check('refund_order', LATE);
    h.inst.check('refund_order', LATE, { model: 'gpt-given', promptVersion: 'v9' });
    // A context that names the model but no prompt version: the function is read at each call.
    version = 'v3';
    h.inst.check('refund_order', LATE, { model: 'gpt-given' });
    version = 'v4';
    h.inst.check('refund_order', LATE, { model: 'gpt-given' });
    const by = (model: string, prompt: string) => ({
      'gen_ai.request.model': model,
      'gen_ai.prompt.version': prompt,
    });
    expect(await checks()).to.deep.equal(
      sorted([
        {
          attributes: refundSeries({ ...by('gpt-default', 'v1'), ...inSet(true, true) }),
          value: 1,
        },
        {
          attributes: refundSeries({ ...by('gpt-default', 'v2'), ...inSet(true, true) }),
          value: 1,
        },
        { attributes: refundSeries({ ...by('gpt-given', 'v9'), ...inSet(true, true) }), value: 1 },
        { attributes: refundSeries({ ...by('gpt-given', 'v3'), ...inSet(true, true) }), value: 1 },
        { attributes: refundSeries({ ...by('gpt-given', 'v4'), ...inSet(true, true) }), value: 1 },
      ]),
    );
  });

  describe('with a context manager', () => {
    before(() => context.setGlobalContextManager(new StackContextManager()));
    after(() => context.disable());

    it('takes gen_ai.prompt.version from the baggage a run starts in; inst.check alone reads none', async () => {
      await instrument();
      const baggage = propagation.createBaggage({ 'gen_ai.prompt.version': { value: 'p-3' } });
      context.with(propagation.setBaggage(context.active(), baggage), () => {
        h.inst.withAttribution({}, () => h.inst.check('refund_order', LATE));
        // The dispatcher hands its context over; the ambient baggage is not read per check.
        h.inst.check('refund_order', LATE);
      });
      h.inst.withAttribution({ model: 'gpt-run', agent: 'billing' }, () => {
        h.inst.check('refund_order', INVENTED);
      });
      expect(await checks()).to.deep.equal(
        sorted([
          {
            attributes: refundSeries({ 'gen_ai.prompt.version': 'p-3', ...inSet(true, true) }),
            value: 1,
          },
          { attributes: refundSeries(inSet(true, true)), value: 1 },
          {
            attributes: refundSeries({
              'gen_ai.request.model': 'gpt-run',
              'gen_ai.agent.name': 'billing',
              ...inSet(false, false),
            }),
            value: 1,
          },
        ]),
      );
    });
  });

  it('keeps 40 distinct model ids to 10 values and one overflow value, every call counted, with one warning', async () => {
    const diagnostics = captureDiag();
    try {
      await instrument();
      for (let i = 0; i < 40; i++) h.inst.check('refund_order', LATE, { model: `m-${i}` });
      const points = await checks();
      const models = points.map((p) => p.attributes['gen_ai.request.model']);
      expect(models).to.have.length(11);
      expect(new Set(models).size).to.equal(11);
      expect(points.find((p) => p.attributes['gen_ai.request.model'] === '_other')?.value).to.equal(
        30,
      );
      expect(points.reduce((sum, p) => sum + (p.value as number), 0)).to.equal(40);
      const warnings = diagnostics.messages.filter((m) =>
        m.message.includes('attribution.maxValues'),
      );
      expect(warnings).to.have.length(1);
    } finally {
      diagnostics.restore();
    }
  });

  it('adds nothing with attribution: false, and no series in steady state', async () => {
    await instrument(false);
    h.inst.check('refund_order', LATE, { model: 'gpt-old' });
    expect(await checks()).to.deep.equal(
      sorted([{ attributes: refundSeries(inSet(true, true)), value: 1 }]),
    );
    const calls = pointsOf(await h.collect(), METRIC_TOOL_ARGUMENT_CALL);
    expect(calls).to.deep.equal([
      {
        attributes: { tool: 'refund_order', integration: 'dispatcher', coverage: 'checked' },
        value: 1,
      },
    ]);
  });

  it('refuses a bad attribution option with a stable code', () => {
    expect(() => harness({ attribution: { maxValues: 0 } })).to.throw(/attribution.maxValues/);
    expect(() => harness({ attribution: { model: '' } })).to.throw(/attribution.model/);
    expect(() => harness({ attribution: 'on' as never })).to.throw(/attribution must be/);
    expect(() => harness({ repairWindowMs: -1 })).to.throw(/repairWindowMs/);
  });
});
