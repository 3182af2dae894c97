import { diag } from '@opentelemetry/api';
import type { McpHost } from '../internal-types.js';
import { clientCatalogsFor } from './client-catalogs.js';
import { callToolInterceptor } from './intercept-call-tool.js';
import { callToolStreamInterceptor } from './intercept-call-tool-stream.js';
import { listToolsInterceptor } from './intercept-list-tools.js';
import type { FirstArgumentInterceptor, Interceptor } from './wrap-method.js';
import { unwrapMethod, wrapInstanceMethod, wrapPrototypeMethod } from './wrap-method.js';

type Target = Record<string, unknown>;

function interceptors(host: McpHost): [string, Interceptor | FirstArgumentInterceptor][] {
  const catalogs = clientCatalogsFor(host);
  return [
    ['callTool', callToolInterceptor(host, catalogs)],
    ['listTools', listToolsInterceptor(host, catalogs)],
  ];
}

const STREAM = 'callToolStream';

/**
 * The prototype of SDK 1.x's `client.experimental.tasks` objects, reached
 * through the `experimental` getter of `Client.prototype` on a throwaway
 * receiver (the getter only stores a new tasks object on it); undefined for
 * a client line without it.
 */
function tasksPrototype(clientProto: Target): Target | undefined {
  try {
    // The getter runs with the throwaway object as `this`.
    const experimental: unknown = Reflect.get(clientProto, 'experimental', {});
    const tasks: unknown = (experimental as { tasks?: unknown } | undefined)?.tasks;
    if (typeof tasks !== 'object' || tasks === null) return undefined;
    const proto: unknown = Object.getPrototypeOf(tasks);
    if (typeof proto !== 'object' || proto === null) return undefined;
    return typeof (proto as Target)[STREAM] === 'function' ? (proto as Target) : undefined;
  } catch {
    return undefined;
  }
}

/** One client's `experimental.tasks` object, when it has one with `callToolStream`. */
function tasksOf(client: Target): Target | undefined {
  try {
    const tasks = (client.experimental as { tasks?: unknown } | undefined)?.tasks;
    return typeof tasks === 'object' &&
      tasks !== null &&
      typeof (tasks as Target)[STREAM] === 'function'
      ? (tasks as Target)
      : undefined;
  } catch {
    return undefined;
  }
}

/** `Client.prototype` of a loaded client module, when it has one. */
function clientPrototype(moduleExports: unknown): Target | undefined {
  if (typeof moduleExports !== 'object' && typeof moduleExports !== 'function') return undefined;
  const client = (moduleExports as { Client?: unknown } | null)?.Client;
  if (typeof client !== 'function') return undefined;
  const proto: unknown = client.prototype;
  return typeof proto === 'object' && proto !== null ? (proto as Target) : undefined;
}

/** The module-load hook: patch `Client.prototype` of `moduleExports` and hand the exports back. */
export function patchClientModule<T>(moduleExports: T, host: McpHost): T {
  const proto = clientPrototype(moduleExports);
  if (proto === undefined || typeof proto.callTool !== 'function') {
    // Module hooks can fire inside the instrumentation's constructor, before `host.diag` exists.
    (host.diag ?? diag).debug(
      'argcheck: MCP client module without Client.prototype.callTool; not patched',
    );
    return moduleExports;
  }
  for (const [name, intercept] of interceptors(host)) wrapPrototypeMethod(proto, name, intercept);
  const tasks = tasksPrototype(proto);
  if (tasks !== undefined) {
    wrapPrototypeMethod(tasks, STREAM, callToolStreamInterceptor(host, clientCatalogsFor(host)));
  }
  return moduleExports;
}

export function unpatchClientModule<T>(moduleExports: T): T {
  const proto = clientPrototype(moduleExports);
  if (proto !== undefined) {
    unwrapMethod(proto, 'callTool');
    unwrapMethod(proto, 'listTools');
    const tasks = tasksPrototype(proto);
    if (tasks !== undefined) unwrapMethod(tasks, STREAM);
  }
  return moduleExports;
}

/**
 * Patch one client object, for setups auto-patching cannot reach (ESM without
 * loader hooks). Patching a client twice, or one whose class is patched too,
 * still checks and counts each call once.
 */
export function instrumentClient(client: object, host: McpHost): void {
  const target = client as Target;
  if (typeof target.callTool !== 'function') {
    host.diag.warn('argcheck: instrumentMcpClient was given an object without callTool; ignored');
    return;
  }
  for (const [name, intercept] of interceptors(host)) wrapInstanceMethod(target, name, intercept);
  const tasks = tasksOf(target);
  if (tasks !== undefined) {
    wrapInstanceMethod(tasks, STREAM, callToolStreamInterceptor(host, clientCatalogsFor(host)));
  }
}
