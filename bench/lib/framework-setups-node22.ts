// The agent frameworks whose packages need Node 22 (the OpenAI Agents SDK
// through its `openai` 7 dependency, the AI SDK, Mastra), set up as
// framework-setups.ts sets up LangChain.js. Built and run in the Node 24 tree
// (scripts/compat-otel3.sh, bench/tsconfig.node22.json), where they are
// installed. The AI SDK and Mastra take the module definition's own patch on
// the loaded module, so that their unpatched function stays at hand as "plain".
import { args, registerBeforeFramework, toggled, type FrameworkSetup } from './framework-setups.js';
import { reasonCode, type Variant } from './framework-turns.js';
import { packageVersion } from './machine.js';

const usage = { inputTokens: { total: 1 }, outputTokens: { total: 1 } };

/**
 * A mock model for one turn at a time: `next(code)` scripts the next turn's
 * tool call. Mastra and the AI SDK both accept it.
 */
async function scriptedModel(): Promise<{ model: unknown; next: (code: string) => void }> {
  const { MockLanguageModelV4 } = await import('ai/test');
  let code = 'DAMAGED';
  let step = 0;
  const model = new MockLanguageModelV4({
    doGenerate: (() => {
      const first = step++ % 2 === 0;
      return Promise.resolve(
        first
          ? {
              content: [
                {
                  type: 'tool-call',
                  toolCallId: `call-${step}`,
                  toolName: 'refund_order',
                  input: JSON.stringify({ order_id: 'A-1001', reason_code: code }),
                },
              ],
              finishReason: { unified: 'tool-calls' },
              usage,
              warnings: [],
            }
          : {
              content: [{ type: 'text', text: 'done' }],
              finishReason: { unified: 'stop' },
              usage,
              warnings: [],
            },
      );
    }) as never,
  });
  return {
    model,
    next: (c) => {
      code = c;
    },
  };
}

async function openAiAgents(): Promise<FrameworkSetup> {
  const r = await registerBeforeFramework();
  const { Agent, run, setTracingDisabled, tool } = await import('@openai/agents');
  const { ScriptedModel, assistantMessage, functionCall } =
    await import('@openai/agents-core/testing');
  const { z } = await import('zod');
  setTracingDisabled(true);
  // Ten calls a turn: what one model turn rarely exceeds, so the runner's per-turn work is shared.
  const CALLS = 10;
  const execute = () => Promise.resolve('refunded');
  const parameters = z.object({ order_id: z.string(), reason_code: z.string() });
  const refund = tool({
    name: 'refund_order',
    description: 'Refund an order',
    parameters,
    execute,
  });
  const guarded = tool({
    name: 'refund_order',
    description: 'Refund an order',
    parameters,
    execute,
    inputGuardrails: [r.explicit.openAIAgentsGuardrail() as never],
  });
  const turn = (tools: unknown[]) => async (i: number) => {
    const calls = Array.from({ length: CALLS }, (_, k) =>
      functionCall('refund_order', args(i * CALLS + k), { callId: `c${k}` }),
    );
    const model = new ScriptedModel([calls, [assistantMessage('done')]]);
    await run(new Agent({ name: 'refunds', model, tools: tools as never }), 'refund');
  };
  return {
    title: `OpenAI Agents SDK (\`@openai/agents\` ${packageVersion('@openai/agents')})`,
    turn:
      "`run(agent)` with the SDK's `ScriptedModel`: one model turn of ten calls of a `tool()` " +
      'with a zod schema, then the final answer; the runner hands each call to ' +
      '`invokeFunctionTool` with its arguments as a JSON string',
    callsPerTurn: CALLS,
    variants: [
      toggled(r.inst, 'plain', false, turn([refund])),
      toggled(r.inst, 'control', false, turn([refund])),
      toggled(r.inst, 'auto-patched', true, turn([refund])),
      toggled(r.inst, 'openAIAgentsGuardrail', false, turn([guarded])),
    ],
    checked: r.checked,
    close: r.close,
  };
}

type Generate = (options: object) => Promise<unknown>;

