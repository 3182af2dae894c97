/**
 * Mastra tools as its agents run them: `convertTools` turns every tool an
 * agent may call (its own, toolsets, MCP, memory, workspace) into an AI SDK
 * style tool, whose `parameters` is a schema with `jsonSchema`. A rejected
 * call answers `{ error: true, message }`, the shape of Mastra's own answer to
 * tool input that fails validation, so the model sees a familiar failure.
 * The same copies are what `inst.wrapMastraTools(tools)` gives an agent.
 */
import { jsonSchemaOf } from '../../kit/tool-schemas.js';
import type { Host } from '../../kit/host.js';
import { checkTools, invokingExecute } from '../../kit/tools-map.js';
import type { ToolLike } from '../../kit/tools-map.js';
import type { RunToolsKind } from '../../kit/run-tools.js';
import { hasProperties, isObject } from '../../kit/values.js';
import { modelRun } from '../../kit/model-attribution.js';
import type { RunAttribution } from '../../engine/run-scope.js';

export interface MastraRejection {
  error: true;
  message: string;
}

export function mastraRejection(message: string): MastraRejection {
  return { error: true, message };
}

/** What each agent's calls were last attributed to, and the model and name it was read from. */
const agentRuns = new WeakMap<
  object,
  { model: unknown; name: unknown; run: RunAttribution | undefined }
>();

export const MASTRA_TOOLS: RunToolsKind = {
  integration: 'mastra',
  origin: 'mastra',
  inputSchema(tool: ToolLike) {
    const parameters = tool.parameters;
    if (isObject(parameters) && 'jsonSchema' in parameters) return parameters.jsonSchema;
    return jsonSchemaOf(tool.inputSchema, undefined);
  },
  checked: (call) => ({ execute: invokingExecute(MASTRA_TOOLS, call, mastraRejection) }),
  rejection: mastraRejection,
  // The scope of a run's tools is the agent: its `model` (a router id such as
  // `openai/gpt-5`, or an AI SDK model object) and its `name`, read again
  // only when they change. A model given as a function or a fallback list
  // names none argcheck can read.
  attributionOf(scope) {
    try {
      if (!hasProperties(scope) || typeof scope.convertTools !== 'function') return undefined;
      const { model, name } = scope;
      const kept = agentRuns.get(scope);
      if (kept !== undefined && kept.model === model && kept.name === name) return kept.run;
      const run = typeof model === 'function' ? undefined : modelRun(model, name);
      agentRuns.set(scope, { model, name, run });
      return run;
    } catch {
      return undefined;
    }
  },
};

/**
 * The explicit entry point that covers the tool's run: an agent's `tools`
 * with every call checked, each tool a copy whose `execute` checks, then
 * runs the tool marked as checked (so an MCP call it makes with the same
 * arguments counts once). A new map; the tools given are not changed.
 */
export function wrapMastraTools<T>(host: Host, tools: T): T {
  return checkTools(host, MASTRA_TOOLS, tools);
}
