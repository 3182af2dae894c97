import type { FrameworkModule, PrototypeWrapping } from '../framework-module.js';
import { isObject } from '../framework-tools.js';
import type { FrameworkHost } from '../framework-tools.js';
import { patchInvokeFunctionTool } from './invoke-patch.js';

/** `@openai/agents` runs its tools through this package's internal `tool` module. */
export const AGENTS_CORE_PACKAGE = '@openai/agents-core';
export const AGENTS_CORE_RANGE = { lowest: '0.19.0', below: '0.21.0' } as const;

/** The internal `tool` module of each build: `invokeFunctionTool` is patched there. */
export function openAiAgentsModule(
  host: FrameworkHost,
  wrapping: PrototypeWrapping,
): FrameworkModule {
  return {
    packageName: AGENTS_CORE_PACKAGE,
    range: AGENTS_CORE_RANGE,
    files: ['dist/tool.js', 'dist/tool.mjs'],
    patch(moduleExports) {
      if (isObject(moduleExports) && typeof moduleExports.invokeFunctionTool === 'function') {
        wrapping.wrap(moduleExports, 'invokeFunctionTool', patchInvokeFunctionTool(host));
      } else {
        host.diag.warn(
          `argcheck: ${AGENTS_CORE_PACKAGE}'s tool module has no invokeFunctionTool; not patched`,
        );
      }
    },
    unpatch(moduleExports) {
      if (isObject(moduleExports)) wrapping.unwrap(moduleExports, 'invokeFunctionTool');
    },
  };
}
