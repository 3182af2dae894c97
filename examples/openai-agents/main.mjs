// An OpenAI Agents SDK agent whose model calls refund_order three times —
// with DAMAGED, damaged and CUSTOMER_UNHAPPY — checked by argcheck in
// `reject` mode. The model is the SDK's own ScriptedModel: no network, no key.
//
// Registration is all it takes: the loader hook is registered first, then the
// instrumentation, then the framework is imported (docs/frameworks.md).
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

// Imported after registration, so the loader hook patches it.
const { Agent, run, tool, setTracingDisabled } = await import('@openai/agents');
const { ScriptedModel, functionCall, assistantMessage } =
  await import('@openai/agents-core/testing');
const { z } = await import('zod');
setTracingDisabled(true);

const refunded = {};
const refundOrder = tool({
  name: 'refund_order',
  description: 'Refund an order with a reason code.',
  parameters: z.object({ order_id: z.string(), reason_code: z.string() }),
  execute: async ({ order_id, reason_code }) => {
    refunded[order_id] = reason_code;
    return `refunded ${order_id}`;
  },
});
const model = new ScriptedModel([
  [
    functionCall('refund_order', { order_id: 'o-1', reason_code: 'DAMAGED' }, { callId: 'c1' }),
    functionCall('refund_order', { order_id: 'o-2', reason_code: 'damaged' }, { callId: 'c2' }),
    functionCall(
      'refund_order',
      { order_id: 'o-3', reason_code: 'CUSTOMER_UNHAPPY' },
      { callId: 'c3' },
    ),
  ],
  [assistantMessage('Two orders refunded; o-3 needs a valid reason code.')],
]);
const agent = new Agent({
  name: 'refunds',
  instructions: 'Refund orders.',
  model,
  tools: [refundOrder],
});
const result = await run(agent, 'Refund o-1, o-2 and o-3.');

const answers = Object.fromEntries(
  model.calls[1].request.input
    .filter((item) => item.type === 'function_call_result')
    .map((item) => [item.callId, item.output.text ?? item.output]),
);
console.log('the tool received:', refunded);
console.log('the model read back:', answers);
console.log('final output:', result.finalOutput);
const checks = await metrics.points('tool_argument_value_check');
console.log('tool_argument_value_check:\n ', checks.join('\n  '));

assert.deepEqual(refunded, { 'o-1': 'DAMAGED', 'o-2': 'DAMAGED' });
assert.match(
  answers.c3,
  /"reason_code" must be one of: "DAMAGED", "DUPLICATE_CHARGE", "LATE", "NOT_AS_DESCRIBED"/,
);
assert.equal(checks.length, 3);
// One repair, for refund_order. The series also says what produced the call:
// tool_definition is a hash of the tool's description and input schema.
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
      'gen_ai.agent.name': 'refunds',
      tool_definition: definition,
    },
    value: 1,
  },
]);

inst.close();
await metrics.shutdown();
await owner.close();
console.log('ok');
