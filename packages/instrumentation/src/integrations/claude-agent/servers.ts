/**
 * The Claude Agent SDK's in-process MCP servers (`createSdkMcpServer`, or any
 * `{ type: 'sdk', instance }` in `options.mcpServers`): the one place where a
 * call the `PreToolUse` hook decided runs in this process.
 *
 * The server's client side lives in the SDK's binary, so what argcheck can
 * read is the server's own registry of tools, `instance._registeredTools`
 * (the MCP SDK's `McpServer`, bundled into the Agent SDK): each tool's
 * description, its input schema and its `handler`.
 *
 * - Listing: the tools, under the names the model calls them by
 *   (`mcp__<key>__<tool>`, `key` being the server's key in `mcpServers`), are
 *   the catalog of a scope of their own per server and key, so the string
 *   enums of their schemas become derived sets (`claude-agent:<name>.<path>`).
 * - Marks: each handler is wrapped (an instance wrapper on the registered
 *   tool). A call the hook checked and counted runs marked as checked
 *   (`engine/call-marks.ts`), found by the tool-use id the binary puts in the
 *   request's `_meta`, so an MCP call the handler makes for the very same
 *   call is not counted again.
 *
 * Anything unexpected in that registry leaves the server as it is: its calls
 * are still checked by the hook, against the configured arguments only.
 */
import type { Engine } from '../../engine/engine.js';
import type { Host } from '../../kit/host.js';
import { jsonSchemaOf } from '../../kit/tool-schemas.js';
import { listChanged } from '../../kit/tools-map.js';
import { isObject, isRecord } from '../../kit/values.js';
import type { Patch } from '../../kit/wrapping.js';

/** Where the Agent SDK's in-process tool schemas come from: sets named `claude-agent:<tool>.<path>`. */
export const CLAUDE_AGENT_CATALOG = {
  origin: 'claude-agent',
  integration: 'claude_agent',
} as const;

/** The `_meta` key under which the SDK's binary sends a tool call's id to an in-process server. */
const TOOL_USE_ID_META = 'claudecode/toolUseId';

/** Calls decided and not yet run that are remembered, at most; the oldest go first. */
export const MAX_DECIDED = 1_024;

/**
 * The name the model calls an MCP tool by: `mcp__<server>__<tool>`, each part
 * with what is not a letter, digit, `_` or `-` made `_`, as the SDK's binary
 * writes it (`my.shop` → `mcp__my_shop__…`).
 */
export function mcpToolName(server: string, tool: string): string {
  const part = (text: string) => text.replace(/[^a-zA-Z0-9_-]/g, '_');
  return `mcp__${part(server)}__${part(tool)}`;
}

/** An in-process server as one query's options name it. */
export interface SdkServer {
  /** Its key in `mcpServers`. */
  readonly key: string;
  /** What its tools' names start with: `mcp__<key>__`, as the binary writes the key. */
  readonly prefix: string;
  /** The object whose catalog its calls are checked against. */
  readonly scope: object;
  /** The tools' listing in use, or on its way (`undefined` when there is nothing to wait for). */
  listed(): Promise<void> | undefined;
}

interface ServersState {
  /** Scopes by server instance and key: the same server under the same key keeps its catalog. */
  readonly scopes: WeakMap<object, Map<string, object>>;
  /** Calls this instance's hook checked, by tool-use id: the name they were checked under. */
  readonly decided: Map<string, string>;
}

const STATE = Symbol('argcheck.claude-agent.servers');

function stateOf(host: Host): ServersState {
  return host.local(STATE, () => ({ scopes: new WeakMap(), decided: new Map() }));
}

/** Called by the hook: the in-process handler of this call runs marked as checked under `tool`. */
export function markDecided(host: Host, toolUseId: string, tool: string): void {
  const { decided } = stateOf(host);
  decided.delete(toolUseId);
  decided.set(toolUseId, tool);
  // A call denied by another hook or by the permission system never runs.
  if (decided.size > MAX_DECIDED) decided.delete(decided.keys().next().value as string);
}

