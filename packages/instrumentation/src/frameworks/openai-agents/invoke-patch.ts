/**
 * OpenAI Agents SDK: the wrapper of `invokeFunctionTool({ tool, runContext,
 * input, details })` in `@openai/agents-core`'s internal `tool` module, which
 * the runner calls for every function tool (MCP tools included) after the
 * tool input guardrails, streamed runs or not. The package index only
 * re-exports it through getters, so the module itself is patched.
 *
 * `input` is the model's JSON string; a rewritten one is parsed again by the
 * tool, since the runner's pre-parsed input is used only for the very string
 * it was parsed from. A rejection resolves to the repair message as the
 * tool's output — what a tool input guardrail's `rejectContent` gives the
 * model — because a throw here would abort the whole run.
 */
import type { CheckOutcome } from '@argcheck/core';
import { runChecked } from '../../checked-calls.js';
import type { Engine } from '../../engine.js';
import type { Method, Patch, Switch } from '../../wrapping.js';
import { frameworkContext, isObject, listToolOnce } from '../framework-tools.js';
import type { FrameworkHost } from '../framework-tools.js';

/** The first part of the names of sets derived from Agents tool schemas. */
export const AGENTS_ORIGIN = 'openai-agents';

/** The wrappers in place; the explicit guardrail leaves rewriting to them while one is on. */
const switches = new Set<Switch>();

/** Calls the explicit guardrail has checked and counted, by their `toolCall` item. */
const decided = new WeakMap<object, CheckOutcome>();

/** Is a wrapper of `invokeFunctionTool` on (the runner will call it after the guardrails)? */
export function invokePatched(): boolean {
  for (const on of switches) if (on.active) return true;
  return false;
}

/** Called by the guardrail: this call is checked; the wrapper sends `outcome.args` without checking again. */
export function markDecided(toolCall: object, outcome: CheckOutcome): void {
  decided.set(toolCall, outcome);
}

function takeDecided(toolCall: unknown): CheckOutcome | undefined {
  if (!isObject(toolCall)) return undefined;
  const outcome = decided.get(toolCall);
  decided.delete(toolCall);
  return outcome;
}

/** Check the call and send it on, or answer it; a promise, like `invokeFunctionTool`'s. */
function invokeChecked(
  host: FrameworkHost,
  engine: Engine,
  send: (input: unknown) => unknown,
  call: Record<string, unknown>,
  tool: Record<string, unknown>,
  name: string,
): unknown {
  const toolCall = isObject(call.details) ? call.details.toolCall : undefined;
  const outcome = takeDecided(toolCall);
  if (outcome !== undefined) return runChecked(() => send(outcome.args));
  const checked = () =>
    engine.invoke<unknown>(
      {
        tool: name,
        args: call.input,
        context: frameworkContext(isObject(toolCall) ? toolCall.callId : undefined),
        scope: tool,
      },
      send,
      (message) => Promise.resolve(message),
    );
  // Only a tool's first call waits, for the sets derived from its schema.
  const waiting = listToolOnce(host, engine, tool, name, AGENTS_ORIGIN, () => tool.parameters);
  return waiting === undefined ? checked() : waiting.then(checked);
}

/** The wrapper of `invokeFunctionTool`. Whatever argcheck throws, the tool runs as the runner asked. */
export function patchInvokeFunctionTool(host: FrameworkHost): Patch {
  return (original: Method, on: Switch) => {
    switches.add(on);
    return function (this: unknown, ...args: unknown[]): unknown {
      const call = args[0];
      const engine = on.active ? host.engine() : undefined;
      if (engine === undefined || !isObject(call)) return original.apply(this, args);
      const tool = call.tool;
      if (!isObject(tool) || typeof tool.name !== 'string') return original.apply(this, args);
      const send = (input: unknown) =>
        original.apply(this, [input === call.input ? call : { ...call, input }, ...args.slice(1)]);
      return invokeChecked(host, engine, send, call, tool, tool.name);
    };
  };
}
