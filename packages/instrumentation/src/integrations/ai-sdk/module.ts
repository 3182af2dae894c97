/**
 * The Vercel AI SDK (`ai` 7, ESM only). Its MCP client (`@ai-sdk/mcp`) is an
 * MCP client line of the MCP integration (`integrations/mcp/module.ts`).
 *
 * `ai`: the `generateText`, `streamText` and `experimental_streamTextLowMemory`
 * exports get a checked `tools` map (`kit/tools-map.ts`, `tools.ts`);
 * `ToolLoopAgent` calls the module's own `generateText` / `streamText`, not
 * the exports, so `ToolLoopAgent.prototype.prepareCall`, which both its
 * `generate` and `stream` go through, checks the `tools` of the call it
 * prepares. Under the ESM loader hook the exports are settable; `ai` loaded
 * by `require` (Node 22+) gives a module namespace whose exports cannot be
 * redefined, so a plain copy with the wrapped functions is returned in its
 * place. docs/decisions/0019-framework-patch-points.md says why these.
 *
 * The explicit entry point is `inst.wrapAiSdkTools(tools)`.
 */
import { withRun } from '../../engine/run-scope.js';
import type { RunAttribution } from '../../engine/run-scope.js';
import type { Host } from '../../kit/host.js';
import { modelRun } from '../../kit/model-attribution.js';
import { patchableExports, patchedExports } from '../../kit/module-exports.js';
import type { ModuleSpec } from '../../kit/module-spec.js';
import { checkTools } from '../../kit/tools-map.js';
import type { ToolsKind } from '../../kit/tools-map.js';
import { hasProperties } from '../../kit/values.js';
import type { Target } from '../../kit/values.js';
import type { Patch } from '../../kit/wrapping.js';
import { aiSdkTools } from './tools.js';
import type { AsSchema } from '../../kit/tool-schemas.js';

export const AI_PACKAGE = 'ai';

const ENTRY_POINTS = ['generateText', 'streamText', 'experimental_streamTextLowMemory'] as const;
const EXPLICIT = 'inst.wrapAiSdkTools(tools)';
/** Entry points whose run goes on after they return (a stream): it ends by `repairWindowMs`. */
const STREAMING: ReadonlySet<string> = new Set(['streamText', 'experimental_streamTextLowMemory']);

/**
 * A wrapper of `fn(options, ...rest)` that passes `{ ...options, tools }`
 * with the tools checked, as one run of `options.model` (`run-scope.ts`).
 */
function optionsPatch(host: Host, kind: ToolsKind, streaming: boolean): Patch {
  return (original, on) =>
    function (this: unknown, ...args: unknown[]): unknown {
      const options = args[0];
      if (!on.active || !hasProperties(options) || options.tools == null) {
        return original.apply(this, args);
      }
      let run: RunAttribution | undefined;
      try {
        const tools = checkTools(host, kind, options.tools);
        if (tools !== options.tools) args[0] = { ...options, tools };
        run = modelRun(options.model);
      } catch {
        // The call goes on as the application made it.
      }
      if (run === undefined) return original.apply(this, args);
      return withRun(run, () => original.apply(this, args), !streaming);
    };
}

/** `ToolLoopAgent.prototype.generate` / `stream`: one run of the agent's model, named by its `id`. */
function agentRunPatch(streaming: boolean): Patch {
  return (original, on) =>
    function (this: unknown, ...args: unknown[]): unknown {
      if (!on.active) return original.apply(this, args);
      let run: RunAttribution | undefined;
      try {
        const settings = hasProperties(this) ? this.settings : undefined;
        if (hasProperties(settings)) run = modelRun(settings.model, settings.id);
      } catch {
        run = undefined;
      }
      if (run === undefined) return original.apply(this, args);
      return withRun(run, () => original.apply(this, args), !streaming);
    };
}

/** `ToolLoopAgent.prototype.prepareCall`: the call it resolves to gets checked tools. */
function prepareCallPatch(host: Host, kind: ToolsKind): Patch {
  return (original, on) =>
    function (this: unknown, ...args: unknown[]): unknown {
      const pending = original.apply(this, args);
      if (!on.active || !(pending instanceof Promise)) return pending;
      return pending.then((prepared: unknown) => {
        if (!hasProperties(prepared) || prepared.tools == null) return prepared;
        const tools = checkTools(host, kind, prepared.tools);
        return tools === prepared.tools ? prepared : { ...prepared, tools };
      });
    };
}

function agentPrototype(moduleExports: Target): Target | undefined {
  const agent = moduleExports.ToolLoopAgent;
  const proto: unknown = typeof agent === 'function' ? agent.prototype : undefined;
  return hasProperties(proto) && typeof proto.prepareCall === 'function' ? proto : undefined;
}

/** The `asSchema` of the loaded `ai`, if auto-patching saw one; the explicit entry point imports `ai`. */
let loadedAsSchema: AsSchema | undefined;

function aiSpec(host: Host): ModuleSpec {
  const kind = aiSdkTools(() => loadedAsSchema);
  return {
    integration: 'ai_sdk',
    packageName: AI_PACKAGE,
    range: { lowest: '7.0.0', below: '8.0.0' },
    patch(moduleExports) {
      if (!hasProperties(moduleExports)) return moduleExports;
      const target = patchableExports(moduleExports);
      if (typeof target.asSchema === 'function') loadedAsSchema = target.asSchema as AsSchema;
      for (const name of ENTRY_POINTS) {
        host.wrapping.wrap(target, name, optionsPatch(host, kind, STREAMING.has(name)));
      }
      const proto = agentPrototype(target);
      if (proto !== undefined) {
        host.wrapping.wrap(proto, 'prepareCall', prepareCallPatch(host, kind));
        if (typeof proto.generate === 'function') {
          host.wrapping.wrap(proto, 'generate', agentRunPatch(false));
        }
        if (typeof proto.stream === 'function')
          host.wrapping.wrap(proto, 'stream', agentRunPatch(true));
      }
      return target;
    },
    unpatch(moduleExports) {
      if (!hasProperties(moduleExports)) return;
      const target = patchedExports(moduleExports);
      for (const name of ENTRY_POINTS) host.wrapping.unwrap(target, name);
      const proto = agentPrototype(target);
      if (proto !== undefined) {
        for (const name of ['prepareCall', 'generate', 'stream']) host.wrapping.unwrap(proto, name);
      }
    },
    explicit: EXPLICIT,
  };
}

/** The module `init()` lists for the AI SDK, unless `frameworks.enabled` is false. */
export function aiSdkModules(host: Host): ModuleSpec[] {
  return [aiSpec(host)];
}

/** The explicit entry point reads schemas without the SDK's `asSchema` (zod 4 and AI SDK schemas convert). */
const EXPLICIT_KIND = aiSdkTools(() => loadedAsSchema);

/**
 * The explicit entry point: `tools` with every call checked, for
 * `generateText`, `streamText` or `new ToolLoopAgent({ tools })` where
 * auto-patching cannot reach `ai`. A new map of copies; the tools given are
 * not changed.
 */
export function wrapAiSdkTools<T>(host: Host, tools: T): T {
  return checkTools(host, EXPLICIT_KIND, tools);
}
