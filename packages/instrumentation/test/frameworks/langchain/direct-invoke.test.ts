import { expect } from 'chai';
import { ManualClock } from '@argcheck/testing/clock';
import { REFUND_ARGUMENTS, refundSources } from '../../helpers/fixtures.js';
import { harness } from '../../helpers/telemetry.js';
import type { Harness } from '../../helpers/telemetry.js';
import { countersOf, expectedCounters, repairMessage } from '../refund-scenario.js';
import { refundTool } from './langchain-run.js';
import { freshLangChainCjs } from './load.js';

describe('LangChain.js — a tool invoked directly, and through ToolNode', function () {
  this.timeout(20_000);

  let h: Harness;
  afterEach(() => h.close());

  it('reject: invoke(args) answers with the repair message, invoke(toolCall) with an error ToolMessage; nothing throws', async () => {
    h = harness({
      valueSets: refundSources(),
      checkedArguments: REFUND_ARGUMENTS,
      mode: 'reject',
      clock: new ManualClock(),
    });
    await h.inst.ready();
    const m = freshLangChainCjs();
    const received: Record<string, string> = {};
    const tool = refundTool(m, received);
    const repair = await repairMessage();

    const direct: unknown = await tool.invoke({ order_id: 'o-3', reason_code: 'CUSTOMER_UNHAPPY' });
    const asCall: unknown = await tool.invoke({
      id: 'call-3',
      name: 'refund_order',
      args: { order_id: 'o-3', reason_code: 'CUSTOMER_UNHAPPY' },
      type: 'tool_call',
    });
    expect(direct).to.equal(repair);
    expect(m.messages.ToolMessage.isInstance(asCall)).to.equal(true);
    const message = asCall as InstanceType<typeof m.messages.ToolMessage>;
    expect([message.status, message.tool_call_id, message.name, message.text]).to.deep.equal([
      'error',
      'call-3',
      'refund_order',
      repair,
    ]);
    expect(received).to.deep.equal({});
  });

  it('a tool given to ToolNode both patched and through instrumentLangChainTool counts each call once', async () => {
    h = harness({
      valueSets: refundSources(),
      checkedArguments: REFUND_ARGUMENTS,
      mode: 'reject',
      clock: new ManualClock(),
    });
    await h.inst.ready();
    const m = freshLangChainCjs();
    const received: Record<string, string> = {};
    const tool = h.inst.instrumentLangChainTool(refundTool(m, received));
    const node = new m.prebuilt.ToolNode([tool]);
    const calls = [
      ['call-1', 'DAMAGED'],
      ['call-2', 'damaged'],
      ['call-3', 'CUSTOMER_UNHAPPY'],
    ].map(([id, code], i) => ({
      id,
      name: 'refund_order',
      args: { order_id: `o-${i + 1}`, reason_code: code },
      type: 'tool_call' as const,
    }));
    await node.invoke({ messages: [new m.messages.AIMessage({ content: '', tool_calls: calls })] });
    expect(received).to.deep.equal({ 'o-1': 'DAMAGED', 'o-2': 'DAMAGED' });
    expect(countersOf(await h.collect())).to.deep.equal(expectedCounters('reject'));
  });

  it('arguments that are not an object: no finding, no throw from argcheck, LangChain answers as it would', async () => {
    h = harness({
      valueSets: refundSources(),
      checkedArguments: REFUND_ARGUMENTS,
      mode: 'reject',
      clock: new ManualClock(),
    });
    await h.inst.ready();
    const m = freshLangChainCjs();
    const tool = refundTool(m, {});
    const error = await tool.invoke(42 as never).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).to.be.instanceOf(m.tools.ToolInputParsingException);
    expect(countersOf(await h.collect())).to.deep.equal({
      ...expectedCounters('observe'),
      tool_argument_value_check: [],
      tool_argument_mismatch: [],
    });
  });
});
