/**
 * The wrappers of the MCP client methods that send tool calls (`callTool`,
 * SDK 1.x `experimental.tasks.callToolStream`) and list tools (`listTools`).
 * A call goes through the engine and then out as it came, with rewritten
 * arguments (a copy), or not at all: a rejection resolves to a tool error
 * the model reads. Whatever argcheck itself throws, the call goes out as the
 * caller made it.
 */
import type { DiagLogger } from '@opentelemetry/api';
import type { Engine } from '../engine.js';
import { takeChecked } from '../checked-calls.js';
import type { Method, Patch } from '../wrapping.js';
import { callContext } from './call-context.js';

/** What a rejected call resolves to: a tool error the model reads, with the legal values. */
export interface RejectedToolResult {
  isError: true;
  content: [{ type: 'text'; text: string }];
}

class Rejected {
  constructor(readonly result: RejectedToolResult) {}
}

/**
 * The params our outer wrapper is sending on right now. A client patched on
 * its prototype and as an instance has two wrappers of ours in a row; the
 * inner one sees the very params object the outer one sent and passes it on
 * unchecked, so the call counts once (docs/decisions/0013-method-wrapping.md).
 */
let forwarding: unknown;

type Target = Record<string, unknown>;

function isObject(value: unknown): value is Target {
  return typeof value === 'object' && value !== null;
}

/** The params to send for one `tools/call` on `scope`, or the answer to give instead. Never throws. */
function decide(
  engine: Engine | undefined,
  scope: unknown,
  params: unknown,
  diag: DiagLogger,
  method: string,
): unknown {
  try {
    if (engine === undefined || !isObject(params)) return params;
    // The call of a framework tool backed by this client: checked and counted there.
    if (takeChecked()) return params;
    const name = params.name;
    if (typeof name !== 'string') return params;
    // The context (`_meta`, baggage) is read only for a sampled log record.
    const outcome = engine.check(
      name,
      params.arguments,
      () => callContext(params),
      isObject(scope) ? scope : undefined,
    );
    switch (outcome.action) {
      case 'call_rewritten':
        // A copy: the caller's params object is theirs and may be reused.
        return { ...params, arguments: outcome.args };
      case 'reject':
        // Without a message the model has nothing to repair with: send the call.
        if (typeof outcome.repairMessage !== 'string') return params;
        return new Rejected({
          isError: true,
          content: [{ type: 'text', text: outcome.repairMessage }],
        });
      default:
        return params;
    }
  } catch (error) {
    try {
      diag.error(`argcheck: MCP ${method} check failed; the call goes out unchecked`, error);
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
  engine: () => Engine | undefined,
  diag: DiagLogger,
  method: string,
  clientOf: (self: unknown) => unknown,
  answer: (result: RejectedToolResult) => unknown,
): Patch {
  return (original, on) =>
    function (this: unknown, ...args: unknown[]): unknown {
      const params = args[0];
      if (!on.active || params === forwarding) return original.apply(this, args);
      const sent = decide(engine(), clientOf(this), params, diag, method);
      if (sent instanceof Rejected) return answer(sent.result);
      args[0] = sent;
      const previous = forwarding;
      forwarding = sent;
      try {
        return original.apply(this, args);
      } finally {
        forwarding = previous;
      }
    };
}

/** `Client.prototype.callTool(params, ...)`: a rejection resolves to the tool error. */
export function patchCallTool(engine: () => Engine | undefined, diag: DiagLogger): Patch {
  return toolCallPatch(
    engine,
    diag,
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
export function patchCallToolStream(engine: () => Engine | undefined, diag: DiagLogger): Patch {
  return toolCallPatch(
    engine,
    diag,
    'callToolStream',
    (tasks) => (isObject(tasks) ? tasks._client : undefined),
    rejectedStream,
  );
}

/**
 * How long a `listTools` result waits for a new catalog's sets to load. They
 * are the server's own enums, so this is normally a few microtasks; the bound
 * keeps the observer from ever holding up a tool listing.
 */
export const MAX_CATALOG_WAIT_MS = 1_000;

function bounded(ready: Promise<void>): Promise<void> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, MAX_CATALOG_WAIT_MS);
    timer.unref?.();
  });
  return Promise.race([ready, timeout]).finally(() => clearTimeout(timer));
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
export function patchListTools(engine: () => Engine | undefined, diag: DiagLogger): Patch {
  return (original: Method, on) =>
    function (this: unknown, ...args: unknown[]): unknown {
      const pending = original.apply(this, args);
      if (!on.active || !isObject(this) || !(pending instanceof Promise)) return pending;
      return pending.then((result: unknown) => afterListing(engine(), diag, this, args[0], result));
    };
}

/** Hand a listing to the engine and wait (bounded) until calls see it; the result is returned as it came. */
async function afterListing(
  engine: Engine | undefined,
  diag: DiagLogger,
  client: Target,
  params: unknown,
  result: unknown,
): Promise<unknown> {
  try {
    if (engine !== undefined && isObject(result) && Array.isArray(result.tools)) {
      const ready = engine.toolsListed(client, {
        tools: result.tools as unknown[],
        continued: continues(params),
        origin: 'mcp',
        scopeName: serverNameOf(client),
      });
      if (ready !== undefined) await bounded(ready);
    }
  } catch (error) {
    try {
      diag.warn('argcheck: could not derive value sets from the MCP tool catalog', error);
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
