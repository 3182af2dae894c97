import { createRequire } from 'node:module';
import { expect } from 'chai';
import type * as Outputs from '@langchain/core/outputs';
import { ManualClock } from '@argcheck/testing/clock';
import { pointsOf } from '@argcheck/testing/metrics';
import { MAX_REMEMBERED } from '../../src/integrations/langchain/model-patch.js';
import { METRIC_TOOL_ARGUMENT_VALUE_CHECK } from '../../src/semconv.js';
import { REFUND_ARGUMENTS, inSet, refundSeries, refundSources } from '../helpers/fixtures.js';
import { harness } from '../helpers/telemetry.js';
import type { Harness } from '../helpers/telemetry.js';
import { refundTool, scriptedChatModel } from '../frameworks/langchain/langchain-run.js';
import type { LangChainModules, ScriptedModelName } from '../frameworks/langchain/langchain-run.js';
import { freshLangChainCjs } from '../frameworks/langchain/load.js';

const require = createRequire(import.meta.url);

/** The outputs module of the `@langchain/core` build just loaded (the cache holds that copy). */
const outputs = () => require('@langchain/core/outputs') as typeof Outputs;

type Point = { attributes: Record<string, unknown>; value: number };

const byAttributes = (a: Point, b: Point) =>
  JSON.stringify(a.attributes).localeCompare(JSON.stringify(b.attributes));

const GPT: ScriptedModelName = { model: 'gpt-4.1', provider: 'openai' };
const CLAUDE: ScriptedModelName = { model: 'claude-sonnet-4-5', provider: 'anthropic' };

const by = (name: ScriptedModelName) => ({
  'gen_ai.request.model': name.model,
  'gen_ai.provider.name': name.provider,
});

/** One agent run of LangGraph's prebuilt agent on `name`'s model: one refund per code. */
async function agentRun(
  m: LangChainModules,
  name: ScriptedModelName | undefined,
  prefix: string,
  codes: string[],
): Promise<void> {
  const model = scriptedChatModel(
    m,
    [
      new m.messages.AIMessage({
        content: '',
        tool_calls: codes.map((code, i) => ({
          id: `${prefix}-${i}`,
          name: 'refund_order',
          args: { order_id: `o-${i}`, reason_code: code },
          type: 'tool_call' as const,
        })),
      }),
      new m.messages.AIMessage('done'),
    ],
    name,
  );
  const agent = m.prebuilt.createReactAgent({ llm: model, tools: [refundTool(m, {})] });
  await agent.invoke({ messages: [new m.messages.HumanMessage('refund')] });
}

