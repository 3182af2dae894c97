// The agent frameworks as bench/frameworks.ts measures them: each set up
// with the instrumentation registered (observe mode, a configured set), and
// the variants of one turn to time side by side. A turn is the cheapest tool
// call the framework can make: a scripted model, a tool that answers at once.
// The loader hook is registered before the framework is imported, as an
// application's --import file does, so the frameworks are patched by the
// hooks; the AI SDK and Mastra take the module definition's own patch on the
// loaded module, so that their unpatched function stays at hand as "plain".
import { register } from 'node:module';
import { MeterProvider } from '@opentelemetry/sdk-metrics';
import { staticValueSet } from '@argcheck/core';
import type { ToolArgumentInstrumentation } from '@argcheck/instrumentation';
import { CODES, reasonCode, scriptedModel, type Variant } from './framework-turns.js';
import { packageVersion } from './machine.js';
import { PullReader, sumOf } from '@argcheck/testing/metrics';

export interface FrameworkSetup {
  /** Section heading. */
  readonly title: string;
  /** What one turn is (markdown), for the method text. */
  readonly turn: string;
  /** Tool calls in one turn. */
  readonly callsPerTurn: number;
  /** `plain` and `control` (the noise floor), `auto-patched`, and the explicit entry point's. */
  readonly variants: readonly Variant[];
  /** Value checks counted so far. */
  readonly checked: () => Promise<number>;
  readonly close: () => Promise<void>;
}

interface Registered {
  /** Patches the framework as it loads. */
  inst: ToolArgumentInstrumentation;
  /**
   * Patches nothing (`frameworks.enabled: false`): the explicit entry points'
   * variants use it, with `inst` disabled, so that they measure one way in.
   */
  explicit: ToolArgumentInstrumentation;
  readonly checked: () => Promise<number>;
  readonly close: () => Promise<void>;
}

/** The loader hook, then the instrumentation: import the framework after this. */
async function registerBeforeFramework(): Promise<Registered> {
  register('@opentelemetry/instrumentation/hook.mjs', import.meta.url);
  // Imported after the hook: an import-in-the-middle loaded before it does not see the modules it wraps.
  const { registerInstrumentations } = await import('@opentelemetry/instrumentation');
  const { ToolArgumentInstrumentation } = await import('@argcheck/instrumentation');
  const reader = new PullReader();
  const meterProvider = new MeterProvider({ readers: [reader] });
  const config = {
    valueSets: { 'refunds.reason_codes': staticValueSet(CODES) },
    checkedArguments: { refund_order: { reason_code: 'refunds.reason_codes' } },
    mcp: { enabled: false },
    ...(process.env.ARGCHECK_BENCH_NO_LOGS === '1' ? { logSampleRatio: 0 } : {}),
  };
  const inst = new ToolArgumentInstrumentation(config);
  const explicit = new ToolArgumentInstrumentation({ ...config, frameworks: { enabled: false } });
  registerInstrumentations({ instrumentations: [inst, explicit], meterProvider });
  await Promise.all([inst.ready(), explicit.ready()]);
  return {
    inst,
    explicit,
    async checked() {
      const { resourceMetrics } = await reader.collect();
      return sumOf(resourceMetrics, 'tool_argument_value_check');
    },
    async close() {
      for (const i of [inst, explicit]) {
        i.disable();
        i.close();
      }
      await meterProvider.shutdown();
    },
  };
}

/** A variant of a framework patched in place: the instrumentation on for it, off for the others. */
function toggled(
  inst: ToolArgumentInstrumentation,
  key: string,
  on: boolean,
  turn: Variant['turn'],
) {
  return { key, turn, select: () => (on ? inst.enable() : inst.disable()) };
}

const args = (i: number) => ({ order_id: `ORD-${1000 + (i % 40)}`, reason_code: reasonCode(i) });

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

