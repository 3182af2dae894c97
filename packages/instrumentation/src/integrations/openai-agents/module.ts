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
export function openAiAgentsModules(host: Host): ModuleSpec[] {
  return [
    {
      integration: 'openai_agents',
      packageName: AGENTS_CORE_PACKAGE,
      range: { lowest: '0.19.0', below: '0.21.0' },
      files: ['dist/tool.js', 'dist/tool.mjs'],
      patch(moduleExports) {
        if (isObject(moduleExports) && typeof moduleExports.invokeFunctionTool === 'function') {
          host.wrapping.wrap(moduleExports, 'invokeFunctionTool', patchInvokeFunctionTool(host));
        } else {
          host.diag.warn(
            `argcheck: ${AGENTS_CORE_PACKAGE}'s tool module has no invokeFunctionTool; not patched`,
          );
        }
        return moduleExports;
      },
      unpatch(moduleExports) {
        if (isObject(moduleExports)) host.wrapping.unwrap(moduleExports, 'invokeFunctionTool');
      },
      explicit: 'inputGuardrails: [inst.openAIAgentsGuardrail()]',
    },
    {
      // The run's model and agent name, for the attribution of its calls.
      integration: 'openai_agents',
      packageName: AGENTS_CORE_PACKAGE,
      range: { lowest: '0.19.0', below: '0.21.0' },
      files: ['dist/run.js', 'dist/run.mjs'],
      patch(moduleExports) {
        const runner = isObject(moduleExports) ? moduleExports.Runner : undefined;
        const proto: unknown = typeof runner === 'function' ? runner.prototype : undefined;
        if (isObject(proto) && typeof proto.run === 'function') {
          host.wrapping.wrap(proto, 'run', patchRunnerRun());
        }
        return moduleExports;
      },
      unpatch(moduleExports) {
        const runner = isObject(moduleExports) ? moduleExports.Runner : undefined;
        const proto: unknown = typeof runner === 'function' ? runner.prototype : undefined;
        if (isObject(proto)) host.wrapping.unwrap(proto, 'run');
      },
      explicit: 'inputGuardrails: [inst.openAIAgentsGuardrail()]',
    },
  ];
}
