import type { FrameworkModule, PrototypeWrapping } from '../framework-module.js';
import type { FrameworkHost } from '../framework-tools.js';
import { patchToolCall, structuredToolPrototype } from './call-patch.js';
import { captureCoreModule } from './core-modules.js';

export const LANGCHAIN_CORE_PACKAGE = '@langchain/core';
export const LANGCHAIN_CORE_RANGE = { lowest: '1.0.0', below: '2.0.0' } as const;

/**
 * The tools module of each build (`StructuredTool.prototype.call` is
 * patched), and the modules `ToolMessage` and `toJsonSchema` come from.
 */
export function langChainModule(host: FrameworkHost, wrapping: PrototypeWrapping): FrameworkModule {
  return {
    packageName: LANGCHAIN_CORE_PACKAGE,
    range: LANGCHAIN_CORE_RANGE,
    files: [
      'dist/tools/index.cjs',
      'dist/tools/index.js',
      'dist/messages/tool.cjs',
      'dist/messages/tool.js',
      'dist/utils/json_schema.cjs',
      'dist/utils/json_schema.js',
    ],
    patch(moduleExports) {
      captureCoreModule(moduleExports);
      const proto = structuredToolPrototype(moduleExports);
      if (proto !== undefined) wrapping.wrap(proto, 'call', patchToolCall(host));
    },
    unpatch(moduleExports) {
      const proto = structuredToolPrototype(moduleExports);
      if (proto !== undefined) wrapping.unwrap(proto, 'call');
    },
  };
}
