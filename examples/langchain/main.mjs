// A LangGraph agent (createReactAgent, whose ToolNode runs the tools) whose
// model calls refund_order three times — with DAMAGED, damaged and
// CUSTOMER_UNHAPPY — checked by argcheck in `reject` mode. The chat model is
// a scripted stand-in: no network, no key.
//
// Registration is all it takes: the loader hook is registered first, then the
// instrumentation, then LangChain is imported (docs/frameworks.md).
import { register } from 'node:module';
import assert from 'node:assert/strict';

register('@opentelemetry/instrumentation/hook.mjs', import.meta.url);

const { registerInstrumentations } = await import('@opentelemetry/instrumentation');
const { httpValueSet } = await import('@argcheck/core');
const { ToolArgumentInstrumentation } = await import('@argcheck/instrumentation');
const { startOwner } = await import('./owner.mjs');
const { metricsPipeline } = await import('./telemetry.mjs');

const owner = await startOwner();
const metrics = metricsPipeline();
const inst = new ToolArgumentInstrumentation({
  valueSets: { 'refunds.reason_codes': httpValueSet(owner.url) },
  checkedArguments: { refund_order: { reason_code: 'refunds.reason_codes' } },
  mode: 'reject',
});
registerInstrumentations({ instrumentations: [inst], meterProvider: metrics.meterProvider });
await inst.ready();

// Imported after registration, so the loader hook patches them.
const { tool } = await import('@langchain/core/tools');
const { AIMessage, HumanMessage, ToolMessage } = await import('@langchain/core/messages');
const { BaseChatModel } = await import('@langchain/core/language_models/chat_models');
const { createReactAgent } = await import('@langchain/langgraph/prebuilt');
const { z } = await import('zod');

/**
 * A chat model that plays its turns in order and keeps what it was shown.
 * It names its model the way ChatOpenAI or ChatAnthropic do, from its own
 * configuration: argcheck attributes each tool call to the model whose
 * message carried it.
 */
class ScriptedChatModel extends BaseChatModel {
  constructor(turns) {
    super({});
    this.turns = turns;
    this.seen = [];
  }
  _llmType() {
    return 'scripted';
  }
  bindTools() {
    return this;
  }
  getLsParams(options) {
    return { ...super.getLsParams(options), ls_model_name: 'gpt-4.1', ls_provider: 'openai' };
  }
  async _generate(messages) {
    this.seen.push(messages);
    const message = this.turns[this.seen.length - 1];
    return { generations: [{ text: message.text, message }] };
  }
}

const refunded = {};
const refundOrder = tool(
  async ({ order_id, reason_code }) => {
    refunded[order_id] = reason_code;
    return `refunded ${order_id}`;
  },
  {
    name: 'refund_order',
    description: 'Refund an order with a reason code.',
    schema: z.object({ order_id: z.string(), reason_code: z.string() }),
  },
);
const call = (id, order_id, reason_code) => ({
  id,
  name: 'refund_order',
  args: { order_id, reason_code },
  type: 'tool_call',
});
const model = new ScriptedChatModel([
  new AIMessage({
    content: '',
    tool_calls: [
      call('c1', 'o-1', 'DAMAGED'),
      call('c2', 'o-2', 'damaged'),
      call('c3', 'o-3', 'CUSTOMER_UNHAPPY'),
    ],
  }),
  new AIMessage('Two orders refunded; o-3 needs a valid reason code.'),
]);
const agent = createReactAgent({ llm: model, tools: [refundOrder] });
const state = await agent.invoke({ messages: [new HumanMessage('Refund o-1, o-2 and o-3.')] });

const answers = Object.fromEntries(
  model.seen[1]
    .filter((m) => ToolMessage.isInstance(m))
    .map((m) => [m.tool_call_id, `${m.status}: ${m.text}`]),
);
console.log('the tool received:', refunded);
console.log('the model read back:', answers);
console.log('final output:', state.messages.at(-1).text);
const checks = await metrics.points('tool_argument_value_check');
console.log('tool_argument_value_check:\n ', checks.join('\n  '));

assert.deepEqual(refunded, { 'o-1': 'DAMAGED', 'o-2': 'DAMAGED' });
assert.match(
  answers.c3,
  /^error: .*"reason_code" must be one of: "DAMAGED", "DUPLICATE_CHARGE", "LATE", "NOT_AS_DESCRIBED"/,
);
assert.equal(checks.length, 3);
// One repair, for refund_order. The series also says what produced the call:
// the chat model, and tool_definition, a hash of the tool's description and
// input schema.
const repairs = (await metrics.points('tool_argument_repair_started')).map((line) => {
  const space = line.lastIndexOf(' ');
  return { attributes: JSON.parse(line.slice(0, space)), value: Number(line.slice(space + 1)) };
});
const definition = repairs[0]?.attributes.tool_definition;
assert.match(definition, /^[0-9a-f]{12}$/);
assert.deepEqual(repairs, [
  {
    attributes: {
      tool: 'refund_order',
      'gen_ai.request.model': 'gpt-4.1',
      'gen_ai.provider.name': 'openai',
      tool_definition: definition,
    },
    value: 1,
  },
]);

inst.close();
await metrics.shutdown();
await owner.close();
console.log('ok');
