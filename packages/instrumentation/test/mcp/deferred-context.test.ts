import { expect } from 'chai';
import { context, propagation } from '@opentelemetry/api';
import {
  ATTR_GEN_AI_CONVERSATION_ID,
  ATTR_GEN_AI_TOOL_CALL_ID,
  METRIC_TOOL_ARGUMENT_VALUE_CHECK,
} from '../../src/semconv.js';
import { inSet, REFUND_ARGUMENTS, refundSeries, refundSources } from '../helpers/fixtures.js';
import { harness } from '../helpers/telemetry.js';
import { pointsOf } from '@argcheck/testing/metrics';
import type { Harness } from '../helpers/telemetry.js';
import {
  createScriptedEngine,
  fakeClientClass,
  instrumentClient,
} from './helpers/scripted-engine.js';
import { StackContextManager } from './helpers/stack-context-manager.js';

/** Params whose `_meta` counts how often what it carries is read. */
function countingParams(reasonCode: string, meta: Record<string, unknown> = {}) {
  const reads = { count: 0 };
  const counted: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(meta)) {
    Object.defineProperty(counted, key, {
      enumerable: true,
      get() {
        reads.count++;
        return value;
      },
    });
  }
  const params = {
    name: 'refund_order',
    arguments: { order_id: 'o-1', reason_code: reasonCode },
    _meta: counted,
  };
  return { params, reads };
}

describe('the call context of an MCP call, read only for a log record', () => {
  const FakeClient = fakeClientClass();
  let h: Harness;
  before(() => {
    context.setGlobalContextManager(new StackContextManager());
  });
  after(() => {
    context.disable();
  });
  afterEach(() => h.close());

  async function instrumented(logSampleRatio: number) {
    h = harness({ valueSets: refundSources(), checkedArguments: REFUND_ARGUMENTS, logSampleRatio });
    await h.inst.ready();
    const client = new FakeClient();
    h.inst.instrumentMcpClient(client);
    return client;
  }

  it('is not read for a checked and counted call that writes no record', async () => {
    const client = await instrumented(0);
    const { params, reads } = countingParams('LATE', { 'gen_ai.conversation.id': 'c-1' });
    await client.callTool(params);
    expect(reads.count).to.equal(0);
    expect(client.sent[0]?.[0]).to.deep.equal(params);
    expect(pointsOf(await h.collect(), METRIC_TOOL_ARGUMENT_VALUE_CHECK)).to.deep.equal([
      { attributes: refundSeries(inSet(true, true)), value: 1 },
    ]);
  });

  it('is read when a record is written: _meta first, then the baggage active at the call', async () => {
    const client = await instrumented(1);
    const { params, reads } = countingParams('LATE', {
      'gen_ai.conversation.id': 'from-meta',
      'gen_ai.tool.call.id': 'call-1',
    });
    await client.callTool(params);
    expect(reads.count).to.be.greaterThan(0);
    const baggage = propagation.createBaggage({
      'gen_ai.conversation.id': { value: 'from-baggage' },
    });
    await context.with(propagation.setBaggage(context.active(), baggage), () =>
      client.callTool({ name: 'refund_order', arguments: { reason_code: 'DAMAGED' } }),
    );
    expect(
      h
        .records()
        .map((r) => [
          r.attributes[ATTR_GEN_AI_CONVERSATION_ID],
          r.attributes[ATTR_GEN_AI_TOOL_CALL_ID],
        ]),
    ).to.deep.equal([
      ['from-meta', 'call-1'],
      ['from-baggage', undefined],
    ]);
  });
});

describe('the call context the engine is handed', () => {
  it('reads the call it was made from when the engine asks for it', async () => {
    const seen: unknown[] = [];
    const engine = createScriptedEngine();
    engine.answer = (tool, args, ctx) => {
      seen.push(typeof ctx === 'function' ? ctx() : ctx);
      return { tool, action: 'call', args, findings: [] };
    };
    const client = new (fakeClientClass())();
    instrumentClient(client, engine);
    await client.callTool(countingParams('LATE', { 'gen_ai.tool.call.id': 'call-2' }).params);
    expect(seen).to.deep.equal([{ toolCallId: 'call-2' }]);
  });
});