async function aiSdk(): Promise<FrameworkSetup> {
  const r = await registerBeforeFramework();
  const ai = await import('ai');
  const { z } = await import('zod');
  // The module definition's own patch, as the loader hook applies it: a copy
  // of the namespace whose generateText is wrapped; `ai.generateText` stays plain.
  // The loader hook patches the namespace as it is imported: the function as
  // the SDK wrote it is then the wrapper's `__original` (shimmer's).
  const hooked = ai.generateText as Generate & { __original?: Generate };
  const plain = hooked.__original ?? hooked;
  const definition = r.inst.getModuleDefinitions().find((d) => d.name === 'ai');
  const patched =
    hooked.__original !== undefined
      ? { generateText: hooked as Generate }
      : (definition?.patch?.(ai, packageVersion('ai')) as { generateText: Generate });
  if (patched.generateText === plain) throw new Error('ai was not patched');
  const tools = {
    refund_order: ai.tool({
      description: 'Refund an order',
      // Converted once, as `zodSchema` does: a raw zod schema is converted by the SDK
      // at every step, and a checked copy converts it once, which would flatter argcheck.
      inputSchema: ai.zodSchema(z.object({ order_id: z.string(), reason_code: z.string() })),
      execute: (input: { reason_code: string }) => Promise.resolve({ refunded: input.reason_code }),
    }),
  };
  const wrapped = r.explicit.wrapAiSdkTools(tools);
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
  return {
    title: `Vercel AI SDK (\`ai\` ${packageVersion('ai')})`,
    turn:
      'one `generateText` call: a mock-model step (the SDK’s `MockLanguageModelV4`) calling ' +
      '`refund_order`, the tool run, and a second step answering; the schema `zodSchema(...)`, ' +
      'converted once (given a raw zod schema the SDK converts it at every step while a ' +
      'checked copy converts it once, which would flatter argcheck)',
    callsPerTurn: 1,
    variants: [
      await variant('plain', plain, tools),
      await variant('control', plain, tools),
      await variant('auto-patched', patched.generateText, tools),
      await variant('wrapAiSdkTools', plain, wrapped),
    ],
    checked: r.checked,
    close: r.close,
  };
}

interface MastraAgent {
  generate(prompt: string, options?: object): Promise<unknown>;
}
type AgentClass = new (config: object) => MastraAgent;

async function mastra(): Promise<FrameworkSetup> {
  const r = await registerBeforeFramework();
  const agentModule = await import('@mastra/core/agent');
  const { createTool } = await import('@mastra/core/tools');
  const { z } = await import('zod');
  const Agent = agentModule.Agent as unknown as AgentClass;
  const proto = Agent.prototype as unknown as Record<string, unknown>;
  // The loader hook may have patched the agent entry as it was imported: the
  // method as Mastra wrote it is then the wrapper's `__original` (shimmer's).
  const current = proto.convertTools as { __original?: unknown } | undefined;
  const convertTools = current?.__original ?? current;
  // Agents of this class keep the method as it was before the patch below.
  class PlainAgent extends Agent {}
  Object.defineProperty(PlainAgent.prototype, 'convertTools', { value: convertTools });
  // The module definition's own patch on the ESM agent entry, as the loader hook applies it.
  const file = r.inst
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
  return {
    title: `Mastra (\`@mastra/core\` ${packageVersion('@mastra/core')})`,
    turn:
      'one `agent.generate` call: a mock-model step (the AI SDK’s `MockLanguageModelV4`) ' +
      'calling `refund_order`, the tool run, and a second step answering; the patched variant ' +
      'is an agent of the patched class (the module definition’s own patch on the ESM entry)',
    callsPerTurn: 1,
    variants: [
      await variant('plain', PlainAgent),
      await variant('control', PlainAgent),
      await variant('auto-patched', Agent),
      await variant('mastraHooks', PlainAgent, { hooks: r.explicit.mastraHooks() }),
    ],
    checked: r.checked,
    close: r.close,
  };
}

export const NODE22_SETUPS: Readonly<Record<string, () => Promise<FrameworkSetup>>> = {
  'openai-agents': openAiAgents,
  'ai-sdk': aiSdk,
  mastra,
};
