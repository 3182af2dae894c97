// A Claude Agent SDK agent whose model calls refund_order three times — with
// DAMAGED, damaged and CUSTOMER_UNHAPPY — checked by argcheck in `reject`
// mode. The tool is an in-process MCP server's; the SDK's binary talks to a
// scripted model on loopback (model.mjs): no network, no API key.
//
// Registration is all it takes: the loader hook is registered first, then the
// instrumentation, then the SDK is imported (docs/frameworks.md).
import { register } from 'node:module';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

register('@opentelemetry/instrumentation/hook.mjs', import.meta.url);

const { registerInstrumentations } = await import('@opentelemetry/instrumentation');
const { httpValueSet } = await import('@argcheck/core');
const { ToolArgumentInstrumentation } = await import('@argcheck/instrumentation');
const { startOwner } = await import('./owner.mjs');
const { metricsPipeline } = await import('./telemetry.mjs');
const { startModel } = await import('./model.mjs');

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
const { query, tool, createSdkMcpServer } = await import('@anthropic-ai/claude-agent-sdk');
const { z } = await import('zod');

const refunded = {};
const shop = createSdkMcpServer({
  name: 'shop',
  tools: [
    tool(
      'refund_order',
      'Refund an order with a reason code.',
      { order_id: z.string(), reason_code: z.string() },
      async ({ order_id, reason_code }) => {
        refunded[order_id] = reason_code;
        return { content: [{ type: 'text', text: `refunded ${order_id}` }] };
      },
    ),
  ],
});
const model = await startModel([
  { id: 'c1', name: 'mcp__shop__refund_order', input: { order_id: 'o-1', reason_code: 'DAMAGED' } },
  { id: 'c2', name: 'mcp__shop__refund_order', input: { order_id: 'o-2', reason_code: 'damaged' } },
  {
    id: 'c3',
    name: 'mcp__shop__refund_order',
    input: { order_id: 'o-3', reason_code: 'CUSTOMER_UNHAPPY' },
  },
]);
const home = mkdtempSync(join(tmpdir(), 'argcheck-claude-example-'));
let result;
for await (const message of query({
  prompt: 'Refund o-1, o-2 and o-3.',
  options: {
    model: 'claude-example',
    mcpServers: { shop },
    allowedTools: ['mcp__shop__refund_order'],
    cwd: home,
    settingSources: [],
    // The binary's whole environment: the scripted model, and nothing sent anywhere else.
    env: {
      PATH: process.env.PATH,
      HOME: home,
      ANTHROPIC_BASE_URL: model.url,
      ANTHROPIC_API_KEY: 'example',
      CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
      DISABLE_TELEMETRY: '1',
      DISABLE_AUTOUPDATER: '1',
      DISABLE_ERROR_REPORTING: '1',
      // MCP tools in the model's tools, not behind the SDK's tool search.
      ENABLE_TOOL_SEARCH: 'false',
    },
  },
})) {
  if (message.type === 'result') result = message.result;
}

const answers = model.toolResults();
console.log('the tool received:', refunded);
console.log('the model read back:', answers);
console.log('final output:', result);
const checks = await metrics.points('tool_argument_value_check');
console.log('tool_argument_value_check:\n ', checks.join('\n  '));

assert.deepEqual(refunded, { 'o-1': 'DAMAGED', 'o-2': 'DAMAGED' });
assert.match(
  answers.c3,
  /"reason_code" must be one of: "DAMAGED", "DUPLICATE_CHARGE", "LATE", "NOT_AS_DESCRIBED"/,
);
assert.equal(checks.length, 3);
// One repair, for refund_order. The series also says what produced the call:
// the query's model, the provider, and a hash of the tool's definition.
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
      'gen_ai.request.model': 'claude-example',
      'gen_ai.provider.name': 'anthropic',
      tool_definition: definition,
    },
    value: 1,
  },
]);

inst.close();
await metrics.shutdown();
await model.close();
await owner.close();
rmSync(home, { recursive: true, force: true });
console.log('ok');
