// An AI SDK agent whose refund tool is checked by argcheck, with no network
// and no API key: the model is the SDK's own mock (`ai/test`), scripted to
// call refund_order with a valid code, a case variant and an invented code.
// argcheck runs in reject mode. Exits non-zero if anything is not as expected.
import assert from 'node:assert/strict';
import { register } from 'node:module';

// In an application this part lives in an --import file (see README.md):
// loader hook first, then the instrumentation, then the app imports `ai`.
register('@opentelemetry/instrumentation/hook.mjs', import.meta.url);
const { registerInstrumentations } = await import('@opentelemetry/instrumentation');
const {
  MeterProvider,
  InMemoryMetricExporter,
  PeriodicExportingMetricReader,
  AggregationTemporality,
} = await import('@opentelemetry/sdk-metrics');
const { staticValueSet } = await import('@argcheck/core');
const { ToolArgumentInstrumentation } = await import('@argcheck/instrumentation');

const exporter = new InMemoryMetricExporter(AggregationTemporality.CUMULATIVE);
const reader = new PeriodicExportingMetricReader({ exporter, exportIntervalMillis: 3_600_000 });
const meterProvider = new MeterProvider({ readers: [reader] });
const inst = new ToolArgumentInstrumentation({
  mode: 'reject',
  // The owner's list; in production an httpValueSet on the refunds service.
  valueSets: { 'refunds.reason_codes': staticValueSet(['DAMAGED', 'LATE', 'NOT_AS_DESCRIBED']) },
  checkedArguments: { refund_order: { reason_code: 'refunds.reason_codes' } },
  logSampleRatio: 0,
});
registerInstrumentations({ instrumentations: [inst], meterProvider });
await inst.ready();

// The application.
const { generateText, isStepCount, tool } = await import('ai');
const { MockLanguageModelV4 } = await import('ai/test');
const { z } = await import('zod');

const refunds = [];
const tools = {
  refund_order: tool({
    description: 'Refund an order',
    inputSchema: z.object({ order_id: z.string(), reason_code: z.string() }),
    execute: async ({ order_id, reason_code }) => {
      refunds.push(reason_code);
      return { refunded: order_id, reason_code };
    },
  }),
};

/** A mock model: first turn calls refund_order with `code`, second answers; keeps what it was sent. */
function scriptedModel(code) {
  const prompts = [];
  const usage = { inputTokens: { total: 1 }, outputTokens: { total: 1 } };
  const model = new MockLanguageModelV4({
    doGenerate: async ({ prompt }) => {
      prompts.push(prompt);
      if (prompts.length > 1) {
        return {
          content: [{ type: 'text', text: 'Done.' }],
          finishReason: { unified: 'stop' },
          usage,
          warnings: [],
        };
      }
      const input = JSON.stringify({ order_id: 'A-1001', reason_code: code });
      return {
        content: [{ type: 'tool-call', toolCallId: 'call-1', toolName: 'refund_order', input }],
        finishReason: { unified: 'tool-calls' },
        usage,
        warnings: [],
      };
    },
  });
  const toolResult = () =>
    prompts[1]?.find((m) => m.role === 'tool')?.content.find((p) => p.type === 'tool-result')
      ?.output;
  return { model, toolResult };
}

const seen = {};
for (const code of ['DAMAGED', 'damaged', 'CUSTOMER_UNHAPPY']) {
  const { model, toolResult } = scriptedModel(code);
  await generateText({ model, tools, stopWhen: isStepCount(2), prompt: 'Refund order A-1001.' });
  seen[code] = toolResult();
  console.log(`model sent ${JSON.stringify(code)}; it read back: ${JSON.stringify(seen[code])}`);
}

await reader.forceFlush();
const checks = exporter
  .getMetrics()
  .flatMap((r) => r.scopeMetrics)
  .flatMap((s) => s.metrics)
  .filter((m) => m.descriptor.name === 'tool_argument_value_check')
  .flatMap((m) => m.dataPoints)
  .filter((p) => p.value > 0)
  .map((p) => `${p.attributes.in_set}/${p.attributes.in_set_normalised}=${p.value}`)
  .sort();
console.log('refunds made:', refunds);
console.log('tool_argument_value_check (in_set/in_set_normalised=count):', checks);

// The case variant ran as the member; the invented code never reached the tool.
assert.deepEqual(refunds, ['DAMAGED', 'DAMAGED']);
assert.equal(seen.CUSTOMER_UNHAPPY.type, 'text');
assert.match(seen.CUSTOMER_UNHAPPY.value, /"reason_code" must be one of/);
assert.deepEqual(checks, ['false/false=1', 'false/true=1', 'true/true=1']);
inst.close();
await meterProvider.shutdown();
console.log('ok');
