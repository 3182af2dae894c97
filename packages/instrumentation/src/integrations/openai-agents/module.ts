/**
 * OpenAI Agents SDK: `@openai/agents` runs its tools through
 * `@openai/agents-core`'s internal `tool` module, patched in both builds
 * (`invoke-patch.ts`). The explicit entry point is a tool input guardrail,
 * `inst.openAIAgentsGuardrail()` (`guardrail.ts`).
 */
import type { Host } from '../../kit/host.js';
import type { ModuleSpec } from '../../kit/module-spec.js';
import { isObject } from '../../kit/values.js';
import { patchInvokeFunctionTool } from './invoke-patch.js';
import { patchRunnerRun } from './run-patch.js';

export const AGENTS_CORE_PACKAGE = '@openai/agents-core';

/** The module `init()` lists for the OpenAI Agents SDK, unless `frameworks.enabled` is false. */
/** `Runner.prototype` of the `run` module's exports, if these are they. */
function runnerPrototype(moduleExports: unknown): Record<PropertyKey, unknown> | undefined {
  const runner = isObject(moduleExports) ? moduleExports.Runner : undefined;
  const proto: unknown = typeof runner === 'function' ? runner.prototype : undefined;
  return isObject(proto) && typeof proto.run === 'function' ? proto : undefined;
}

/** The module `init()` lists for the OpenAI Agents SDK, unless `frameworks.enabled` is false. */
export function openAiAgentsModules(host: Host): ModuleSpec[] {
  return [
    {
      integration: 'openai_agents',
      packageName: AGENTS_CORE_PACKAGE,
      range: { lowest: '0.19.0', below: '0.21.0' },
      // The tool module runs the tools; the run module's Runner names each run's model and agent.
      files: ['dist/tool.js', 'dist/tool.mjs', 'dist/run.js', 'dist/run.mjs'],
      patch(moduleExports) {
        if (isObject(moduleExports) && typeof moduleExports.invokeFunctionTool === 'function') {
          host.wrapping.wrap(moduleExports, 'invokeFunctionTool', patchInvokeFunctionTool(host));
          return moduleExports;
        }
        const runner = runnerPrototype(moduleExports);
        if (runner !== undefined) {
          host.wrapping.wrap(runner, 'run', patchRunnerRun());
          return moduleExports;
        }
        if (isObject(moduleExports) && 'run' in moduleExports) {
          // The run module without a Runner class: calls are checked, their model is not named.
          host.diag.debug(
            `argcheck: ${AGENTS_CORE_PACKAGE}'s run module has no Runner.prototype.run`,
          );
        } else {
          host.diag.warn(
            `argcheck: ${AGENTS_CORE_PACKAGE}'s tool module has no invokeFunctionTool; not patched`,
          );
        }
        return moduleExports;
      },
      unpatch(moduleExports) {
        if (isObject(moduleExports)) host.wrapping.unwrap(moduleExports, 'invokeFunctionTool');
        const runner = runnerPrototype(moduleExports);
        if (runner !== undefined) host.wrapping.unwrap(runner, 'run');
      },
      explicit: 'inputGuardrails: [inst.openAIAgentsGuardrail()]',
    },
  ];
}
