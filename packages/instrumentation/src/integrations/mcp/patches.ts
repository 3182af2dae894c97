/**
 * The wrappers of the MCP client methods that send tool calls (`callTool`,
 * SDK 1.x `experimental.tasks.callToolStream`) and list tools (`listTools`).
 * A call goes through the engine's seam and then out with the arguments it
 * decided (a copy read once, maybe rewritten), or not at all: a rejection
 * resolves to a tool error the model reads. Whatever argcheck itself throws,
 * the call goes out as the caller made it.
 */
import { Refusal } from '../../engine/engine.js';
import { boundedWait } from '../../kit/bounded-wait.js';
import { callContext } from '../../kit/call-context.js';
import type { Host } from '../../kit/host.js';
import { isObject } from '../../kit/values.js';
import type { Target } from '../../kit/values.js';
import type { Method, Patch } from '../../kit/wrapping.js';

/** What a rejected call resolves to: a tool error the model reads, with the legal values. */
export interface RejectedToolResult {
  isError: true;
  content: [{ type: 'text'; text: string }];
}

class Rejected {
  constructor(readonly result: RejectedToolResult) {}
}

/** A client's first tools/call before it listed its tools starts a listing, once per instance. */
const LISTING = Symbol('argcheck.mcp.background-listing');
/** Pages a background listing follows at most. */
const MAX_PAGES = 16;

/**
 * List `client`'s tools in the background so the sets derived from them
 * apply to its later calls. Nothing waits for it, and a failure is only
 * logged: the call that started it has gone out already.
 */
function listInBackground(host: Host, client: Target): void {
  const started = host.local(LISTING, () => new WeakSet<object>());
  if (started.has(client) || typeof client.listTools !== 'function') return;
  started.add(client);
  const sdk = typeof client.getServerVersion === 'function';
  const list = async () => {
    let cursor: unknown;
    for (let page = 0; page < MAX_PAGES; page++) {
      const params = cursor === undefined ? undefined : { cursor };
      const result: unknown = await (client.listTools as Method).call(client, params);
      cursor = isObject(result) ? result.nextCursor : undefined;
      // `@ai-sdk/mcp` pages through `{ params: { cursor } }`; its first page is enough here.
      if (!sdk || typeof cursor !== 'string' || cursor === '') return;
    }
  };
  host.track(
    list().catch((error: unknown) => {
      host.diag.debug('argcheck: listing MCP tools in the background failed', error);
    }),
  );
}

/** The params to send for one `tools/call` on `scope`, or the answer to give instead. Never throws. */
function decide(host: Host, scope: unknown, params: unknown, method: string): unknown {
  try {
    const engine = host.engine();
    if (engine === undefined || !isObject(params)) return params;
    const name = params.name;
    if (typeof name !== 'string') return params;
    const client = isObject(scope) ? scope : undefined;
    // The context (`_meta`, baggage) is read only for a sampled log record or a repair.
    const sent = engine.decideSent(name, params.arguments, client, 'mcp', callContext, params);
    if (client !== undefined && engine.wantsListing(client)) listInBackground(host, client);
    if (sent instanceof Refusal) {
      return new Rejected({ isError: true, content: [{ type: 'text', text: sent.message }] });
    }
    if (sent === undefined && !Object.hasOwn(params, 'arguments')) return params;
    // A copy: the caller's params object is theirs and may be reused; what goes out is what was checked.
    return { ...params, arguments: sent };
  } catch (error) {
    try {
      host.diag.error(`argcheck: MCP ${method} check failed; the call goes out unchecked`, error);
    } catch {
      // A broken logger must not take the call down with it.
    }
    return params;
  }
}

/**
 * A wrapper of `method(params, ...rest)` that sends `tools/call`: checks
 * `params` on the client `clientOf(this)`, forwards every further argument
 * as given, and gives `answer(result)` for a rejected call.
 */
function toolCallPatch(
  host: Host,
  method: string,
  clientOf: (self: unknown) => unknown,
  answer: (result: RejectedToolResult) => unknown,
): Patch {
  // `arguments`, not a rest array: the call's own arguments go on as they
  // came, and the usual call of one or two allocates nothing more.
  /* eslint-disable prefer-rest-params */
  return (original, on) =>
    function (this: unknown, params?: unknown): unknown {
      // The same instance's outer wrapper (on the client, over its prototype's) checked these params.
      if (!on.active || (params !== undefined && params === host.forwarding)) {
        return Reflect.apply(original, this, arguments);
      }
      const sent = decide(host, clientOf(this), params, method);
      if (sent instanceof Rejected) return answer(sent.result);
      const previous = host.forwarding;
      host.forwarding = sent;
      try {
        const count = arguments.length;
        if (count === 0) return original.call(this);
        if (count === 1) return original.call(this, sent);
        if (count === 2) return original.call(this, sent, arguments[1]);
        const args: unknown[] = Array.prototype.slice.call(arguments);
        args[0] = sent;
        return original.apply(this, args);
      } finally {
        host.forwarding = previous;
      }
    };
  /* eslint-enable prefer-rest-params */
}

/** `Client.prototype.callTool(params, ...)`: a rejection resolves to the tool error. */
export function patchCallTool(host: Host): Patch {
  return toolCallPatch(
    host,
    'callTool',
    (client) => client,
    (result) => Promise.resolve(result),
  );
}

