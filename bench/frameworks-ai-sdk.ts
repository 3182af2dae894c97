// What argcheck adds to an AI SDK tool call: `generateText` turns with one
// tool call each, on the SDK's mock model, with the tools as they are, through
// the auto-patched `generateText`, and through `inst.wrapAiSdkTools`,
// interleaved round by round in one process. A second plain variant is the
// noise floor. Node 22+ (`ai` 7): it runs in the OpenTelemetry 3.x tree.
//   bash scripts/compat-otel3.sh; npm run bench -- --only frameworks-ai-sdk [-- --rounds 60 --turns 50]
import { registerInstrumentations } from '@opentelemetry/instrumentation';
import { MeterProvider } from '@opentelemetry/sdk-metrics';
import { staticValueSet } from '@argcheck/core';
import { ToolArgumentInstrumentation } from '@argcheck/instrumentation';
import { CODES, reasonCode, scriptedModel, timeTurns } from './lib/framework-turns.js';
import type { Variant } from './lib/framework-turns.js';
import { packageVersion } from './lib/machine.js';
import { num, type BenchOptions, type BenchResult } from './lib/report.js';
import { PullReader, sumOf } from './lib/telemetry.js';

type Generate = (options: object) => Promise<unknown>;

export async function frameworksAiSdk(options: BenchOptions): Promise<BenchResult> {
  const ROUNDS = options.number('rounds', 60);
  const TURNS = options.number('turns', 50);
  const reader = new PullReader();
  const meterProvider = new MeterProvider({ readers: [reader] });
  const inst = new ToolArgumentInstrumentation({
    valueSets: { 'refunds.reason_codes': staticValueSet(CODES) },
    checkedArguments: { refund_order: { reason_code: 'refunds.reason_codes' } },
    mcp: { enabled: false },
  });
  registerInstrumentations({ instrumentations: [inst], meterProvider });
  await inst.ready();

  const ai = await import('ai');
  const { z } = await import('zod');
  // The module definition's own patch, as the loader hook applies it: a copy
  // of the namespace whose generateText is wrapped; `ai.generateText` stays plain.
  const definition = inst.getModuleDefinitions().find((d) => d.name === 'ai');
  const patched = definition?.patch?.(ai, packageVersion('ai')) as { generateText: Generate };
  if (patched.generateText === ai.generateText) throw new Error('ai was not patched');

  const tools = {
    refund_order: ai.tool({
      description: 'Refund an order',
      // Converted once, as `zodSchema` does: a raw zod schema is converted by the SDK
      // at every step, and a checked copy converts it once, which would flatter argcheck.
      inputSchema: ai.zodSchema(z.object({ order_id: z.string(), reason_code: z.string() })),
      execute: (input: { reason_code: string }) => Promise.resolve({ refunded: input.reason_code }),
    }),
  };
  const wrapped = inst.wrapAiSdkTools(tools);
  const plain = ai.generateText as Generate;
  const variant = async (key: string, generate: Generate, toolMap: object): Promise<Variant> => {
    const { model, next } = await scriptedModel();
    return {
      key,
      turn: (i) => {
        next(reasonCode(i));
        return generate({ model, tools: toolMap, stopWhen: ai.isStepCount(2), prompt: 'refund' });
      },
    };
  };
  const variants = [
    await variant('plain', plain, tools),
    await variant('control', plain, tools),
    await variant('auto-patched', patched.generateText, tools),
    await variant('wrapAiSdkTools', plain, wrapped),
  ];
  const t = await timeTurns(variants, ROUNDS, TURNS);
  const { resourceMetrics } = await reader.collect();
  const checked = sumOf(resourceMetrics, 'tool_argument_value_check');
  inst.close();
  await meterProvider.shutdown();

  const base = t.medianUs.plain ?? 0;
  const rows = variants.map((v) => [
    v.key,
    num(t.medianUs[v.key] ?? 0, 1),
    num((t.medianUs[v.key] ?? 0) / base, 3),
    `${num(((t.medianUs[v.key] ?? 0) - base) * 1000, 0)} ns`,
    num(t.p10Us[v.key] ?? 0, 1),
    num(t.p90Us[v.key] ?? 0, 1),
  ]);
  console.log(`µs per generateText turn with one tool call (${ROUNDS} rounds of ${TURNS}):`);
  for (const row of rows) console.log(`  ${row.join('  ')}`);
  const expected = (ROUNDS + 3) * TURNS * 2;
  console.log(`checks counted: ${checked} of ${expected}`);
  return {
    title: `AI SDK tool calls (\`ai\` ${packageVersion('ai')}), instrumented vs not`,
    method:
      'One `generateText` turn = a mock-model step calling `refund_order` (the SDK’s ' +
      '`MockLanguageModelV4`), the tool run, and a second step answering; arguments cycle ' +
      'through 40 codes, 5 % out of set, in observe mode against a configured set. The tool’s ' +
      'schema is `zodSchema(...)`, converted once: given a raw zod schema the SDK converts it ' +
      'at every step while a checked copy converts it once, and the instrumented turn comes ' +
      'out faster than the plain one. Variants, ' +
      'interleaved round by round in rotated order: the tools as they are (twice: the second ' +
      'is the control), the auto-patched `generateText` (the module definition’s own patch ' +
      'applied to the loaded namespace) and `inst.wrapAiSdkTools(tools)`. ' +
      `${ROUNDS} rounds of ${TURNS} turns per variant; medians of single-turn latencies.`,
    tables: [
      {
        head: ['variant', 'µs per turn', 'ratio', 'added per tool call', 'p10 µs', 'p90 µs'],
        rows,
      },
    ],
    bars: [
      {
        bar: 'every checked tool call counted once',
        figure: `${num(checked)} of ${num(expected)}`,
        holds: checked === expected,
      },
    ],
    notes: [
      'A turn of the mock model is the cheapest an AI SDK tool call can be; a real model ' +
        'call takes hundreds of milliseconds, against which the added figure is what argcheck ' +
        'costs per tool call. The control row is the noise floor of the comparison.',
    ],
    raw: { timings: t, rounds: ROUNDS, turns: TURNS },
  };
}
