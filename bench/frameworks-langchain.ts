// One LangChain.js tool call as LangGraph's ToolNode makes it —
// `tool.invoke(toolCall)`, answered with a ToolMessage — with the
// instrumentation disabled and enabled, in one process.
//   npm run bench -- --only frameworks-langchain [-- --rounds 100 --calls 100]
import { ARGS, compareToggled, registerBeforeFramework } from './lib/framework-calls.js';
import { packageVersion } from './lib/machine.js';
import { num, type BenchOptions, type BenchResult } from './lib/report.js';

export async function frameworksLangChain(options: BenchOptions): Promise<BenchResult> {
  const ROUNDS = options.number('rounds', 100);
  const CALLS = options.number('calls', 100);
  const registered = await registerBeforeFramework();
  const { tool } = await import('@langchain/core/tools');
  const { z } = await import('zod');

  const refund = tool(() => Promise.resolve('refunded'), {
    name: 'refund_order',
    description: 'Refund an order',
    schema: z.object({ order_id: z.string(), reason_code: z.string() }),
  });
  const batch = async (n: number, offset: number) => {
    for (let i = offset; i < offset + n; i++) {
      await refund.invoke({
        id: `c${i}`,
        name: 'refund_order',
        args: ARGS[i % ARGS.length] ?? { order_id: '', reason_code: '' },
        type: 'tool_call',
      });
    }
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
  const version = packageVersion('@langchain/core');
  return {
    title: `LangChain.js tool call, instrumented vs not (@langchain/core ${version})`,
    method:
      "`tool.invoke(toolCall)` — what LangGraph's `ToolNode` calls for each tool call — on a " +
      '`tool()` with a zod schema whose function answers at once, the result a `ToolMessage` ' +
      '(5 % of the arguments out of set, observe mode). The loader hook and the instrumentation ' +
      'are registered before LangChain is imported, so `StructuredTool.prototype.call` is ' +
      'patched as in an application; "plain" and "control" run with the instrumentation ' +
      'disabled (patch off), "instrumented" with it enabled. ' +
      `${ROUNDS} rotated rounds of ${CALLS} sequential calls per variant; medians over rounds ` +
      'of µs per call.',
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