describe('attribution through LangChain.js (CommonJS, auto-patched)', function () {
  this.timeout(20_000);
  let h: Harness;
  afterEach(() => h.close());

  const setUp = async (attribution: Record<string, unknown> = {}) => {
    h = harness({
      valueSets: refundSources(),
      checkedArguments: REFUND_ARGUMENTS,
      clock: new ManualClock(),
      logSampleRatio: 0,
      attribution: { toolDefinition: false, ...attribution },
    });
    await h.inst.ready();
    return freshLangChainCjs();
  };

  const checks = async () =>
    (pointsOf(await h.collect(), METRIC_TOOL_ARGUMENT_VALUE_CHECK) as Point[]).sort(byAttributes);

  it('names the chat model whose message carried each tool call: two models split exactly', async () => {
    const m = await setUp();
    await agentRun(m, GPT, 'gpt-a', ['DAMAGED', 'damaged']);
    await agentRun(m, CLAUDE, 'claude-a', ['CUSTOMER_UNHAPPY', 'DAMAGED', 'LATE']);
    await agentRun(m, GPT, 'gpt-b', ['DAMAGED']);
    expect(await checks()).to.deep.equal(
      [
        { attributes: refundSeries({ ...by(CLAUDE), ...inSet(false, false) }), value: 1 },
        { attributes: refundSeries({ ...by(CLAUDE), ...inSet(true, true) }), value: 2 },
        { attributes: refundSeries({ ...by(GPT), ...inSet(false, true) }), value: 1 },
        { attributes: refundSeries({ ...by(GPT), ...inSet(true, true) }), value: 2 },
      ].sort(byAttributes),
    );
  });

  it('a streamed model answer names its model too (`model.stream()`, then the tool call)', async () => {
    const m = await setUp();
    const { AIMessageChunk } = m.messages;
    class StreamingModel extends m.chatModels.BaseChatModel {
      _llmType() {
        return 'streaming';
      }
      override getLsParams(options: this['ParsedCallOptions']) {
        return { ...super.getLsParams(options), ls_model_name: 'gpt-4.1', ls_provider: 'openai' };
      }
      _generate(): Promise<never> {
        return Promise.reject(new Error('streams only'));
      }
      override async *_streamResponseChunks() {
        const { ChatGenerationChunk } = outputs();
        yield new ChatGenerationChunk({
          text: '',
          message: new AIMessageChunk({
            content: '',
            tool_call_chunks: [
              { id: 'stream-1', name: 'refund_order', args: '{"order_id":"o-1",', index: 0 },
            ],
          }),
        });
        yield new ChatGenerationChunk({
          text: '',
          message: new AIMessageChunk({
            content: '',
            tool_call_chunks: [{ args: '"reason_code":"LATE"}', index: 0 }],
          }),
        });
        return Promise.resolve();
      }
    }
    let message: InstanceType<typeof AIMessageChunk> | undefined;
    for await (const chunk of await new StreamingModel({}).stream('refund')) {
      message = message === undefined ? chunk : message.concat(chunk);
    }
    const call = message?.tool_calls?.[0];
    expect(call?.id).to.equal('stream-1');
    await refundTool(m, {}).invoke({ ...call, type: 'tool_call' } as never);
    expect(await checks()).to.deep.equal([
      { attributes: refundSeries({ ...by(GPT), ...inSet(true, true) }), value: 1 },
    ]);
  });

  it('a tool call no model of this process produced falls back to the options', async () => {
    const m = await setUp({ model: 'configured-model' });
    await refundTool(m, {}).invoke({
      id: 'from-elsewhere',
      name: 'refund_order',
      args: { order_id: 'o-1', reason_code: 'DAMAGED' },
      type: 'tool_call',
    });
    await refundTool(m, {}).invoke({ order_id: 'o-2', reason_code: 'DAMAGED' });
    expect(await checks()).to.deep.equal([
      {
        attributes: refundSeries({
          'gen_ai.request.model': 'configured-model',
          ...inSet(true, true),
        }),
        value: 2,
      },
    ]);
  });

  it(`remembers the last ${MAX_REMEMBERED} tool call ids, forgetting the oldest first`, async () => {
    const m = await setUp({ model: 'configured-model' });
    const model = scriptedChatModel(
      m,
      Array.from(
        { length: MAX_REMEMBERED + 1 },
        (_, i) =>
          new m.messages.AIMessage({
            content: '',
            tool_calls: [
              {
                id: `id-${i}`,
                name: 'refund_order',
                args: { order_id: `o-${i}`, reason_code: 'DAMAGED' },
                type: 'tool_call' as const,
              },
            ],
          }),
      ),
      GPT,
    );
    for (let i = 0; i <= MAX_REMEMBERED; i += 1) await model.invoke('refund');
    const tool = refundTool(m, {});
    const call = (id: string) =>
      tool.invoke({
        id,
        name: 'refund_order',
        args: { order_id: 'o', reason_code: 'DAMAGED' },
        type: 'tool_call',
      });
    await call('id-0');
    await call('id-1');
    await call(`id-${MAX_REMEMBERED}`);
    expect(await checks()).to.deep.equal(
      [
        { attributes: refundSeries({ ...by(GPT), ...inSet(true, true) }), value: 2 },
        {
          attributes: refundSeries({
            'gen_ai.request.model': 'configured-model',
            ...inSet(true, true),
          }),
          value: 1,
        },
      ].sort(byAttributes),
    );
  });
});
