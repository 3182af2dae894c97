import { expect } from 'chai';
import { DiagLogLevel } from '@opentelemetry/api';
import { ToolArgumentInstrumentation } from '../../src/instrumentation.js';
import { captureDiag } from '@argcheck/testing/diag';
import type { CapturedDiag } from '@argcheck/testing/diag';
import { REFUND_ARGUMENTS, refundSources } from '../helpers/fixtures.js';

/** No framework is loaded here: these run on every Node the package supports. */
describe('frameworks — bad input and unsupported versions', () => {
  let inst: ToolArgumentInstrumentation;
  let captured: CapturedDiag;
  beforeEach(() => {
    captured = captureDiag(DiagLogLevel.WARN);
    // Enabled: explicit entry points check only while their instrumentation is.
    inst = new ToolArgumentInstrumentation({
      mode: 'reject',
      valueSets: refundSources(),
      checkedArguments: REFUND_ARGUMENTS,
    });
  });
  afterEach(() => {
    inst.disable();
    inst.close();
    captured.restore();
  });

  const definition = (name: string) =>
    inst.getModuleDefinitions().find((d) => d.name === name) as {
      patch: (exports: unknown, version?: string) => unknown;
      files: { name: string; patch: (exports: unknown, version?: string) => unknown }[];
    };

  it('leaves a framework version outside the supported range unpatched, and says so once', () => {
    const generateText = () => 'original';
    const ai = { generateText };
    expect(definition('ai').patch(ai, '6.0.0')).to.equal(ai);
    expect(definition('ai').patch(ai, '8.1.0')).to.equal(ai);
    expect(ai.generateText).to.equal(generateText);
    const convertTools = () => Promise.resolve({});
    class Agent {}
    Object.assign(Agent.prototype, { convertTools });
    const agentFile = definition('@mastra/core').files[0];
    agentFile?.patch({ Agent }, '0.24.0');
    expect((Agent.prototype as { convertTools?: unknown }).convertTools).to.equal(convertTools);
    // Other tests of this process may have loaded `ai` before: that has its own warning.
    const outside = captured.messages
      .map((m) => m.message)
      .filter((m) => m.includes('outside the supported range'));
    expect(outside).to.deep.equal([
      '@argcheck/instrumentation argcheck: ai 6.0.0 is outside the supported range >=7.0.0 <8.0.0; its tool calls are not checked. Use a supported version, or the explicit entry point (docs/frameworks.md).',
      '@argcheck/instrumentation argcheck: @mastra/core 0.24.0 is outside the supported range >=1.0.0 <2.0.0; its tool calls are not checked. Use a supported version, or the explicit entry point (docs/frameworks.md).',
    ]);
  });

  it('passes tools without execute, with a non-function execute, and odd maps through as they are', () => {
    const clientSide = { description: 'runs in the browser', inputSchema: {} };
    const broken = { execute: 'not a function' };
    const tools = { client_side: clientSide, broken };
    expect(inst.wrapAiSdkTools(tools)).to.equal(tools);
    for (const odd of [undefined, null, 42, 'tools', []]) {
      expect(inst.wrapAiSdkTools(odd)).to.equal(odd);
    }
    const hostile = Object.defineProperty({}, 'refund_order', {
      enumerable: true,
      get() {
        throw new Error('hostile getter');
      },
    });
    expect(inst.wrapAiSdkTools(hostile)).to.equal(hostile);
  });

  it('makes copies and leaves the caller’s tools and map unchanged; a checked map comes back as it is', () => {
    const execute = () => 'ran';
    const refund = { description: 'refund', inputSchema: undefined, execute };
    const tools = { refund_order: refund };
    const checked = inst.wrapAiSdkTools(tools);
    expect(checked).to.not.equal(tools);
    expect(checked.refund_order).to.not.equal(refund);
    expect(checked.refund_order.description).to.equal('refund');
    expect(tools.refund_order).to.equal(refund);
    expect(refund.execute).to.equal(execute);
    expect(inst.wrapAiSdkTools(checked)).to.equal(checked);
    expect(inst.wrapAiSdkTools(tools).refund_order).to.equal(checked.refund_order);
  });

  it('a Mastra hook lets calls it cannot read through, and never throws', () => {
    const { beforeToolCall } = inst.mastraHooks();
    const odd = [
      { toolName: 'refund_order', input: 'not an object', context: undefined },
      { toolName: 'refund_order', input: null, context: null },
      { toolName: 42 as unknown as string, input: {}, context: {} },
      { toolName: 'unknown_tool', input: { reason_code: 'x' }, context: {} },
    ];
    for (const ctx of odd) expect(beforeToolCall(ctx)).to.equal(undefined);
  });

  it('a Mastra hook runs the given hook after its check, and answers a rejection itself', async () => {
    const seen: unknown[] = [];
    const hooks = inst.mastraHooks({
      beforeToolCall: (ctx) => {
        seen.push(ctx.input);
      },
      afterToolCall: () => undefined,
    });
    await inst.ready();
    const ok = { order_id: 'o-1', reason_code: 'late' };
    expect(hooks.beforeToolCall({ toolName: 'refund_order', input: ok, context: {} })).to.equal(
      undefined,
    );
    // normalise writes the member into Mastra's per-call copy; reject mode does so for variants too.
    expect(seen).to.deep.equal([{ order_id: 'o-1', reason_code: 'LATE' }]);
    const answer = hooks.beforeToolCall({
      toolName: 'refund_order',
      input: { order_id: 'o-1', reason_code: 'CUSTOMER_UNHAPPY' },
      context: { toolCallId: 'c-1' },
    }) as unknown as { proceed: boolean; output: { error: boolean; message: string } };
    expect(answer.proceed).to.equal(false);
    expect(answer.output.error).to.equal(true);
    expect(answer.output.message).to.include('"reason_code" must be one of');
    expect(seen).to.have.length(1);
    expect(typeof hooks.afterToolCall).to.equal('function');
  });
});
