import { expect } from 'chai';
import { METRIC_TOOL_ARGUMENT_VALUE_CHECK } from '../src/semconv.js';
import { ManualClock } from '@argcheck/testing/clock';
import { inSet, REFUND_ARGUMENTS, refundSeries, refundSources } from './helpers/fixtures.js';
import { harness } from './helpers/telemetry.js';
import { pointsOf } from '@argcheck/testing/metrics';
import type { Harness } from './helpers/telemetry.js';
import { engineOf } from './mcp/helpers/recorded.js';
import { fakeClientClass } from './mcp/helpers/scripted-engine.js';

describe('engine.invoke: the seam for integrations that run the tool', () => {
  let h: Harness;
  afterEach(() => h.close());

  async function setUp(mode: 'observe' | 'normalise' | 'reject') {
    h = harness({
      valueSets: refundSources(),
      checkedArguments: REFUND_ARGUMENTS,
      clock: new ManualClock(),
      mode,
    });
    await h.inst.ready();
    return engineOf(h.inst);
  }

  const call = (reason_code: string) => ({
    tool: 'refund_order',
    args: { order_id: 'o-1', reason_code },
    integration: 'langchain' as const,
  });
  const answered = (message: string) => ({ answered: message });

  it('runs the tool with the model’s own arguments in observe mode', async () => {
    const engine = await setUp('observe');
    const c = call('damaged');
    expect(engine.invoke(c, (args) => args, answered)).to.equal(c.args);
  });

  it('runs the tool with the canonical member in normalise mode, and never changes the caller’s object', async () => {
    const engine = await setUp('normalise');
    const c = call('damaged');
    expect(engine.invoke(c, (args) => args, answered)).to.deep.equal({
      order_id: 'o-1',
      reason_code: 'DAMAGED',
    });
    expect(c.args.reason_code).to.equal('damaged');
  });

  it('answers with the repair message instead of running the tool in reject mode', async () => {
    const engine = await setUp('reject');
    let ran = false;
    const result = engine.invoke<string>(
      call('CUSTOMER_UNHAPPY'),
      () => {
        ran = true;
        return 'ran';
      },
      (message) => message,
    );
    expect(ran).to.equal(false);
    expect(result).to.be.a('string').and.include('"DAMAGED"');
  });

  it('counts a framework tool backed by an MCP client once: only the same call inside is exempt, and only once', async () => {
    const engine = await setUp('observe');
    const client = new (fakeClientClass())();
    h.inst.instrumentMcpClient(client);
    const mcpCall = (args: object) => client.callTool({ name: 'refund_order', arguments: args });
    const same = call('LATE').args;
    const answer = () => Promise.resolve();
    // The framework tool is the MCP tool: its MCP call is the same call.
    await engine.invoke<Promise<unknown>>(call('LATE'), () => mcpCall(same), answer);
    // Twice the same call, then another one: only the first is the framework's.
    await engine.invoke<Promise<unknown>>(
      call('LATE'),
      async () => {
        await mcpCall(same);
        await mcpCall(same);
        await mcpCall({ order_id: 'o-2', reason_code: 'LATE' });
      },
      answer,
    );
    await mcpCall(same);
    expect(client.sent).to.have.length(5);
    expect(pointsOf(await h.collect(), METRIC_TOOL_ARGUMENT_VALUE_CHECK)).to.deep.equal([
      // Two framework calls, the second and third MCP calls of the second tool, the one outside.
      { attributes: refundSeries(inSet(true, true)), value: 5 },
    ]);
  });

  it('runs the tool with the model’s arguments when the call object itself throws', async () => {
    const engine = await setUp('reject');
    const hostile = {
      get tool(): string {
        throw new Error('hostile');
      },
      args: { reason_code: 'x' },
      integration: 'langchain' as const,
    };
    expect(engine.invoke(hostile, (args) => args, answered)).to.equal(hostile.args);
  });
});