async function langChain(): Promise<FrameworkSetup> {
  const r = await registerBeforeFramework();
  const { tool } = await import('@langchain/core/tools');
  const { z } = await import('zod');
  const make = () =>
    tool(() => Promise.resolve('refunded'), {
      name: 'refund_order',
      description: 'Refund an order',
      schema: z.object({ order_id: z.string(), reason_code: z.string() }),
    });
  const refund = make();
  const explicit = r.explicit.instrumentLangChainTool(make());
  const turn = (t: typeof refund) => (i: number) =>
    t.invoke({ id: `c${i}`, name: 'refund_order', args: args(i), type: 'tool_call' });
  return {
    title: `LangChain.js (\`@langchain/core\` ${packageVersion('@langchain/core')})`,
    turn:
      "`tool.invoke(toolCall)` — what LangGraph's `ToolNode` calls for each tool call — on a " +
      '`tool()` with a zod schema, the result a `ToolMessage`',
    callsPerTurn: 1,
    variants: [
      toggled(r.inst, 'plain', false, turn(refund)),
      toggled(r.inst, 'control', false, turn(refund)),
      toggled(r.inst, 'auto-patched', true, turn(refund)),
      { key: 'instrumentLangChainTool', turn: turn(explicit), select: () => r.inst.disable() },
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

/** A `PreToolUse` hook as the Claude Agent SDK calls it. */
type PreToolUse = (
  input: unknown,
  toolUseId: unknown,
  options: { signal: AbortSignal },
) => Promise<unknown>;

/**
 * The Claude Agent SDK's tool calls reach argcheck as `PreToolUse` hook
 * calls, each a control request from the SDK's binary: the binary and its
 * round trip are the same with any hook, so the hook is called here as the
 * SDK calls it (a fresh input per call, awaited), beside a hook that answers
 * nothing. No SDK is loaded.
 */
async function claudeAgent(): Promise<FrameworkSetup> {
  const r = await registerBeforeFramework();
  const CALLS = 10;
  const { signal } = new AbortController();
  const options = r.explicit.claudeAgentOptions({ model: 'claude-bench', env: {} }) as unknown as {
    hooks: { PreToolUse: [{ hooks: [PreToolUse] }] };
  };
  const hook = options.hooks.PreToolUse[0].hooks[0];
  const noop: PreToolUse = () => Promise.resolve({});
  const input = (n: number) => ({
    session_id: 'bench-session',
    transcript_path: '/dev/null',
    cwd: '/',
    hook_event_name: 'PreToolUse',
    tool_name: 'mcp__shop__refund_order',
    tool_input: args(n),
    tool_use_id: `toolu_${n}`,
    mcp_server: { name: 'shop', source: 'sdk' },
  });
  const turn = (h: PreToolUse) => async (i: number) => {
    for (let k = 0; k < CALLS; k++) {
      const n = i * CALLS + k;
      await h(input(n), `toolu_${n}`, { signal });
    }
  };
  const off = () => r.inst.disable();
  return {
    title: 'Claude Agent SDK (its `PreToolUse` hook)',
    turn:
      'ten tool calls as the SDK hands them to a `PreToolUse` hook: a fresh input object per ' +
      'call (`tool_name` `mcp__shop__refund_order`, `tool_input`, ids), awaited one after the ' +
      'other. plain and control call a hook that answers `{}`; the checked variant calls the ' +
      'hook `inst.claudeAgentOptions()` adds, which the patched `query()` adds too. The binary ' +
      'and its control-request round trip, the same for any hook, are not part of it',
    callsPerTurn: CALLS,
    variants: [
      { key: 'plain', turn: turn(noop), select: off },
      { key: 'control', turn: turn(noop), select: off },
      { key: 'argcheck hook', turn: turn(hook), select: off },
    ],
    checked: r.checked,
    close: r.close,
  };
}

export const FRAMEWORK_SETUPS: Readonly<Record<string, () => Promise<FrameworkSetup>>> = {
  'openai-agents': openAiAgents,
  langchain: langChain,
  'ai-sdk': aiSdk,
  mastra,
  'claude-agent': claudeAgent,
};
