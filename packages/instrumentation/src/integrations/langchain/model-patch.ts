/**
 * LangChain.js: which chat model produced a tool call. A tool is called
 * with the `ToolCall` a chat model's message carried, but nothing on the
 * tool's side names that model, so the model's side is wrapped:
 * `BaseChatModel.prototype.generate` (where `invoke`, `batch` and every
 * agent turn land, streamed to callbacks or not) and `_streamIterator`
 * (`model.stream()`). Each tool call id in the messages they return is
 * remembered with the model's `ls_model_name` and `ls_provider` — what
 * `getLsParams` reads from the chat model's own configuration, as LangSmith
 * does — and the tool's call looks its id up (`call-patch.ts`). The id is a
 * key only: it is never written anywhere.
 *
 * At most `MAX_REMEMBERED` ids per instance are kept, the oldest forgotten
 * first; a call whose id is not known is attributed as the run and options
 * say. Whatever argcheck throws, the model's answer is returned unchanged.
 */
import type { RunAttribution } from '../../engine/run-scope.js';
import type { Host } from '../../kit/host.js';
import { isObject } from '../../kit/values.js';
import type { Target } from '../../kit/values.js';
import type { Method, Patch, Switch } from '../../kit/wrapping.js';

/** Tool call ids remembered per instance; a tool runs within moments of its model's answer. */
export const MAX_REMEMBERED = 4096;
/** A longer id is not remembered (and never looked up). */
const MAX_ID_LENGTH = 256;

const MODELS = Symbol('argcheck.langchain.toolCallModels');

type Remembered = Map<string, RunAttribution>;

function remembered(host: Host): Remembered {
  return host.local(MODELS, () => new Map<string, RunAttribution>());
}

function isId(id: unknown): id is string {
  return typeof id === 'string' && id.length > 0 && id.length <= MAX_ID_LENGTH;
}

/** The model that produced the tool call with this id, if this instance saw it. */
export function toolCallModel(host: Host, id: unknown): RunAttribution | undefined {
  return isId(id) ? remembered(host).get(id) : undefined;
}

function text(value: unknown): string | undefined {
  return typeof value === 'string' && value.length > 0 ? value : undefined;
}

/** The chat model's name and provider from its configuration; never throws. */
export function chatModelRun(model: Target, options: unknown): RunAttribution | undefined {
  try {
    const getLsParams = model.getLsParams;
    if (typeof getLsParams !== 'function') return undefined;
    const callOptions = isObject(options) && !Array.isArray(options) ? options : {};
    const params: unknown = getLsParams.call(model, callOptions);
    if (!isObject(params)) return undefined;
    const run = { model: text(params.ls_model_name), provider: text(params.ls_provider) };
    return run.model === undefined && run.provider === undefined ? undefined : run;
  } catch {
    return undefined;
  }
}

/** The tool call ids a message carries: its `tool_calls`, or a chunk's `tool_call_chunks`. */
function idsOf(message: unknown, into: string[]): void {
  if (!isObject(message)) return;
  for (const key of ['tool_calls', 'tool_call_chunks']) {
    const calls = message[key];
    if (!Array.isArray(calls)) continue;
    for (const call of calls as unknown[]) {
      if (isObject(call) && isId(call.id)) into.push(call.id);
    }
  }
}

/** The ids in a `generate` result: `{ generations: ChatGeneration[][] }`. */
function resultIds(result: unknown): string[] {
  const ids: string[] = [];
  const generations = isObject(result) ? result.generations : undefined;
  if (!Array.isArray(generations)) return ids;
  for (const list of generations as unknown[]) {
    if (!Array.isArray(list)) continue;
    for (const generation of list as unknown[]) {
      if (isObject(generation)) idsOf(generation.message, ids);
    }
  }
  return ids;
}

function remember(host: Host, model: Target, options: unknown, ids: readonly string[]): void {
  if (ids.length === 0) return;
  const run = chatModelRun(model, options);
  if (run === undefined) return;
  const map = remembered(host);
  for (const id of ids) {
    map.delete(id);
    map.set(id, run);
    if (map.size > MAX_REMEMBERED) {
      const oldest = map.keys().next();
      if (oldest.done !== true) map.delete(oldest.value);
    }
  }
}

function watching(host: Host, on: Switch, self: unknown): self is Target {
  return on.active && isObject(self) && host.engine() !== undefined;
}

/** `generate`'s answer, once its tool call ids are remembered. */
function remembering(host: Host, model: Target, options: unknown, answer: Promise<unknown>) {
  return answer.then((result: unknown) => {
    try {
      remember(host, model, options, resultIds(result));
    } catch {
      // Not remembered: the call is attributed as the run says.
    }
    return result;
  });
}

/** The chunks of a stream, handed on as they come, each one's tool call ids remembered. */
async function* relay(
  host: Host,
  model: Target,
  options: unknown,
  source: AsyncIterable<unknown>,
): AsyncGenerator<unknown> {
  for await (const chunk of source) {
    try {
      const ids: string[] = [];
      idsOf(chunk, ids);
      remember(host, model, options, ids);
    } catch {
      // Not remembered: the call is attributed as the run says.
    }
    yield chunk;
  }
}

/** The wrapper of `generate(messages, options, callbacks)`: a promise of an `LLMResult`. */
export function patchGenerate(host: Host): Patch {
  return (original: Method, on: Switch) =>
    function (this: unknown, ...args: unknown[]): unknown {
      const answer = original.apply(this, args);
      if (!(answer instanceof Promise) || !watching(host, on, this)) return answer;
      return remembering(host, this, args[1], answer);
    };
}

/**
 * The wrapper of `_streamIterator(input, options)`: an async generator of
 * message chunks; a tool call's id is on its first chunk.
 */
export function patchStreamIterator(host: Host): Patch {
  return (original: Method, on: Switch) =>
    function (this: unknown, ...args: unknown[]): unknown {
      const stream = original.apply(this, args);
      if (!isObject(stream) || !watching(host, on, this)) return stream;
      const source = stream as unknown as AsyncIterable<unknown>;
      if (typeof source[Symbol.asyncIterator] !== 'function') return stream;
      return relay(host, this, args[1], source);
    };
}

/** `BaseChatModel.prototype` of a loaded chat models module, when it has `generate`. */
export function chatModelPrototype(moduleExports: unknown): Target | undefined {
  const cls = isObject(moduleExports) ? moduleExports.BaseChatModel : undefined;
  if (typeof cls !== 'function') return undefined;
  const proto: unknown = cls.prototype;
  return isObject(proto) && typeof proto.generate === 'function' ? proto : undefined;
}
