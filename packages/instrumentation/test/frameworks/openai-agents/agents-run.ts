/**
 * The refund scenario on the OpenAI Agents SDK, with the SDK's own test
 * model (`ScriptedModel`): the first turn makes the three calls, the second
 * ends the run. The modules come from the caller, so the same run serves the
 * CommonJS build (required after registration) and the ESM build (imported
 * in a child process, with or without the loader hook).
 */
import type * as Agents from '@openai/agents';
import type * as Testing from '@openai/agents-core/testing';
import type { z as Zod } from 'zod';
import { CALLS, toolAnswer } from '../refund-scenario.js';

export interface AgentsModules {
  agents: typeof Agents;
  testing: typeof Testing;
  z: typeof Zod;
}

export interface AgentsRunOptions {
  stream?: boolean;
  /** The tool's input guardrails (the explicit entry point). */
  inputGuardrails?: unknown[];
  /** `reason_code` as a free string (checked by configuration) or as the schema's own enum. */
  reasonSchema?: 'string' | 'enum';
}

export interface AgentsRunResult {
  /** The reason code the tool received, per order. */
  received: Record<string, string>;
  /** What the model read back on its next turn, per call id. */
  answers: Record<string, string>;
}

function outputText(output: unknown): string {
  if (typeof output === 'string') return output;
  const text = (output as { text?: unknown } | null)?.text;
  return typeof text === 'string' ? text : JSON.stringify(output);
}

export async function runAgents(
  m: AgentsModules,
  options: AgentsRunOptions = {},
): Promise<AgentsRunResult> {
  const { agents, testing, z } = m;
  agents.setTracingDisabled(true);
  const received: Record<string, string> = {};
  const reason =
    options.reasonSchema === 'enum'
      ? z.enum(['DAMAGED', 'DUPLICATE_CHARGE', 'LATE', 'NOT_AS_DESCRIBED'])
      : z.string();
  const refund = agents.tool({
    name: 'refund_order',
    description: 'Refund an order',
    parameters: z.object({ order_id: z.string(), reason_code: reason }),
    inputGuardrails: options.inputGuardrails as never,
    execute: (args: { order_id: string; reason_code: string }) => {
      received[args.order_id] = args.reason_code;
      return Promise.resolve(toolAnswer(args));
    },
  });
  const model = new testing.ScriptedModel([
    CALLS.map((c) => testing.functionCall('refund_order', c.args, { callId: c.id })),
    [testing.assistantMessage('done')],
  ]);
  const agent = new agents.Agent({ name: 'refunds', model, tools: [refund] });
  if (options.stream === true) {
    const streamed = await agents.run(agent, 'refund three orders', { stream: true });
    for await (const event of streamed) void event;
    await streamed.completed;
  } else {
    await agents.run(agent, 'refund three orders');
  }
  const answers: Record<string, string> = {};
  const input = model.calls[1]?.request.input;
  for (const item of Array.isArray(input) ? input : []) {
    if (item.type === 'function_call_result') answers[item.callId] = outputText(item.output);
  }
  return { received, answers };
}
