/**
 * Auto-patching of the Vercel AI SDK (`ai` 7, ESM only) and its MCP client
 * (`@ai-sdk/mcp`).
 *
 * `ai`: the `generateText`, `streamText` and `experimental_streamTextLowMemory`
 * exports get a checked `tools` map (`tools-map.ts`); `ToolLoopAgent`
 * calls the module's own `generateText` / `streamText`, not the exports, so
 * `ToolLoopAgent.prototype.prepareCall`, which both its `generate` and
 * `stream` go through, checks the `tools` of the call it prepares. Under the
 * ESM loader hook the exports are settable; `ai` loaded by `require` (Node 22+) gives
 * a module namespace whose exports cannot be redefined, so a plain copy with
 * the wrapped functions is returned in its place.
 *
 * `@ai-sdk/mcp`: its `DefaultMCPClient` is not exported. `createMCPClient`
 * resolves to one, and its prototype's `callTool` and `listTools` then get
 * the MCP client wrappers (`mcp/patches.ts`), once.
 */
import { types } from 'node:util';
import { InstrumentationNodeModuleDefinition } from '@opentelemetry/instrumentation';
import type { InstrumentationModuleDefinition } from '@opentelemetry/instrumentation';
import { patchCallTool, patchListTools } from '../../mcp/patches.js';
import type { Method, Patch } from '../../wrapping.js';
import { inRange, reportUnsupported } from '../module-support.js';
import type { PatchHost, SupportedRange } from '../module-support.js';
import { checkTools } from '../tools-map.js';
import type { ToolsKind } from '../tools-map.js';
import { aiSdkTools } from './tools.js';
import type { AsSchema } from './tools.js';

export const AI_PACKAGE = 'ai';
export const AI_SDK_MCP_PACKAGE = '@ai-sdk/mcp';
export const AI_RANGE: SupportedRange = { min: [7, 0, 0], belowMajor: 8 };
export const AI_SDK_MCP_RANGE: SupportedRange = { min: [2, 0, 0], belowMajor: 3 };

const ENTRY_POINTS = ['generateText', 'streamText', 'experimental_streamTextLowMemory'] as const;
const CREATE_MCP_CLIENT = ['createMCPClient', 'experimental_createMCPClient'] as const;

type Target = Record<string, unknown>;

function isObject(value: unknown): value is Target {
  return (typeof value === 'object' || typeof value === 'function') && value !== null;
}

/** A wrapper of `fn(options, ...rest)` that passes `{ ...options, tools }` with the tools checked. */
function optionsPatch(host: PatchHost, kind: ToolsKind): Patch {
  return (original, on) =>
    function (this: unknown, ...args: unknown[]): unknown {
      const options = args[0];
      if (on.active && isObject(options) && options.tools != null) {
        const { tools } = checkTools(host, host.tools, kind, options.tools);
        if (tools !== options.tools) args[0] = { ...options, tools };
      }
      return original.apply(this, args);
    };
}

/** `ToolLoopAgent.prototype.prepareCall`: the call it resolves to gets checked tools. */
function prepareCallPatch(host: PatchHost, kind: ToolsKind): Patch {
  return (original, on) =>
    function (this: unknown, ...args: unknown[]): unknown {
      const pending = original.apply(this, args);
      if (!on.active || !(pending instanceof Promise)) return pending;
      return pending.then((prepared: unknown) => {
        if (!isObject(prepared) || prepared.tools == null) return prepared;
        const { tools } = checkTools(host, host.tools, kind, prepared.tools);
        return tools === prepared.tools ? prepared : { ...prepared, tools };
      });
    };
}

/** The object whose exports we wrap: the module itself, or for a `require()`d ESM namespace, a copy. */
const copies = new WeakMap<object, Target>();

function patchable(moduleExports: Target): Target {
  if (!types.isModuleNamespaceObject(moduleExports) || types.isProxy(moduleExports)) {
    return moduleExports;
  }
  let copy = copies.get(moduleExports);
  if (copy === undefined) {
    copy = Object.defineProperty({ ...moduleExports }, Symbol.toStringTag, { value: 'Module' });
    copies.set(moduleExports, copy);
  }
  return copy;
}

