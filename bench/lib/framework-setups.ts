// The four agent frameworks as bench/frameworks.ts measures them: each set up
// with the instrumentation registered (observe mode, a configured set), and
// the variants of one turn to time side by side. A turn is the cheapest tool
// call the framework can make: a scripted model, a tool that answers at once.
// The loader hook is registered before the framework is imported, as an
// application's --import file does, so the frameworks are patched by the
// hooks. LangChain.js and the Claude Agent SDK's hook are set up here; the frameworks whose packages need
// Node 22 in framework-setups-node22.ts, which only the Node 24 tree builds
// (docs/decisions/0030-demo-dependencies-and-node22-packages.md).
import { register } from 'node:module';
import { MeterProvider } from '@opentelemetry/sdk-metrics';
import { staticValueSet } from '@argcheck/core';
import type { ToolArgumentInstrumentation } from '@argcheck/instrumentation';
import { CODES, reasonCode, type Variant } from './framework-turns.js';
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

export interface Registered {
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
export async function registerBeforeFramework(): Promise<Registered> {
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
export function toggled(
  inst: ToolArgumentInstrumentation,
  key: string,
  on: boolean,
  turn: Variant['turn'],
) {
  return { key, turn, select: () => (on ? inst.enable() : inst.disable()) };
}

export const args = (i: number) => ({
  order_id: `ORD-${1000 + (i % 40)}`,
  reason_code: reasonCode(i),
});

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

/** Every framework the benchmark can set up, by the name `--framework` takes. */
export const FRAMEWORKS = [
  'openai-agents',
  'langchain',
  'claude-agent',
  'ai-sdk',
  'mastra',
] as const;

/** The setup of `name`, or undefined when there is no such framework. */
export async function frameworkSetup(
  name: string,
): Promise<(() => Promise<FrameworkSetup>) | undefined> {
  if (name === 'langchain') return langChain;
  if (name === 'claude-agent') return claudeAgent;
  if (!(FRAMEWORKS as readonly string[]).includes(name)) return undefined;
  // Not a literal specifier, so that the Node 20 project does not compile the
  // file: its frameworks are installed in the Node 24 tree only, which builds it
  // (bench/tsconfig.node22.json).
  const file = './framework-setups-node22.js';
  const { NODE22_SETUPS } = (await import(file)) as {
    NODE22_SETUPS: Readonly<Record<string, () => Promise<FrameworkSetup>>>;
  };
  return NODE22_SETUPS[name];
}
