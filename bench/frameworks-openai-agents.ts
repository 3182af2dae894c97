// OpenAI Agents SDK function tool calls through the SDK's own runner (`run`
// with its ScriptedModel: one turn of tool calls, then the answer), with the
// instrumentation disabled and enabled, in one process; µs per tool call.
//   npm run bench -- --only frameworks-openai-agents [-- --rounds 200 --calls 10]
import { ARGS, compareToggled, registerBeforeFramework } from './lib/framework-calls.js';
import { packageVersion } from './lib/machine.js';
import { num, type BenchOptions, type BenchResult } from './lib/report.js';

export async function frameworksOpenAiAgents(options: BenchOptions): Promise<BenchResult> {
  // Ten calls a turn: what one model turn rarely exceeds, so the runner's
  // per-turn work is shared as in an agent's run.
  const ROUNDS = options.number('rounds', 200);
  const CALLS = options.number('calls', 10);
  const registered = await registerBeforeFramework();
  const { Agent, run, setTracingDisabled, tool } = await import('@openai/agents');
  const { ScriptedModel, assistantMessage, functionCall } =
    await import('@openai/agents-core/testing');
  const { z } = await import('zod');
  setTracingDisabled(true);

  const refund = tool({
    name: 'refund_order',
    description: 'Refund an order',
    parameters: z.object({ order_id: z.string(), reason_code: z.string() }),
    execute: () => Promise.resolve('refunded'),
  });
  // One run: a model turn with `n` calls of the tool, then the final answer.
  const batch = async (n: number, offset: number) => {
    const calls = Array.from({ length: n }, (_, i) =>
      functionCall('refund_order', ARGS[(offset + i) % ARGS.length] ?? {}, { callId: `c${i}` }),
    );
    const model = new ScriptedModel([calls, [assistantMessage('done')]]);
    await run(new Agent({ name: 'refunds', model, tools: [refund] }), 'refund');
  };
  const r = await compareToggled(registered.inst, batch, ROUNDS, CALLS);
  const checked = await registered.checked();
  await registered.close();
  console.log(
    `µs per tool call (median of ${ROUNDS} rounds): plain ${num(r.medianUs.plain, 2)}, ` +
      `control ${num(r.medianUs.control, 2)}, instrumented ${num(r.medianUs.instrumented, 2)}; ` +
      `ratio ${num(r.ratio, 3)}, added ${num(r.addedNs, 0)} ns, control ratio ${num(r.controlRatio, 3)}; ` +
      `checked ${checked} of ${r.instrumentedCalls}`,
  );
  const version = packageVersion('@openai/agents');
  return {
    title: `OpenAI Agents SDK tool call, instrumented vs not (@openai/agents ${version})`,
    method:
      "`run(agent)` with the SDK's `ScriptedModel`: one model turn of " +
      `${CALLS} calls of a \`tool()\` with a zod schema whose \`execute\` answers at once, then ` +
      "the final answer; the runner sends each call's arguments as a JSON string to " +
      '`invokeFunctionTool` (5 % out of set, observe mode). The loader hook and the ' +
      'instrumentation are registered before the ' +
      'SDK is imported, so the SDK is patched as in an application; "plain" and "control" run ' +
      'with the instrumentation disabled (patch off), "instrumented" with it enabled. ' +
      `${ROUNDS} rotated rounds of one run per variant; medians over rounds of µs per tool call ` +
      '(the whole run divided by its calls, model turns included).',
    tables: [
      {
        head: ['uninstrumented µs', 'instrumented µs', 'ratio', 'added per call', 'control ratio'],
        rows: [
          [
            num(r.medianUs.plain, 2),
            num(r.medianUs.instrumented, 2),
            num(r.ratio, 3),
            `${num(r.addedNs, 0)} ns`,
            num(r.controlRatio, 3),
          ],
        ],
      },
    ],
    bars: [
      {
        bar: 'every instrumented call checked and counted',
        figure: `${num(checked)} of ${num(r.instrumentedCalls)}`,
        holds: checked === r.instrumentedCalls,
      },
    ],
    raw: { ...r, rounds: ROUNDS, calls: CALLS },
  };
}