function agentPrototype(moduleExports: Target): Target | undefined {
  const agent = moduleExports.ToolLoopAgent;
  const proto: unknown = typeof agent === 'function' ? agent.prototype : undefined;
  return isObject(proto) && typeof proto.prepareCall === 'function' ? proto : undefined;
}

function aiDefinition(host: PatchHost): InstrumentationModuleDefinition {
  let asSchema: AsSchema | undefined;
  const kind = aiSdkTools(() => asSchema);
  const patch = (moduleExports: unknown, version?: string): unknown => {
    if (!isObject(moduleExports)) return moduleExports;
    if (!inRange(version, AI_RANGE)) {
      reportUnsupported(host.diag, AI_PACKAGE, version, AI_RANGE);
      return moduleExports;
    }
    const target = patchable(moduleExports);
    if (typeof target.asSchema === 'function') {
      asSchema = target.asSchema as AsSchema;
    }
    for (const name of ENTRY_POINTS) host.wrap(target, name, optionsPatch(host, kind));
    const proto = agentPrototype(target);
    if (proto !== undefined) host.wrap(proto, 'prepareCall', prepareCallPatch(host, kind));
    return target;
  };
  const unpatch = (moduleExports: unknown): unknown => {
    if (!isObject(moduleExports)) return moduleExports;
    const target = copies.get(moduleExports) ?? moduleExports;
    for (const name of ENTRY_POINTS) host.unwrap(target, name);
    const proto = agentPrototype(target);
    if (proto !== undefined) host.unwrap(proto, 'prepareCall');
    return moduleExports;
  };
  return new InstrumentationNodeModuleDefinition(AI_PACKAGE, ['*'], patch, unpatch);
}

function mcpDefinition(host: PatchHost): InstrumentationModuleDefinition {
  const patched = new Set<Target>();
  const engine = () => host.engine();
  const patchClient = (client: unknown) => {
    const proto: unknown = isObject(client) ? Object.getPrototypeOf(client) : undefined;
    if (!isObject(proto) || patched.has(proto) || typeof proto.callTool !== 'function') return;
    patched.add(proto);
    host.wrap(proto, 'callTool', patchCallTool(engine, host.diag));
    host.wrap(proto, 'listTools', patchListTools(engine, host.diag));
  };
  const createPatch: Patch = (original: Method, on) =>
    function (this: unknown, ...args: unknown[]): unknown {
      const pending = original.apply(this, args);
      if (!on.active || !(pending instanceof Promise)) return pending;
      return pending.then((client: unknown) => {
        try {
          patchClient(client);
        } catch (error) {
          host.diag.debug('argcheck: @ai-sdk/mcp client not patched', error);
        }
        return client;
      });
    };
  const patch = (moduleExports: unknown, version?: string): unknown => {
    if (!isObject(moduleExports)) return moduleExports;
    if (!inRange(version, AI_SDK_MCP_RANGE)) {
      reportUnsupported(host.diag, AI_SDK_MCP_PACKAGE, version, AI_SDK_MCP_RANGE);
      return moduleExports;
    }
    const target = patchable(moduleExports);
    for (const name of CREATE_MCP_CLIENT) host.wrap(target, name, createPatch);
    return target;
  };
  const unpatch = (moduleExports: unknown): unknown => {
    if (!isObject(moduleExports)) return moduleExports;
    const target = copies.get(moduleExports) ?? moduleExports;
    for (const name of CREATE_MCP_CLIENT) host.unwrap(target, name);
    for (const proto of patched) {
      host.unwrap(proto, 'callTool');
      host.unwrap(proto, 'listTools');
    }
    patched.clear();
    return moduleExports;
  };
  return new InstrumentationNodeModuleDefinition(AI_SDK_MCP_PACKAGE, ['*'], patch, unpatch);
}

/** The module definitions `init()` lists for the AI SDK. */
export function aiSdkModules(host: PatchHost): InstrumentationModuleDefinition[] {
  return [aiDefinition(host), mcpDefinition(host)];
}