function takeDecided(host: Host, extra: unknown): string | undefined {
  const meta = isObject(extra) ? extra._meta : undefined;
  const id = isObject(meta) ? meta[TOOL_USE_ID_META] : undefined;
  if (typeof id !== 'string') return undefined;
  const { decided } = stateOf(host);
  const tool = decided.get(id);
  if (tool !== undefined) decided.delete(id);
  return tool;
}

/** `handler(args, extra)`: a call the hook decided runs marked as checked with the arguments it was given. */
function handlerPatch(host: Host): Patch {
  return (original, on) =>
    function (this: unknown, ...args: unknown[]): unknown {
      const tool =
        on.active && host.engine() !== undefined ? takeDecided(host, args[1]) : undefined;
      if (tool === undefined) return original.apply(this, args);
      return host.runMarked(tool, args[0], () => original.apply(this, args));
    };
}

/**
 * JSON Schema of a registered tool's input: the schema's own (Standard JSON
 * Schema), or, for the object `McpServer` builds from a zod 4 shape with its
 * bundled zod, an object schema of the shape's properties, each converted by
 * the application's zod. Anything else: `undefined` (nothing derived).
 */
export function inputSchemaOf(schema: unknown): unknown {
  if (!isObject(schema)) return undefined;
  const own = jsonSchemaOf(schema, undefined);
  if (own !== undefined) return own;
  const zod = schema._zod;
  const def = isObject(zod) ? zod.def : undefined;
  const shape = isObject(def) ? def.shape : undefined;
  if (!isRecord(shape)) return undefined;
  const properties: Record<string, unknown> = {};
  for (const [name, property] of Object.entries(shape)) {
    const converted = jsonSchemaOf(property, undefined);
    if (!isRecord(converted)) continue;
    // Each property converted alone names its dialect; the object says it once, if at all.
    const { $schema, ...rest } = converted;
    void $schema;
    properties[name] = rest;
  }
  return { type: 'object', properties };
}

function registeredTools(config: unknown): Readonly<Record<string, unknown>> | undefined {
  if (!isObject(config) || config.type !== 'sdk') return undefined;
  const instance = config.instance;
  const tools = isObject(instance) ? instance._registeredTools : undefined;
  return isRecord(tools) ? tools : undefined;
}

/**
 * The in-process servers among `mcpServers`, each with its handlers wrapped
 * and its tools listed (now when the instrumentation is on, otherwise at the
 * first call). Never throws: a server argcheck cannot read is left out.
 */
export function sdkServers(host: Host, mcpServers: unknown): Map<string, SdkServer> {
  const servers = new Map<string, SdkServer>();
  if (!isRecord(mcpServers)) return servers;
  const state = stateOf(host);
  for (const [key, config] of Object.entries(mcpServers)) {
    try {
      const tools = registeredTools(config);
      if (tools === undefined) continue;
      const instance = (config as { instance: object }).instance;
      let byKey = state.scopes.get(instance);
      if (byKey === undefined) state.scopes.set(instance, (byKey = new Map<string, object>()));
      let scope = byKey.get(key);
      if (scope === undefined) byKey.set(key, (scope = Object.freeze({ server: key })));
      const entries: [string, () => unknown, unknown][] = [];
      for (const [name, tool] of Object.entries(tools)) {
        if (!isObject(tool) || tool.enabled === false) continue;
        if (typeof tool.handler === 'function') {
          host.wrapping.wrapInstance(tool, 'handler', handlerPatch(host));
        }
        entries.push([
          mcpToolName(key, name),
          () => inputSchemaOf(tool.inputSchema),
          tool.description,
        ]);
      }
      const listed = (engine: Engine) =>
        listChanged(host, engine, scope, CLAUDE_AGENT_CATALOG, entries);
      const engine = host.engine();
      if (engine !== undefined) void listed(engine);
      const server: SdkServer = {
        key,
        prefix: mcpToolName(key, ''),
        scope,
        listed() {
          if (host.tools.listed.has(scope)) return host.tools.listed.get(scope);
          const current = host.engine();
          return current === undefined ? undefined : listed(current);
        },
      };
      servers.set(key, server);
    } catch (error) {
      host.diag.debug(`argcheck: the Claude Agent SDK server ${key} could not be read`, error);
    }
  }
  return servers;
}
