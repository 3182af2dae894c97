// What argcheck adds to a Mastra tool call: `agent.generate` turns with one
// tool call each, on the AI SDK's mock model, plain, auto-patched
// (`Agent.prototype.convertTools`) and through `inst.mastraHooks()`,
// interleaved round by round in one process. A second plain variant is the
// noise floor. Node 22.13+ (`@mastra/core` 1): it runs in the OpenTelemetry 3.x tree.
//   bash scripts/compat-otel3.sh; npm run bench -- --only frameworks-mastra [-- --rounds 30 --turns 20]
import { registerInstrumentations } from '@opentelemetry/instrumentation';
import { MeterProvider } from '@opentelemetry/sdk-metrics';
import { staticValueSet } from '@argcheck/core';
import { ToolArgumentInstrumentation } from '@argcheck/instrumentation';
import { CODES, reasonCode, scriptedModel, timeTurns } from './lib/framework-turns.js';
import type { Variant } from './lib/framework-turns.js';
import { packageVersion } from './lib/machine.js';
import { num, type BenchOptions, type BenchResult } from './lib/report.js';
import { PullReader, sumOf } from './lib/telemetry.js';

interface MastraAgent {
  generate(prompt: string, options?: object): Promise<unknown>;
}
type AgentClass = new (config: object) => MastraAgent;
type ConvertTools = (this: unknown, ...args: unknown[]) => unknown;

export async function frameworksMastra(options: BenchOptions): Promise<BenchResult> {
  const ROUNDS = options.number('rounds', 30);
  const TURNS = options.number('turns', 20);
  const reader = new PullReader();
  const meterProvider = new MeterProvider({ readers: [reader] });
  const inst = new ToolArgumentInstrumentation({
    valueSets: { 'refunds.reason_codes': staticValueSet(CODES) },
    checkedArguments: { refund_order: { reason_code: 'refunds.reason_codes' } },
    mcp: { enabled: false },
  });
  registerInstrumentations({ instrumentations: [inst], meterProvider });
  await inst.ready();

  const agentModule = await import('@mastra/core/agent');
  const { createTool } = await import('@mastra/core/tools');
  const { z } = await import('zod');
  const Agent = agentModule.Agent as unknown as AgentClass;
  const proto = Agent.prototype as unknown as Record<string, unknown>;
  const convertTools = proto.convertTools as ConvertTools;
  // Agents of this class keep the method as it was before the patch below.
  class PlainAgent extends Agent {}
  Object.defineProperty(PlainAgent.prototype, 'convertTools', { value: convertTools });
  // The module definition's own patch on the ESM agent entry, as the loader hook applies it.
  const file = inst
    .getModuleDefinitions()
    .find((d) => d.name === '@mastra/core')
    ?.files.find((f) => f.name.endsWith('index.js'));
  file?.patch(agentModule, packageVersion('@mastra/core'));
  if (proto.convertTools === convertTools) throw new Error('Mastra was not patched');

  const refund = createTool({
    id: 'refund_order',
    description: 'Refund an order',
    inputSchema: z.object({ order_id: z.string(), reason_code: z.string() }),
    execute: (input) => Promise.resolve({ refunded: input.reason_code }),
  });
  const variant = async (key: string, Class: AgentClass, extra: object = {}): Promise<Variant> => {
    const { model, next } = await scriptedModel();
    const agent = new Class({
      id: 'support',
      name: 'support',
      instructions: 'Refund orders.',
      model,
      tools: { refund_order: refund },
      ...extra,
    });
    return {
      key,
      turn: (i) => {
        next(reasonCode(i));
        return agent.generate('refund', { maxSteps: 2 });
      },
    };
  };
  const variants = [
    await variant('plain', PlainAgent),
    await variant('control', PlainAgent),
    await variant('auto-patched', Agent),
    await variant('mastraHooks', PlainAgent, { hooks: inst.mastraHooks() }),
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
  console.log(`µs per agent.generate turn with one tool call (${ROUNDS} rounds of ${TURNS}):`);
  for (const row of rows) console.log(`  ${row.join('  ')}`);
  const expected = (ROUNDS + 3) * TURNS * 2;
  console.log(`checks counted: ${checked} of ${expected}`);
  return {
    title: `Mastra tool calls (\`@mastra/core\` ${packageVersion('@mastra/core')}), instrumented vs not`,
    method:
      'One `agent.generate` turn = a mock-model step (the AI SDK’s `MockLanguageModelV4`) ' +
      'calling `refund_order`, the tool run, and a second step answering; arguments cycle ' +
      'through 40 codes, 5 % out of set, in observe mode against a configured set. Variants, ' +
      'interleaved round by round in rotated order: a plain agent (twice: the second is the ' +
      'control), an agent of the patched class (the module definition’s own patch applied to ' +
      'the ESM entry) and a plain agent with `hooks: inst.mastraHooks()`. ' +
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
      'A Mastra turn on a mock model is milliseconds of the framework’s own work; a real model ' +
        'call adds hundreds more. The control row is the noise floor of the comparison.',
    ],
    raw: { timings: t, rounds: ROUNDS, turns: TURNS },
  };
}
