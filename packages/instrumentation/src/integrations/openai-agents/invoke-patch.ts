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
import type { Engine } from '../../engine/engine.js';
import { frameworkContext } from '../../kit/call-context.js';
import type { Host } from '../../kit/host.js';
import { listTools } from '../../kit/tools-map.js';
import { isObject } from '../../kit/values.js';
import type { Target } from '../../kit/values.js';
import type { Method, Patch, Switch } from '../../kit/wrapping.js';

/** Where Agents tool schemas come from: sets named `openai-agents:<tool>.<path>`. */
const AGENTS_CATALOG = { origin: 'openai-agents', integration: 'openai_agents' } as const;

interface AgentsState {
  /** The wrappers in place; the explicit guardrail leaves rewriting to them while one is on. */
  readonly switches: Set<Switch>;
  /** Calls the explicit guardrail has checked and counted, by their `toolCall` item: the arguments to send. */
  readonly decided: WeakMap<object, { args: unknown }>;
  /** Tools whose own `invoke` the guardrail wrapped: the wrapper, while it is still theirs. */
  readonly invokes: WeakMap<object, unknown>;
}

const STATE = Symbol('argcheck.openai-agents');

function stateOf(host: Host): AgentsState {
  return host.local(STATE, () => ({
    switches: new Set(),
    decided: new WeakMap(),
    invokes: new WeakMap(),
  }));
}

/** Is a wrapper of `invokeFunctionTool` of this instance on (the runner will call it after the guardrails)? */
export function invokePatched(host: Host): boolean {
  for (const on of stateOf(host).switches) if (on.active) return true;
  return false;
}

/** Called by the guardrail: this call is checked; the wrapper sends `args` without checking again. */
export function markDecided(host: Host, toolCall: object, args: unknown): void {
  stateOf(host).decided.set(toolCall, { args });
}

function takeDecided(state: AgentsState, toolCall: unknown): { args: unknown } | undefined {
  if (!isObject(toolCall)) return undefined;
  const found = state.decided.get(toolCall);
  if (found !== undefined) state.decided.delete(toolCall);
  return found;
}

/**
 * The guardrail's wrapper of one tool's own `invoke(runContext, input,
 * details)`, which `invokeFunctionTool` calls: a call the guardrail decided
 * runs with the arguments it decided, marked as checked (so an MCP call the
 * tool makes with them is not counted again). The wrapper of
 * `invokeFunctionTool`, when on, takes the decision first; then this one
 * passes the call through. False when the tool has no `invoke` of its own.
 */
export function wrapToolInvoke(host: Host, tool: object, name: string): boolean {
  const state = stateOf(host);
  // Every call after the first only compares: the wrapper is still the tool's own.
  const current = (tool as Target).invoke;
  if (current !== undefined && state.invokes.get(tool) === current) return true;
  const wrapped = host.wrapping.wrapInstance(tool, 'invoke', (original, on) => {
    return function (this: unknown, ...args: unknown[]): unknown {
      const details = args[2];
      const decided =
        on.active && isObject(details) ? takeDecided(state, details.toolCall) : undefined;
      if (decided === undefined) return original.apply(this, args);
      const sent = [args[0], decided.args, ...args.slice(2)];
      return host.runMarked(name, decided.args, () => original.apply(this, sent));
    };
  });
  if (wrapped) state.invokes.set(tool, (tool as Target).invoke);
  return wrapped;
}

/** List an Agents tool's JSON Schema `parameters` as a catalog of one, the first time it is seen. */
export function listAgentsTool(
  host: Host,
  engine: Engine,
  tool: Record<PropertyKey, unknown>,
  name: string,
): Promise<void> | undefined {
  // Every call after the first only asks (no list to build).
  const listed = host.tools.listed;
  if (listed.has(tool)) return listed.get(tool);
  return listTools(host, engine, tool, AGENTS_CATALOG, [
    [name, () => tool.parameters, tool.description],
  ]);
}

/** Check the call and send it on, or answer it; a promise, like `invokeFunctionTool`'s. */
function invokeChecked(
  host: Host,
  state: AgentsState,
  engine: Engine,
  send: (input: unknown) => unknown,
  call: Record<PropertyKey, unknown>,
  tool: Record<PropertyKey, unknown>,
  name: string,
): unknown {
  const toolCall = isObject(call.details) ? call.details.toolCall : undefined;
  const decided = takeDecided(state, toolCall);
  if (decided !== undefined) return host.runMarked(name, decided.args, () => send(decided.args));
  const checked = () =>
    engine.invoke<unknown>(
      {
        tool: name,
        args: call.input,
        context: frameworkContext(isObject(toolCall) ? toolCall.callId : undefined),
        scope: tool,
        integration: 'openai_agents',
      },
      send,
      (message) => Promise.resolve(message),
    );
  // Only a tool's first call waits, for the sets derived from its schema.
  const waiting = listAgentsTool(host, engine, tool, name);
  return waiting === undefined ? checked() : waiting.then(checked);
}

/** The wrapper of `invokeFunctionTool`. Whatever argcheck throws, the tool runs as the runner asked. */
export function patchInvokeFunctionTool(host: Host): Patch {
  const state = stateOf(host);
  return (original: Method, on: Switch) => {
    state.switches.add(on);
    return function (this: unknown, ...args: unknown[]): unknown {
      const call = args[0];
      const engine = on.active ? host.engine() : undefined;
      if (engine === undefined || !isObject(call)) return original.apply(this, args);
      const tool = call.tool;
      if (!isObject(tool) || typeof tool.name !== 'string') return original.apply(this, args);
      const send = (input: unknown) => {
        const sent = input === call.input ? call : { ...call, input };
        return args.length === 1
          ? original.call(this, sent)
          : original.apply(this, [sent, ...args.slice(1)]);
      };
      return invokeChecked(host, state, engine, send, call, tool, tool.name);
    };
  };
}
