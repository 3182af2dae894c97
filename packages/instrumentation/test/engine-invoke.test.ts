import { expect } from 'chai';
import { METRIC_TOOL_ARGUMENT_VALUE_CHECK } from '../src/semconv.js';
import { FakeClock } from './helpers/fake-clock.js';
import { inSet, REFUND_ARGUMENTS, refundSeries, refundSources } from './helpers/fixtures.js';
import { harness, pointsOf } from './helpers/telemetry.js';
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
      clock: new FakeClock(),
      mode,
    });
    await h.inst.ready();
    return engineOf(h.inst);
  }

  const call = (reason_code: string) => ({
    tool: 'refund_order',
    args: { order_id: 'o-1', reason_code },
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

  it('counts a framework tool backed by an MCP client once; a second MCP call inside is checked on its own', async () => {
    const engine = await setUp('observe');
    const client = new (fakeClientClass())();
    h.inst.instrumentMcpClient(client);
    const mcpCall = () =>
      client.callTool({ name: 'refund_order', arguments: { reason_code: 'LATE' } });
    const answer = () => Promise.resolve();
    await engine.invoke<Promise<unknown>>(call('LATE'), () => mcpCall(), answer);
    await engine.invoke<Promise<unknown>>(
      call('LATE'),
      async () => {
        await mcpCall();
        await mcpCall();
      },
      answer,
    );
    await mcpCall();
    expect(client.sent).to.have.length(4);
    expect(pointsOf(await h.collect(), METRIC_TOOL_ARGUMENT_VALUE_CHECK)).to.deep.equal([
      // Two framework calls, the second MCP call of the second tool, and the MCP call outside any tool.
      { attributes: refundSeries(inSet(true, true)), value: 4 },
    ]);
  });

  it('runs the tool with the model’s arguments when the call object itself throws', async () => {
    const engine = await setUp('reject');
    const hostile = {
      get tool(): string {
        throw new Error('hostile');
      },
      args: { reason_code: 'x' },
    };
    expect(engine.invoke(hostile, (args) => args, answered)).to.equal(hostile.args);
  });
});
