/**
 * LangChain.js: the wrapper of `StructuredTool.prototype.call(arg, config)`,
 * where `invoke` lands for every tool class (`tool()`, `DynamicTool`,
 * `DynamicStructuredTool`, MCP adapter tools, subclasses), before the
 * schema is parsed and before callbacks run. LangGraph's `ToolNode` and the
 * prebuilt agents call `tool.invoke(toolCall)`, so they arrive here too. The
 * CommonJS and ESM builds define different classes; each is wrapped.
 *
 * `arg` is the tool's input object, or a ToolCall `{ name, args, id, type:
 * 'tool_call' }`. A rejection answers the way LangChain reports a failed
 * tool call to the model: a `ToolMessage` with `status: 'error'` and the
 * call's id, or, when the call carries no id (a direct `invoke(args)`), the
 * repair message as the tool's content. Nothing is thrown. The call is
 * attributed to the chat model whose message carried its id
 * (`model-patch.ts`).
 */
import type { Engine } from '../../engine/engine.js';
import { frameworkContext } from '../../kit/call-context.js';
import type { Host } from '../../kit/host.js';
import { listTools } from '../../kit/tools-map.js';
import { isObject } from '../../kit/values.js';
import type { Target } from '../../kit/values.js';
import type { Method, Patch, Switch } from '../../kit/wrapping.js';
import { toJsonSchema, toolMessageClass } from './core-modules.js';
import { toolCallModel } from './model-patch.js';

/** Where LangChain tool schemas come from: sets named `langchain:<tool>.<path>`. */
const LANGCHAIN_CATALOG = { origin: 'langchain', integration: 'langchain' } as const;

function isToolCall(arg: unknown): arg is Target {
  return isObject(arg) && arg.type === 'tool_call';
}

function toolCallIdOf(arg: unknown, config: unknown): unknown {
  if (isToolCall(arg) && typeof arg.id === 'string') return arg.id;
  const toolCall = isObject(config) ? config.toolCall : undefined;
  return isObject(toolCall) ? toolCall.id : undefined;
}

function rejected(message: string, toolCallId: unknown, name: string): unknown {
  if (typeof toolCallId !== 'string') return message;
  const ToolMessage = toolMessageClass();
  if (ToolMessage === undefined) return message;
  return new ToolMessage({ status: 'error', content: message, tool_call_id: toolCallId, name });
}

function inputSchemaOf(tool: Target): unknown {
  const convert = toJsonSchema();
  return convert === undefined ? undefined : convert(tool.schema);
}

/**
 * One call of a tool's `call(arg, config, ...)`: checked, then sent on with
 * the arguments decided in place of `arg`, the rest as they came; or
 * answered. A promise, like the `call` it stands in for.
 */
class ToolCallSend {
  constructor(
    private readonly host: Host,
    private readonly original: Method,
    private readonly self: unknown,
    private readonly args: IArguments,
    readonly toolCall: Target | undefined,
  ) {}

  /** `run` for `engine.invoke`: the arguments to send, in the shape the call came in. */
  send(decided: unknown): unknown {
    const { host, args, toolCall } = this;
    const sent =
      toolCall === undefined || decided === toolCall.args
        ? (toolCall ?? decided)
        : { ...toolCall, args: decided };
    const previous = host.forwarding;
    host.forwarding = sent;
    try {
      const count = args.length;
      if (count <= 1) return this.original.call(this.self, sent);
      if (count === 2) return this.original.call(this.self, sent, args[1]);
      const all: unknown[] = Array.prototype.slice.call(args);
      all[0] = sent;
      return this.original.apply(this.self, all);
    } finally {
      host.forwarding = previous;
    }
  }
}

/** Check the call and send it on, or answer it. */
function callChecked(
  host: Host,
  engine: Engine,
  call: ToolCallSend,
  tool: Target,
  name: string,
  arg: unknown,
  config: unknown,
): unknown {
  const toolCall = call.toolCall;
  const toolCallId = toolCallIdOf(arg, config);
  const checked = () =>
    engine.invoke<unknown>(
      {
        tool: name,
        args: toolCall === undefined ? arg : toolCall.args,
        context: frameworkContext(toolCallId),
        scope: tool,
        integration: 'langchain',
        attribution: toolCallModel(host, toolCallId),
      },
      (args) => call.send(args),
      (message) => Promise.resolve(rejected(message, toolCallId, name)),
    );
  // Only a tool's first call waits, for the sets derived from its schema; later ones only ask.
  const listed = host.tools.listed;
  const waiting = listed.has(tool)
    ? listed.get(tool)
    : listTools(host, engine, tool, LANGCHAIN_CATALOG, [
        [name, () => inputSchemaOf(tool), tool.description],
      ]);
  return waiting === undefined ? checked() : waiting.then(checked);
}

/**
 * The wrapper of a tool's `call` (prototype or instance). A tool wrapped as
 * an instance (the explicit entry point) and on its class's prototype
 * reaches the prototype's wrapper synchronously with the very argument the
 * instance's handed on (`host.forwarding`), which then passes the call
 * through, so the call counts once. Whatever argcheck throws, the tool is
 * called as asked.
 */
export function patchToolCall(host: Host): Patch {
  // `arguments`, not a rest array: the call's further arguments go on as they came.
  /* eslint-disable prefer-rest-params */
  return (original: Method, on: Switch) =>
    function (this: unknown, arg?: unknown): unknown {
      const forwarded = arg !== undefined && arg === host.forwarding;
      const engine = on.active && !forwarded ? host.engine() : undefined;
      if (engine === undefined || !isObject(this) || typeof this.name !== 'string') {
        return Reflect.apply(original, this, arguments);
      }
      const toolCall = isToolCall(arg) ? arg : undefined;
      const call = new ToolCallSend(host, original, this, arguments, toolCall);
      return callChecked(host, engine, call, this, this.name, arg, arguments[1]);
    };
  /* eslint-enable prefer-rest-params */
}

/** `StructuredTool.prototype` of a loaded `@langchain/core/tools` module, when it has `call`. */
export function structuredToolPrototype(moduleExports: unknown): Target | undefined {
  const cls = isObject(moduleExports) ? moduleExports.StructuredTool : undefined;
  if (typeof cls !== 'function') return undefined;
  const proto: unknown = cls.prototype;
  return isObject(proto) && typeof proto.call === 'function' ? proto : undefined;
}