// An async generator, like the method it stands in for, though it awaits nothing.
// eslint-disable-next-line @typescript-eslint/require-await
async function* rejectedStream(result: RejectedToolResult) {
  yield { type: 'result' as const, result };
}

/**
 * `client.experimental.tasks.callToolStream(params, ...)` (SDK 1.x): checked
 * on the client the tasks object belongs to (`_client`), so its catalog's
 * sets apply; a rejection is a stream of one `result` message.
 */
export function patchCallToolStream(host: Host): Patch {
  return toolCallPatch(
    host,
    'callToolStream',
    (tasks) => (isObject(tasks) ? tasks._client : undefined),
    rejectedStream,
  );
}

/** `getServerVersion()` on the MCP SDK lines, the `serverInfo` getter on `@ai-sdk/mcp`'s client. */
function serverNameOf(client: Target): string | undefined {
  const getter = client.getServerVersion;
  const info: unknown = typeof getter === 'function' ? getter.call(client) : client.serverInfo;
  return isObject(info) && typeof info.name === 'string' && info.name !== ''
    ? info.name
    : undefined;
}

/** A further page: `listTools({ cursor })` on the MCP SDK lines, `listTools({ params: { cursor } })` on `@ai-sdk/mcp`. */
function continues(params: unknown): boolean {
  if (!isObject(params)) return false;
  if (params.cursor !== undefined) return true;
  return isObject(params.params) && params.params.cursor !== undefined;
}

/**
 * `Client.prototype.listTools(params, ...)`: the result goes back unchanged,
 * once the catalog derived from it is in use, so a call made right after
 * `await client.listTools()` is checked against it. Both SDK lines re-list
 * through `listTools` on `notifications/tools/list_changed` when the client
 * was built with `listChanged.tools`, so that path is covered too.
 */
export function patchListTools(host: Host): Patch {
  return (original: Method, on) =>
    function (this: unknown, ...args: unknown[]): unknown {
      const pending = original.apply(this, args);
      if (!on.active || !isObject(this) || !(pending instanceof Promise)) return pending;
      return pending.then((result: unknown) => afterListing(host, this, args[0], result));
    };
}

/** Hand a listing to the engine and wait (bounded) until calls see it; the result is returned as it came. */
async function afterListing(
  host: Host,
  client: Target,
  params: unknown,
  result: unknown,
): Promise<unknown> {
  try {
    const engine = host.engine();
    if (engine !== undefined && isObject(result) && Array.isArray(result.tools)) {
      const ready = engine.toolsListed(client, {
        tools: result.tools as unknown[],
        continued: continues(params),
        origin: 'mcp',
        integration: 'mcp',
        scopeName: serverNameOf(client),
      });
      if (ready !== undefined) await boundedWait(ready);
    }
  } catch (error) {
    try {
      host.diag.warn('argcheck: could not derive value sets from the MCP tool catalog', error);
    } catch {
      // A broken logger must not lose the caller its tool list.
    }
  }
  return result;
}

/** `Client.prototype` of a loaded client module, when it has `callTool`. */
export function clientPrototype(moduleExports: unknown): Target | undefined {
  if (typeof moduleExports !== 'object' && typeof moduleExports !== 'function') return undefined;
  const client = (moduleExports as { Client?: unknown } | null)?.Client;
  if (typeof client !== 'function') return undefined;
  const proto: unknown = client.prototype;
  return isObject(proto) && typeof proto.callTool === 'function' ? proto : undefined;
}

/**
 * The prototype of SDK 1.x's `client.experimental.tasks` objects, reached
 * through the `experimental` getter of `Client.prototype` on a throwaway
 * receiver (the getter only stores a new tasks object on it); undefined for
 * a client line without it.
 */
export function tasksPrototype(clientProto: Target): Target | undefined {
  try {
    const experimental: unknown = Reflect.get(clientProto, 'experimental', {});
    const tasks: unknown = isObject(experimental) ? experimental.tasks : undefined;
    const proto: unknown = isObject(tasks) ? Object.getPrototypeOf(tasks) : undefined;
    return isObject(proto) && typeof proto.callToolStream === 'function' ? proto : undefined;
  } catch {
    return undefined;
  }
}

/** One client's `experimental.tasks` object, when it has `callToolStream`. */
export function tasksOf(client: Target): Target | undefined {
  try {
    const experimental = client.experimental;
    const tasks: unknown = isObject(experimental) ? experimental.tasks : undefined;
    return isObject(tasks) && typeof tasks.callToolStream === 'function' ? tasks : undefined;
  } catch {
    return undefined;
  }
}

/** Wrap `Client.prototype` of a loaded MCP client module (the same module may come twice). */
export function patchClientPrototype(host: Host, proto: Target): void {
  host.wrapping.wrap(proto, 'callTool', patchCallTool(host));
  host.wrapping.wrap(proto, 'listTools', patchListTools(host));
  const tasks = tasksPrototype(proto);
  if (tasks !== undefined) host.wrapping.wrap(tasks, 'callToolStream', patchCallToolStream(host));
}

export function unpatchClientPrototype(host: Host, proto: Target): void {
  host.wrapping.unwrap(proto, 'callTool');
  host.wrapping.unwrap(proto, 'listTools');
  const tasks = tasksPrototype(proto);
  if (tasks !== undefined) host.wrapping.unwrap(tasks, 'callToolStream');
}
